package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.inventory.PartitionReplicas;
import io.segscope.format.inventory.ReplicaScanner;
import io.segscope.format.inventory.ReplicaState;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.replay.AsOf;
import io.segscope.format.replay.CommittedOffset;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code segscope lag}: each group's committed offsets against the log end of the partitions in the dirs given. */
@Command(name = "lag", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Print how far behind each consumer group was, from the files.",
            "Per group, topic and partition: the committed offset (replayed from __consumer_offsets),",
            "the partition's log end offset and high watermark (from its most advanced replica",
            "among the PATHs), the lag against both (kafka-consumer-groups.sh --describe counts",
            "LAG against the high watermark, negative for a commit past it), the timestamp of the last consumed record and the",
            "time lag (the newest record's timestamp minus it). \"unknown\" where the data",
            "partition is not among the PATHs.", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:Kafka's load of a __consumer_offsets partition would fail (problems on stderr)",
            "2:usage error", "3:I/O error"})
public final class LagCommand implements Callable<Integer> {
    enum Format { table, jsonl, csv, kafka }

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Log dirs (one or several brokers'), partition dirs, or archives.")
    List<Path> paths;

    @Option(names = "--format", defaultValue = "table",
            description = "table (default), jsonl, csv, or kafka: the text of kafka-consumer-groups.sh --describe --all-groups (its"
                    + " notes on stderr), each member's assigned partitions with its ids and the committed ones no member has.")
    Format format;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "Only this topic. Repeatable.")
    List<String> topics;

    @CommandLine.Mixin
    ReplayOptions replay;

    @CommandLine.Mixin
    OptionValues.ReadOptions read;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** What kafka-consumer-groups.sh shows of a group: kept per group, not the replay holding it. */
    private record KafkaGroup(boolean consumer, String state, List<KafkaMember> members) {
        static KafkaGroup of(ReplayedGroup g) {
            boolean consumer = g.type() == io.segscope.format.replay.GroupType.CONSUMER
                    || g.type() == io.segscope.format.replay.GroupType.CLASSIC
                    && (g.protocolType() == null || g.protocolType().isEmpty() || "consumer".equals(g.protocolType()));
            List<KafkaMember> members = new ArrayList<>();
            if (consumer) {
                for (io.segscope.format.replay.Member m : g.members().values()) {
                    List<GroupsCommand.Assigned> as = GroupsCommand.assignedPartitions(m);
                    members.add(new KafkaMember(m.memberId(), m.host(), m.clientId(), as == null ? List.of() : as));
                }
            }
            return new KafkaGroup(consumer, g.state(), List.copyOf(members));
        }
    }

    private record KafkaMember(String memberId, String host, String clientId, List<GroupsCommand.Assigned> assigned) {
    }

    private final Map<String, KafkaGroup> groups = new java.util.TreeMap<>();
    private io.segscope.format.inventory.MetadataTopics metadata;
    /** "topic-partition" → {log end, high watermark} of the partitions found. */
    private final Map<String, long[]> endsByPartition = new HashMap<>();

    /** A committed offset, without its metadata (which can be kilobytes per row). */
    record Commit(String group, String topic, int partition, long offset, long commitTimestamp) {
    }

    /** One (group, topic, partition). */
    record Row(Commit committed, ReplicaState data, long logEnd, long highWatermark, long lastConsumedTimestamp,
               long newestTimestamp) {
        boolean known() {
            return data != null;
        }

        /** As kafka-consumer-groups.sh: the high watermark minus the committed offset (negative when the commit is past it). */
        long lag() {
            return highWatermark - committed.offset();
        }

        long lagToEnd() {
            return logEnd - committed.offset();
        }

        long timeLag() {
            if (committed.offset() >= highWatermark) {
                return 0;
            }
            return lastConsumedTimestamp < 0 || newestTimestamp < 0 ? -1 : Math.max(0, newestTimestamp - lastConsumedTimestamp);
        }
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        OffsetsCommand.Selection sel = OffsetsCommand.Selection.of(spec.commandLine(), replay.groups, replay.groupRegexes, topics, null);
        AsOf asOf = replay.asOf();
        boolean problems = false;
        boolean ioError;
        List<Row> rows = new ArrayList<>();
        groups.clear();
        metadata = null;
        try (OffsetsSource offsets = OffsetsSource.open("lag", paths, err);
             InventorySource inventory = InventorySource.open("lag", paths, new PrintWriter(java.io.Writer.nullWriter()))) {
            List<Commit> committed = new ArrayList<>();
            Map<String, String> strings = new HashMap<>();   // one instance per group id and topic
            for (OffsetsSource.Part part : offsets.parts()) {
                OffsetsSource.Replayed r = offsets.replay(part, asOf);
                problems |= offsets.reportProblems(List.of(r), err);
                for (CommittedOffset o : r.result().offsets()) {
                    if (sel.group(o.group()) && sel.topic(o.topic())) {
                        committed.add(new Commit(strings.computeIfAbsent(o.group(), x -> x), strings.computeIfAbsent(o.topic(), x -> x),
                                o.partition(), o.offset(), o.commitTimestamp()));
                    }
                }
                if (format == Format.kafka) {
                    for (ReplayedGroup g : r.result().groups().values()) {
                        if (sel.group(g.groupId())) {
                            groups.put(g.groupId(), KafkaGroup.of(g));
                        }
                    }
                }
            }
            metadata = inventory.metadata();
            if (offsets.parts().isEmpty()) {
                err.print("lag: no __consumer_offsets partition among the PATHs: no committed offset to compare\n");
            }
            java.util.Set<String> wanted = new java.util.HashSet<>();
            committed.forEach(o -> wanted.add(o.topic()));
            if (format == Format.kafka) {
                wanted.clear();   // members' assigned partitions too
            }
            Map<String, PartitionReplicas> data = new HashMap<>();
            for (PartitionReplicas p : inventory.scan(false, read.readerOptions(), t -> wanted.isEmpty() || wanted.contains(t))) {
                data.put(p.topic() + "-" + p.partition(), p);
            }
            endsByPartition.clear();
            ReplicaScanner scanner = new ReplicaScanner(read.readerOptions(), false);
            Map<String, long[]> ends = new HashMap<>();
            for (Commit o : committed) {
                PartitionReplicas p = data.get(o.topic() + "-" + o.partition());
                if (p == null) {
                    rows.add(new Row(o, null, -1, -1, -1, -1));
                    continue;
                }
                ReplicaState r = p.leader();
                PartitionDir dir = inventory.dirOf(r);
                long[] end = ends.computeIfAbsent(r.topicPartition(), k -> endAsOf(scanner, dir, r, asOf.timeMs()));
                endsByPartition.put(r.topicPartition(), end);
                long lastConsumed = o.offset() > r.logStartOffset() && o.offset() - 1 < end[0] && dir != null
                        ? scanner.timestampAt(dir, o.offset() - 1) : -1;
                rows.add(new Row(o, r, end[0], end[1], lastConsumed, end[2]));
            }
            if (format == Format.kafka) {
                for (PartitionReplicas p : data.values()) {
                    ReplicaState r = p.leader();
                    endsByPartition.computeIfAbsent(r.topicPartition(), k -> endAsOf(scanner, inventory.dirOf(r), r, asOf.timeMs()));
                }
            }
            ioError = offsets.ioError() || inventory.ioError();
        }
        rows.sort(Comparator.comparing((Row r) -> r.committed().group()).thenComparing(r -> r.committed().topic())
                .thenComparingInt(r -> r.committed().partition()));
        if (format == Format.kafka) {
            kafka(out, err, rows);
        } else {
            write(out, rows);
        }
        out.flush();
        if (rows.isEmpty()) {
            err.print("lag: no committed offset" + (replay.asOfTime != null ? " as of " + Times.iso(replay.asOfTime) : "")
                    + " matched the options\n");
        }
        if (ioError) {
            return Segscope.EXIT_IO;
        }
        return problems ? Segscope.EXIT_FINDINGS : Segscope.EXIT_OK;
    }

    /**
     * {log end, high watermark, newest record's timestamp} at the end of the log, or as of a time:
     * the first offset whose record is later than it (Kafka's search by timestamp), the high
     * watermark held at most there.
     */
    private static long[] endAsOf(ReplicaScanner scanner, PartitionDir dir, ReplicaState r, long asOfTime) {
        long end = r.logEndOffset();
        long hw = r.latestOffset();
        if (asOfTime != Long.MAX_VALUE && dir != null) {
            long[] later = scanner.searchTimestamp(dir, asOfTime + 1, r.logStartOffset());
            if (later != null) {
                end = Math.min(end, later[0]);
                hw = Math.min(hw, end);
            }
        }
        long newest = hw > r.logStartOffset() && dir != null ? scanner.timestampAt(dir, hw - 1) : -1;
        return new long[] {end, hw, newest};
    }

    private void write(PrintWriter out, List<Row> rows) throws IOException {
        switch (format) {
            case jsonl -> {
                JsonGenerator g = new JsonFactory().createGenerator(out);
                g.setRootValueSeparator(null);
                for (Row r : rows) {
                    Commit o = r.committed();
                    g.writeStartObject();
                    g.writeStringField("group", o.group());
                    g.writeStringField("topic", o.topic());
                    g.writeNumberField("partition", o.partition());
                    g.writeNumberField("committedOffset", o.offset());
                    PartitionsCommand.writeTime(g, "commitTimestamp", o.commitTimestamp());
                    if (r.known()) {
                        g.writeNumberField("logEndOffset", r.logEnd());
                        g.writeNumberField("highWatermark", r.highWatermark());
                        g.writeNumberField("lag", r.lag());
                        g.writeNumberField("lagToLogEnd", r.lagToEnd());
                        PartitionsCommand.writeTime(g, "lastConsumedTimestamp", r.lastConsumedTimestamp());
                        PartitionsCommand.writeTime(g, "newestTimestamp", r.newestTimestamp());
                        PartitionsCommand.writeTime(g, "timeLagMs", r.timeLag());
                        if (r.data().brokerId().isPresent()) {
                            g.writeNumberField("broker", r.data().brokerId().getAsInt());
                        }
                    } else {
                        g.writeStringField("logEndOffset", "unknown");
                        g.writeStringField("highWatermark", "unknown");
                        g.writeStringField("lag", "unknown");
                    }
                    g.writeEndObject();
                    g.flush();
                    out.print('\n');
                }
            }
            case csv -> {
                StringBuilder sb = new StringBuilder("group,topic,partition,committed_offset,log_end_offset,high_watermark,lag,lag_to_log_end,last_consumed_timestamp,time_lag_ms\n");
                for (Row r : rows) {
                    List<String> c = cells(r, false);
                    for (int i = 0; i < c.size(); i++) {
                        sb.append(i == 0 ? "" : ",").append(OffsetsCommand.csvField(c.get(i)));
                    }
                    sb.append('\n');
                }
                out.print(sb);
            }
            default -> {
                if (!rows.isEmpty()) {
                    Table.print(out, new String[] {"GROUP", "TOPIC", "PARTITION", "COMMITTED", "LOG-END", "HIGH-WATERMARK", "LAG",
                        "LAG-TO-END", "LAST-CONSUMED", "TIME-LAG"}, rows.size(), k -> {
                            List<String> c = cells(rows.get(k), true);
                            c.set(0, Table.cell(c.get(0)));
                            c.set(1, Table.cell(c.get(1)));
                            return c.toArray(String[]::new);
                        });
                }
            }
        }
    }

    /**
     * kafka-consumer-groups.sh --describe --all-groups ({@code ConsumerGroupService.printOffsets}):
     * the consumer groups (classic with the consumer protocol or none, and consumer groups) by id;
     * per group its members with assignments (the most partitions first), each assigned partition
     * by topic and partition with the member's ids, then the committed partitions no member has;
     * the columns as wide as their longest cell (at least 15).
     */
    private void kafka(PrintWriter out, PrintWriter err, List<Row> rows) {
        // rows are sorted by group: each group's committed partitions are a run of them
        Map<String, int[]> runOf = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            int[] run = runOf.computeIfAbsent(rows.get(i).committed().group(), k -> new int[] {0, 0});
            if (run[1] == 0) {
                run[0] = rows.size();
            }
            run[0] = Math.min(run[0], i);
            run[1] = i + 1;
        }
        java.util.Set<String> ids = new java.util.TreeSet<>(groups.keySet());
        ids.addAll(runOf.keySet());
        StringBuilder sb = new StringBuilder();
        for (String id : ids) {
            Map<String, Long> committed = new HashMap<>();
            int[] run = runOf.get(id);
            if (run != null) {
                for (int i = run[0]; i < run[1]; i++) {
                    Commit c = rows.get(i).committed();
                    committed.put(c.topic() + "\u0000" + c.partition(), c.offset());
                }
            }
            sb.setLength(0);
            KafkaGroup g = groups.get(id);
            if (g != null && !g.consumer()) {
                continue;   // share, streams and other protocols are not consumer groups
            }
            List<String[]> lines = new ArrayList<>();
            java.util.Set<String> assigned = new java.util.HashSet<>();
            if (g != null) {
                List<KafkaMember> members = new ArrayList<>(g.members());
                Map<KafkaMember, List<String[]>> parts = new java.util.IdentityHashMap<>();
                for (KafkaMember m : members) {
                    List<String[]> tps = new ArrayList<>();
                    List<GroupsCommand.Assigned> as = m.assigned();
                    if (as != null) {
                        for (GroupsCommand.Assigned a : as) {
                            String topic = a.topicId() instanceof io.segscope.format.io.KafkaUuid u && metadata != null
                                    ? metadata.name(u).orElse(a.name()) : a.name();
                            for (Object n : a.partitions()) {
                                tps.add(new String[] {topic, String.valueOf(n)});
                            }
                        }
                    }
                    tps.sort(Comparator.comparing((String[] x) -> x[0]).thenComparingInt(x -> Integer.parseInt(x[1])));
                    parts.put(m, tps);
                }
                members.removeIf(m -> parts.get(m).isEmpty());
                members.sort(Comparator.comparingInt((KafkaMember m) -> parts.get(m).size()).reversed());
                for (KafkaMember m : members) {
                    for (String[] tp : parts.get(m)) {
                        String key = tp[0] + "\u0000" + tp[1];
                        assigned.add(key);
                        lines.add(kafkaRow(id, tp[0], Integer.parseInt(tp[1]), committed.get(key), m.memberId(), m.host(), m.clientId()));
                    }
                }
            }
            List<String> rest = new ArrayList<>(committed.keySet());
            rest.removeIf(assigned::contains);
            rest.sort(Comparator.comparing((String k) -> k.substring(0, k.indexOf('\u0000')))
                    .thenComparingInt(k -> Integer.parseInt(k.substring(k.indexOf('\u0000') + 1))));
            for (String k : rest) {
                int i = k.indexOf('\u0000');
                lines.add(kafkaRow(id, k.substring(0, i), Integer.parseInt(k.substring(i + 1)), committed.get(k), "-", "-", "-"));
            }
            String state = g == null ? "Empty" : g.state();
            switch (state) {
                case "Empty" -> err.print("\nConsumer group '" + id + "' has no active members.\n");
                case "Dead" -> {
                    err.print("\nError: Consumer group '" + id + "' does not exist.\n");
                    continue;
                }
                case "Stable" -> {
                }
                default -> err.print("\nWarning: Consumer group '" + id + "' is rebalancing.\n");
            }
            if (lines.isEmpty()) {
                continue;
            }
            int gw = 15;
            int tw = 15;
            int cw = 15;
            int hw = 15;
            for (String[] l : lines) {
                gw = Math.max(gw, l[0].length());
                tw = Math.max(tw, l[1].length());
                cw = Math.max(cw, l[6].length());
                hw = Math.max(hw, l[7].length());
            }
            String f = "\n%-" + gw + "s %-" + tw + "s %-10s %-15s %-15s %-15s %-" + cw + "s %-" + hw + "s %s";
            sb.append(String.format(java.util.Locale.ROOT, f, "GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG",
                    "CONSUMER-ID", "HOST", "CLIENT-ID"));
            for (String[] l : lines) {
                sb.append(String.format(java.util.Locale.ROOT, f, (Object[]) l));
            }
            sb.append('\n');
            out.print(sb);
        }
    }

    private String[] kafkaRow(String group, String topic, int partition, Long committed, String member, String host, String client) {
        long[] end = endsByPartition.get(topic + "-" + partition);
        String logEnd = end == null ? "-" : Long.toString(end[1]);
        String lag = end == null || committed == null ? "-" : Long.toString(end[1] - committed);
        return new String[] {group, topic, Integer.toString(partition), committed == null ? "-" : committed.toString(), logEnd, lag,
            member == null ? "-" : member, host == null ? "-" : host, client == null ? "-" : client};
    }

    private static List<String> cells(Row r, boolean table) {
        Commit o = r.committed();
        List<String> c = new ArrayList<>(List.of(o.group(), o.topic(), Integer.toString(o.partition()), Long.toString(o.offset())));
        if (!r.known()) {
            c.addAll(List.of("unknown", "unknown", "unknown", "unknown", "unknown", "unknown"));
            return c;
        }
        c.add(Long.toString(r.logEnd()));
        c.add(Long.toString(r.highWatermark()));
        c.add(Long.toString(r.lag()));
        c.add(Long.toString(r.lagToEnd()));
        c.add(r.lastConsumedTimestamp() < 0 ? "-" : table ? Times.iso(r.lastConsumedTimestamp()) : Long.toString(r.lastConsumedTimestamp()));
        long tl = r.timeLag();
        c.add(tl < 0 ? "-" : table ? duration(tl) : Long.toString(tl));
        return c;
    }

    private static String duration(long ms) {
        if (ms < 1000) {
            return ms + "ms";
        }
        long s = ms / 1000;
        return s < 120 ? s + "s" : s < 7200 ? (s / 60) + "m" : (s / 3600) + "h";
    }
}
