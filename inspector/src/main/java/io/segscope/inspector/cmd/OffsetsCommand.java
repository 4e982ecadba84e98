package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.coordinator.CoordinatorPartition;
import io.segscope.format.replay.AsOf;
import io.segscope.format.replay.CommittedOffset;
import io.segscope.format.replay.ExpiredOffset;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code segscope offsets}: the committed offsets of every {@code __consumer_offsets} partition
 * found, replayed as Kafka 4.4's group coordinator loads them ({@link io.segscope.format.replay}).
 */
@Command(name = "offsets", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Print the committed offsets of consumer groups.",
            "__consumer_offsets is replayed as Kafka 4.4's group coordinator loads it.",
            "PATH is a log dir, a partition dir of",
            "__consumer_offsets, several of them, or an archive of one. Several log dirs",
            "holding copies of a partition: the copy a new leader would have is read, and",
            "divergent copies are reported on stderr.", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:Kafka's load of a partition would fail (problems on stderr)",
            "2:usage error", "3:I/O error"})
public final class OffsetsCommand implements Callable<Integer> {
    enum Format { table, jsonl, csv }

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Log dir, __consumer_offsets partition dir, or archive.")
    List<Path> paths;

    @Option(names = "--format", defaultValue = "table",
            description = "table (default), jsonl (every field, with where it was read), or csv (group,topic,partition,offset:"
                    + " the file kafka-consumer-groups.sh --reset-offsets --from-file reads).")
    Format format;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "Only this topic. Repeatable.")
    List<String> topics;

    @Option(names = "--topic-regex", paramLabel = "REGEX", description = "Only topics this Java regex matches (anywhere). Repeatable.")
    List<String> topicRegexes;

    @Option(names = "--pending", description = "Only transactional offsets still waiting for their producer's COMMIT or ABORT.")
    boolean pending;

    @Option(names = "--expired", description = "Only the offsets Kafka's expiration job would delete (offsets.retention.minutes: --retention).")
    boolean expired;

    @Option(names = "--retention", paramLabel = "DURATION", defaultValue = "7d", converter = DurationConverter.class,
            description = "offsets.retention for --expired: a number and ms, s, m, h or d (default 7d).")
    long retentionMs;

    @Option(names = "--partitions", paramLabel = "N",
            description = "offsets.topic.num.partitions: warn when a group is found in another partition than Kafka's hash rule names.")
    Integer partitions;

    @Option(names = "--rename", paramLabel = "OLD=NEW",
            description = "Print group OLD's offsets as group NEW's (seeding a new group with a stuck group's offsets). Repeatable.")
    List<String> renames;

    @Option(names = "--csv-quote",
            description = "csv: also write group ids with line breaks (RFC 4180-quoted), which kafka-consumer-groups.sh cannot read.")
    boolean csvQuote;

    @Option(names = "--zookeeper", paramLabel = "ZK_DATA_DIR",
            description = "Also read the offsets old consumers committed to ZooKeeper (a ZooKeeper data dir or archive) and"
                    + " print both per partition, with the one a 0.8.2 dual-commit consumer fetches (the larger).")
    Path zookeeper;

    @CommandLine.Mixin
    ReplayOptions replay;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Selection sel = Selection.of(spec.commandLine(), replay.groups, replay.groupRegexes, topics, topicRegexes);
        AsOf asOf = replay.asOf();
        if (partitions != null && partitions <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--partitions must be positive, not " + partitions);
        }
        if (pending && expired) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--pending and --expired select different offsets: give one");
        }
        Map<String, String> rename = renames(spec.commandLine(), renames);
        try (OffsetsSource source = OffsetsSource.open("offsets", paths, err)) {
            boolean problems = false;
            int count = partitions != null ? partitions : source.partitionsSeen();
            List<Row> rows = new ArrayList<>();
            Set<String> groupsSeen = new TreeSet<>();
            // one partition's replay at a time: its rows are kept, its state is not
            for (OffsetsSource.Part part : source.parts()) {
                OffsetsSource.Replayed r = source.replay(part, asOf);
                problems |= source.reportProblems(List.of(r), err);
                if (partitions != null) {
                    for (ReplayedGroup g : r.result().groups().values()) {
                        int expected = CoordinatorPartition.of(g.groupId(), partitions);
                        if (expected != r.part().partition() && sel.group(g.groupId())) {
                            err.print("offsets: group " + TextQuote.quote(g.groupId()) + " is in " + OffsetsSource.TOPIC + "-"
                                    + r.part().partition() + ", but Kafka's hash rule with " + partitions + " partitions names "
                                    + OffsetsSource.TOPIC + "-" + expected + ": a coordinator would not load it from there\n");
                        }
                    }
                }
                if (expired) {
                    for (ExpiredOffset e : r.result().expiredOffsets(retentionMs, r.result().now())) {
                        add(rows, sel, e.offset(), e, groupsSeen);
                    }
                } else {
                    for (CommittedOffset o : pending ? r.result().pendingOffsets() : r.result().offsets()) {
                        add(rows, sel, o, null, groupsSeen);
                    }
                }
            }
            warnRenames(rename, groupsSeen, count, err);
            List<Row> named = new ArrayList<>(rows.size());
            for (Row row : rows) {
                named.add(new Row(rename.getOrDefault(row.group, row.group), row.offset, row.expired));
            }
            if (format == Format.csv) {
                checkCsv(named);
            }
            if (zookeeper != null) {
                Integer code = ZkDualCommit.print(spec.commandLine(), zookeeper, sel, named.stream().map(r -> new ZkDualCommit.KafkaRow(r.group,
                        r.offset.topic(), r.offset.partition(), r.offset.offset(), r.offset.commitTimestamp())).toList(),
                        format.name(), out, err);
                if (code != null) {
                    return code;
                }
                return source.ioError() ? Segscope.EXIT_IO : problems ? Segscope.EXIT_FINDINGS : Segscope.EXIT_OK;
            }
            write(out, named);
            out.flush();
            if (named.isEmpty()) {
                err.print("offsets: no " + (pending ? "pending " : expired ? "expired " : "committed ")
                        + "offset matched in " + source.parts().size() + " partition(s) of " + OffsetsSource.TOPIC + "\n");
            }
            if (source.ioError()) {
                return Segscope.EXIT_IO;
            }
            return problems ? Segscope.EXIT_FINDINGS : Segscope.EXIT_OK;
        }
    }

    private record Row(String group, CommittedOffset offset, ExpiredOffset expired) {
    }

    private static void add(List<Row> rows, Selection sel, CommittedOffset o, ExpiredOffset e, Set<String> groupsSeen) {
        if (sel.group(o.group()) && sel.topic(o.topic())) {
            rows.add(new Row(o.group(), o, e));
            groupsSeen.add(o.group());
        }
    }

    static Map<String, String> renames(CommandLine cl, List<String> renames) {
        Map<String, String> out = new LinkedHashMap<>();
        if (renames == null) {
            return out;
        }
        for (String r : renames) {
            int eq = r.indexOf('=');
            if (eq <= 0 || eq == r.length() - 1) {
                throw new CommandLine.ParameterException(cl, "--rename takes OLD=NEW, not '" + r + "'");
            }
            String old = r.substring(0, eq);
            String neu = r.substring(eq + 1);
            if (out.put(old, neu) != null) {
                throw new CommandLine.ParameterException(cl, "--rename names group '" + old + "' twice");
            }
            if (old.equals(neu)) {
                throw new CommandLine.ParameterException(cl, "--rename " + r + " renames a group to itself");
            }
        }
        return out;
    }

    private static void warnRenames(Map<String, String> rename, Set<String> groupsSeen, int count, PrintWriter err) {
        int n = count > 0 ? count : 50;
        for (Map.Entry<String, String> e : rename.entrySet()) {
            String old = e.getKey();
            String neu = e.getValue();
            if (!groupsSeen.contains(old)) {
                err.print("offsets: --rename: no offsets of group " + TextQuote.quote(old) + " selected\n");
            }
            if (groupsSeen.contains(neu) && !rename.containsKey(neu)) {
                err.print("offsets: --rename: group " + TextQuote.quote(neu) + " has offsets of its own: the output mixes them\n");
            }
            int po = CoordinatorPartition.of(old, n);
            if (po == CoordinatorPartition.of(neu, n)) {
                err.print("offsets: --rename: " + TextQuote.quote(neu) + " hashes to the same partition as " + TextQuote.quote(old)
                        + " (" + OffsetsSource.TOPIC + "-" + po + " of " + n + "): if that partition's coordinator is stuck, the new group is too\n");
            }
        }
    }

    /** Kafka's reader splits the file at \n before parsing each line as CSV: a line break in a field cannot be read back. */
    private void checkCsv(List<Row> rows) {
        if (csvQuote) {
            return;
        }
        for (Row r : rows) {
            if (r.group.indexOf('\n') >= 0 || r.group.indexOf('\r') >= 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), "group " + TextQuote.quote(r.group)
                        + " holds a line break, which kafka-consumer-groups.sh --from-file cannot read (it splits the file at"
                        + " line breaks before parsing the CSV): leave the group out (--group, --group-regex), --rename it,"
                        + " or give --csv-quote to write it RFC 4180-quoted for other readers");
            }
        }
    }

    /** An RFC 4180 field: quoted, with quotes doubled, when it holds a comma, a quote or a line break. */
    static String csvField(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ',' || c == '"' || c == '\n' || c == '\r') {
                return '"' + s.replace("\"", "\"\"") + '"';
            }
        }
        return s;
    }

    private void write(PrintWriter out, List<Row> rows) throws IOException {
        switch (format) {
            case csv -> {
                StringBuilder sb = new StringBuilder();
                for (Row r : rows) {
                    CommittedOffset o = r.offset;
                    sb.setLength(0);
                    sb.append(csvField(r.group)).append(',').append(csvField(o.topic())).append(',').append(o.partition())
                            .append(',').append(o.offset()).append('\n');
                    out.print(sb);
                }
            }
            case jsonl -> {
                JsonGenerator json = new JsonFactory().createGenerator(out);
                json.setRootValueSeparator(null);
                for (Row r : rows) {
                    writeJson(json, r);
                    json.flush();
                    out.print('\n');
                }
            }
            default -> {
                Table t = expired
                        ? new Table("GROUP", "TOPIC", "PARTITION", "OFFSET", "LEADER-EPOCH", "COMMIT-TIME", "EXPIRED-AT", "RULE", "METADATA")
                        : pending
                        ? new Table("GROUP", "TOPIC", "PARTITION", "OFFSET", "LEADER-EPOCH", "COMMIT-TIME", "PRODUCER-ID", "METADATA")
                        : new Table("GROUP", "TOPIC", "PARTITION", "OFFSET", "LEADER-EPOCH", "COMMIT-TIME", "METADATA");
                for (Row r : rows) {
                    CommittedOffset o = r.offset;
                    List<String> cells = new ArrayList<>(List.of(Table.cell(r.group), Table.cell(o.topic()),
                            Integer.toString(o.partition()), Long.toString(o.offset()),
                            o.leaderEpoch() < 0 ? "-" : Integer.toString(o.leaderEpoch()), Times.iso(o.commitTimestamp())));
                    if (expired) {
                        cells.add(Times.iso(r.expired.expiresAt()));
                        cells.add(r.expired.rule());
                    } else if (pending) {
                        cells.add(Long.toString(o.producerId()));
                    }
                    cells.add(Table.cell(o.metadata()));
                    t.add(cells.toArray(String[]::new));
                }
                if (t.size() > 0) {
                    t.print(out);
                }
            }
        }
    }

    private static void writeJson(JsonGenerator json, Row r) throws IOException {
        CommittedOffset o = r.offset;
        json.writeStartObject();
        json.writeStringField("group", r.group);
        if (!r.group.equals(o.group())) {
            json.writeStringField("renamedFrom", o.group());
        }
        json.writeStringField("topic", o.topic());
        json.writeNumberField("partition", o.partition());
        json.writeNumberField("offset", o.offset());
        nullable(json, "leaderEpoch", o.leaderEpoch(), -1);
        json.writeStringField("metadata", o.metadata());
        json.writeNumberField("commitTimestamp", o.commitTimestamp());
        json.writeStringField("commitTime", o.commitTimestamp() < 0 ? null : Times.iso(o.commitTimestamp()));
        nullable(json, "expireTimestamp", o.expireTimestamp(), -1);
        json.writeStringField("topicId", o.topicId() == null ? null : o.topicId().toString());
        nullable(json, "producerId", o.producerId(), -1);
        if (r.expired != null) {
            json.writeNumberField("expiresAt", r.expired.expiresAt());
            json.writeStringField("expiryRule", r.expired.rule());
        }
        json.writeObjectFieldStart("source");
        json.writeStringField("file", o.source().file());
        nullable(json, "coordinatorPartition", o.source().coordinatorPartition(), -1);
        json.writeNumberField("logOffset", o.source().logOffset());
        json.writeNumberField("position", o.source().position());
        nullable(json, "batchTimestamp", o.source().batchTimestamp(), -1);
        json.writeEndObject();
        json.writeEndObject();
    }

    static void nullable(JsonGenerator json, String name, long value, long absent) throws IOException {
        if (value == absent) {
            json.writeNullField(name);
        } else {
            json.writeNumberField(name, value);
        }
    }

    /** --group/--group-regex and --topic/--topic-regex. */
    record Selection(Set<String> groups, List<Pattern> groupRegexes, Set<String> topics, List<Pattern> topicRegexes) {
        static Selection of(CommandLine cl, List<String> groups, List<String> groupRegexes, List<String> topics,
                            List<String> topicRegexes) {
            return new Selection(groups == null ? Set.of() : Set.copyOf(groups), patterns(cl, "--group-regex", groupRegexes),
                    topics == null ? Set.of() : Set.copyOf(topics), patterns(cl, "--topic-regex", topicRegexes));
        }

        private static List<Pattern> patterns(CommandLine cl, String option, List<String> regexes) {
            List<Pattern> out = new ArrayList<>();
            if (regexes != null) {
                for (String r : regexes) {
                    try {
                        out.add(Pattern.compile(r));
                    } catch (PatternSyntaxException e) {
                        throw new CommandLine.ParameterException(cl, option + ": '" + r + "' is not a regular expression: "
                                + e.getDescription());
                    }
                }
            }
            return out;
        }

        boolean group(String g) {
            return matches(g, groups, groupRegexes);
        }

        boolean topic(String t) {
            return matches(t, topics, topicRegexes);
        }

        private static boolean matches(String s, Set<String> exact, List<Pattern> regexes) {
            if (exact.isEmpty() && regexes.isEmpty()) {
                return true;
            }
            if (exact.contains(s)) {
                return true;
            }
            for (Pattern p : regexes) {
                if (p.matcher(s).find()) {
                    return true;
                }
            }
            return false;
        }
    }
}
