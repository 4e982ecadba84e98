package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.coordinator.EmbeddedProtocol;
import io.segscope.format.replay.AsOf;
import io.segscope.format.replay.CommittedOffset;
import io.segscope.format.replay.GroupType;
import io.segscope.format.replay.Member;
import io.segscope.format.replay.ReplayedGroup;
import io.segscope.inspector.Segscope;
import io.segscope.inspector.output.Times;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code segscope groups}: the groups of every {@code __consumer_offsets} partition found, as a coordinator would load them. */
@Command(name = "groups", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Print the consumer groups __consumer_offsets holds.",
            "As Kafka 4.4's group coordinator would load them: type, state, protocol,",
            "generation or epoch,",
            "members, last commit, committed partitions, pending transactional commits",
            "and the partition of __consumer_offsets that coordinates the group.", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:Kafka's load of a partition would fail (problems on stderr)",
            "2:usage error", "3:I/O error"})
public final class GroupsCommand implements Callable<Integer> {
    enum Format { table, jsonl }

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Log dir, __consumer_offsets partition dir, or archive.")
    List<Path> paths;

    @Option(names = "--format", defaultValue = "table", description = "table (default) or jsonl.")
    Format format;

    @Option(names = "--members", description = "Also one line per member: member id, client id, host, instance id, assignment.")
    boolean members;

    @Option(names = "--coordinator-partition", paramLabel = "N",
            description = "Only groups coordinated by this partition of __consumer_offsets (the groups a failed partition takes down). Repeatable.")
    List<Integer> coordinatorPartitions;

    @CommandLine.Mixin
    ReplayOptions replay;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        OffsetsCommand.Selection sel = OffsetsCommand.Selection.of(spec.commandLine(), replay.groups, replay.groupRegexes, null, null);
        AsOf asOf = replay.asOf();
        Set<Integer> only = coordinatorPartitions == null ? Set.of() : Set.copyOf(coordinatorPartitions);
        try (OffsetsSource source = OffsetsSource.open("groups", paths, err)) {
            boolean problems = false;
            int replayedCount = 0;
            JsonGenerator json = null;
            if (format == Format.jsonl) {
                json = new JsonFactory().createGenerator(out);
                json.setRootValueSeparator(null);
            }
            Table table = new Table("GROUP", "TYPE", "STATE", "PROTOCOL", "GENERATION", "MEMBERS", "LAST-COMMIT",
                    "PARTITIONS", "PENDING", "COORDINATOR");
            Table memberTable = new Table("GROUP", "MEMBER", "CLIENT-ID", "HOST", "INSTANCE-ID", "ASSIGNMENT");
            record Entry(ReplayedGroup g, long[] c, int pending, int partition) {
            }
            List<Entry> entries = new ArrayList<>();
            // one partition's replay at a time: its groups are kept, its offsets table is not
            for (OffsetsSource.Part part : source.parts()) {
                if (!only.isEmpty() && !only.contains(part.partition())) {
                    continue;
                }
                OffsetsSource.Replayed r = source.replay(part, asOf);
                replayedCount++;
                problems |= source.reportProblems(List.of(r), err);
                Map<String, long[]> commits = new HashMap<>(); // group -> {partitions, last commit}
                for (CommittedOffset o : r.result().offsets()) {
                    long[] c = commits.computeIfAbsent(o.group(), x -> new long[] {0, -1});
                    c[0]++;
                    c[1] = Math.max(c[1], o.commitTimestamp());
                }
                Map<String, Integer> pending = new HashMap<>();
                for (CommittedOffset o : r.result().pendingOffsets()) {
                    pending.merge(o.group(), 1, Integer::sum);
                }
                for (ReplayedGroup g : r.result().groups().values()) {
                    // A simple group (no group record, only commits) whose offsets were all deleted
                    // is gone: the old group coordinator (before 3.9's new one) deletes such a
                    // group with offset tombstones only, no group tombstone, and neither
                    // coordinator keeps an Empty group without offsets past its cleanup
                    // (docs/format.md 3.4).
                    boolean gone = g.type() == GroupType.CLASSIC && g.isSimple() && g.members().isEmpty()
                            && !commits.containsKey(g.groupId()) && !pending.containsKey(g.groupId());
                    if (!gone && sel.group(g.groupId())) {
                        entries.add(new Entry(g, commits.getOrDefault(g.groupId(), new long[] {0, -1}),
                                pending.getOrDefault(g.groupId(), 0), r.part().partition()));
                    }
                }
            }
            entries.sort(java.util.Comparator.comparing((Entry e) -> e.g().groupId()).thenComparingInt(Entry::partition));
            for (Entry e : entries) {
                ReplayedGroup g = e.g();
                long[] c = e.c();
                if (json != null) {
                    writeJson(json, g, c, e.pending(), e.partition());
                    json.flush();
                    out.print('\n');
                    continue;
                }
                table.add(Table.cell(g.groupId()), g.type().display() + (g.isSimple() ? " (simple)" : ""), g.state(),
                        Table.cell(protocol(g)), Integer.toString(g.generationOrEpoch()), Integer.toString(g.members().size()),
                        Times.iso(c[1]), Long.toString(c[0]), Integer.toString(e.pending()),
                        OffsetsSource.TOPIC + "-" + e.partition());
                if (members) {
                    for (Member m : g.members().values()) {
                        String a = assignment(g, m);
                        memberTable.add(Table.cell(g.groupId()), Table.cell(m.memberId()), Table.cell(m.clientId()),
                                Table.cell(m.host()), Table.cell(m.groupInstanceId()), a == null ? "-" : a);
                    }
                }
            }
            if (json == null) {
                if (table.size() > 0) {
                    table.print(out);
                }
                if (members && memberTable.size() > 0) {
                    out.print('\n');
                    memberTable.print(out);
                }
            }
            out.flush();
            if (entries.isEmpty()) {
                err.print("groups: no group matched in " + replayedCount + " partition(s) of " + OffsetsSource.TOPIC + "\n");
            }
            if (source.ioError()) {
                return Segscope.EXIT_IO;
            }
            return problems ? Segscope.EXIT_FINDINGS : Segscope.EXIT_OK;
        }
    }

    /** Classic: protocolType/protocol (consumer/range); modern groups have no protocol record. */
    private static String protocol(ReplayedGroup g) {
        if (g.type() != GroupType.CLASSIC || g.protocolType() == null) {
            return null;
        }
        String p = g.protocol();
        return g.protocolType() + (p == null || p.isEmpty() ? "" : "/" + p);
    }

    /**
     * A member's assignment as {@code topic:0,1 topic2:3} (topic names hold no space or comma: not
     * quoted), from {@link #assignedPartitions}; null when there is none or it does not parse.
     */
    static String assignment(ReplayedGroup g, Member m) {
        List<Assigned> assigned = assignedPartitions(m);
        if (assigned == null) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        for (Assigned a : assigned) {
            StringBuilder sb = new StringBuilder(a.name()).append(':');
            int i = 0;
            for (Object n : a.partitions()) {
                sb.append(i++ == 0 ? "" : ",").append(n);
            }
            parts.add(sb.toString());
        }
        return String.join(" ", parts);
    }

    /**
     * One topic (or streams subtopology) of a member's assignment.
     *
     * @param name the topic name, subtopology id, or topic id as text (consumer groups assign by id)
     * @param topicId the topic id when the assignment names the topic by id, else null
     */
    record Assigned(String name, Object topicId, List<Object> partitions) {
    }

    /**
     * A member's assignment: a classic member's decoded consumer protocol assignment, a consumer or
     * share member's current assignment, a streams member's active tasks; null when there is none or
     * it does not parse.
     */
    @SuppressWarnings("unchecked")
    static List<Assigned> assignedPartitions(Member m) {
        StructValue s = null;
        if (m.assignment() instanceof EmbeddedProtocol p) {
            s = p.struct();
        } else if (m.currentAssignment() != null) {
            s = m.currentAssignment();
        }
        if (s == null) {
            return null;
        }
        String field = s.schema().indexOf("AssignedPartitions") >= 0 ? "AssignedPartitions"
                : s.schema().indexOf("ActiveTasks") >= 0 ? "ActiveTasks" : null;
        if (field == null) {
            return null;
        }
        List<Assigned> out = new ArrayList<>();
        for (Object o : (List<Object>) s.get(field)) {
            StructValue tp = (StructValue) o;
            Object id = tp.schema().indexOf("TopicId") >= 0 ? tp.get("TopicId") : null;
            String name = tp.schema().indexOf("Topic") >= 0 ? tp.getString("Topic")
                    : tp.schema().indexOf("SubtopologyId") >= 0 ? tp.getString("SubtopologyId")
                    : id != null ? String.valueOf(id) : "?";
            Object list = tp.schema().indexOf("Partitions") >= 0 ? tp.get("Partitions") : List.of();
            out.add(new Assigned(name, tp.schema().indexOf("Topic") >= 0 ? null : id, (List<Object>) list));
        }
        return out;
    }

    private void writeJson(JsonGenerator json, ReplayedGroup g, long[] c, int pend, int partition) throws IOException {
        json.writeStartObject();
        json.writeStringField("group", g.groupId());
        json.writeStringField("type", g.type().display());
        json.writeBooleanField("simple", g.isSimple());
        json.writeStringField("state", g.state());
        json.writeStringField("protocolType", g.protocolType());
        json.writeStringField("protocol", g.type() == GroupType.CLASSIC ? g.protocol() : null);
        json.writeNumberField("generationOrEpoch", g.generationOrEpoch());
        if (g.type() != GroupType.CLASSIC) {
            json.writeNumberField("assignmentEpoch", g.assignmentEpoch());
        }
        json.writeNumberField("memberCount", g.members().size());
        OffsetsCommand.nullable(json, "lastCommitTimestamp", c[1], -1);
        json.writeStringField("lastCommitTime", c[1] < 0 ? null : Times.iso(c[1]));
        json.writeNumberField("committedPartitions", c[0]);
        json.writeNumberField("pendingTransactionalOffsets", pend);
        json.writeNumberField("coordinatorPartition", partition);
        if (members) {
            json.writeArrayFieldStart("members");
            for (Member m : g.members().values()) {
                json.writeStartObject();
                json.writeStringField("memberId", m.memberId());
                json.writeStringField("clientId", m.clientId());
                json.writeStringField("host", m.host());
                json.writeStringField("instanceId", m.groupInstanceId());
                if (g.type() != GroupType.CLASSIC) {
                    json.writeNumberField("memberEpoch", m.memberEpoch());
                }
                json.writeStringField("assignment", assignment(g, m));
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        json.writeEndObject();
    }
}
