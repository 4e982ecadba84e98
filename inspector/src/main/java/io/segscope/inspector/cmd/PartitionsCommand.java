package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.error.FormatException;
import io.segscope.format.inventory.Divergence;
import io.segscope.format.inventory.OpenTransaction;
import io.segscope.format.inventory.PartitionReplicas;
import io.segscope.format.inventory.ReplicaScanner;
import io.segscope.format.inventory.ReplicaState;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.logdir.TopicPartitionName;
import io.segscope.format.state.EpochEntry;
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
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** {@code segscope partitions}: one row per partition replica, as Kafka would load it from the files. */
@Command(name = "partitions", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Print what each partition replica holds, read from its files as Kafka 4.4 loads them.",
            "Topic, partition, topic id, broker, log start offset (checkpoint and first segment),",
            "log end offset, high watermark, recovery point, last stable offset, first and max",
            "timestamp and the max timestamp's offset, leader epochs, segments, bytes, producers,",
            "open transactions, and for compacted topics the cleaner checkpoint and dirty ratio.",
            "With several brokers' log dirs, the replicas of a partition side by side: the most",
            "advanced marked, the others in sync, behind or diverged (where Kafka would truncate).",
            "Reads segment tails, indexes and checkpoints, not every batch, unless --deep.",
            "--time answers as kafka-get-offsets.sh --time does (topic:partition:offset).", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:damage found, or replicas that diverged (details on stderr and in the rows)",
            "2:usage error", "3:I/O error"})
public final class PartitionsCommand implements Callable<Integer> {
    enum Format { table, jsonl, csv }

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Log dirs (one or several brokers'), partition dirs, or archives.")
    List<Path> paths;

    @Option(names = "--format", defaultValue = "table", description = "table (default), jsonl (every field) or csv.")
    Format format;

    @Option(names = "--deep", description = "Read and check every batch of every segment (exact epochs and timestamps, damage anywhere).")
    boolean deep;

    @Option(names = "--topic", paramLabel = "REGEX", description = "Only topics this Java regex matches in full (as kafka-get-offsets.sh --topic).")
    String topic;

    @Option(names = "--exclude-internal-topics", description = "Leave out Kafka's internal topics (names starting with __).")
    boolean excludeInternal;

    @Option(names = "--time", paramLabel = "TIME",
            description = "Print topic:partition:offset as kafka-get-offsets.sh --time does: -1 or latest (high watermark), -2 or earliest,"
                    + " -3 or max-timestamp, -4 or earliest-local, -5 or latest-tiered, -6 or earliest-pending-upload,"
                    + " epoch ms or ISO-8601 (the first offset with a timestamp at or after it). Partitions with no answer are left out.")
    String time;

    @CommandLine.Mixin
    OptionValues.ReadOptions read;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Long target = time == null ? null : parseTime(time);
        Predicate<String> topics = topicFilter();
        try (InventorySource source = InventorySource.open("partitions", paths, err)) {
            List<PartitionReplicas> parts = source.scan(deep, read.readerOptions(), topics);
            boolean findings = false;
            for (PartitionReplicas p : parts) {
                for (ReplicaState r : p.replicas()) {
                    for (FormatException e : r.problems()) {
                        err.print("partitions: " + e.getMessage() + "\n");
                        findings = true;
                    }
                }
                for (int i = 0; i < p.replicas().size(); i++) {
                    Divergence d = p.standing().get(i);
                    if (d.kind().equals(Divergence.DIVERGED)) {
                        err.print("partitions: " + p.topic() + "-" + p.partition() + " on " + where(p.replicas().get(i))
                                + " diverged: " + d.reason() + "\n");
                        findings = true;
                    }
                }
            }
            if (target != null) {
                printTime(out, err, source, parts, target);
            } else {
                switch (format) {
                    case table -> table(out, parts);
                    case csv -> csv(out, parts);
                    case jsonl -> jsonl(out, parts);
                }
            }
            out.flush();
            if (parts.isEmpty()) {
                err.print("partitions: no partition found" + (topic != null ? " matching --topic " + TextQuote.quote(topic) : "") + "\n");
            }
            if (source.ioError()) {
                return Segscope.EXIT_IO;
            }
            return findings ? Segscope.EXIT_FINDINGS : Segscope.EXIT_OK;
        }
    }

    private Predicate<String> topicFilter() {
        Pattern p = null;
        if (topic != null) {
            try {
                p = Pattern.compile(topic);
            } catch (PatternSyntaxException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--topic: not a regular expression: " + e.getDescription());
            }
        }
        Pattern fp = p;
        return t -> (fp == null || fp.matcher(t).matches()) && !(excludeInternal && t.startsWith("__"));
    }

    /** The --time value as a ListOffsets timestamp (-1..-6) or a time in epoch ms. */
    private long parseTime(String v) {
        switch (v) {
            case "latest": return -1;
            case "earliest": return -2;
            case "max-timestamp": return -3;
            case "earliest-local": return -4;
            case "latest-tiered": return -5;
            case "earliest-pending-upload": return -6;
            default:
        }
        long t;
        try {
            t = new TimeConverter().convert(v);
        } catch (Exception e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--time: malformed time " + TextQuote.quote(v)
                    + ": use -1 or latest, -2 or earliest, -3 or max-timestamp, -4 or earliest-local, -5 or latest-tiered,"
                    + " -6 or earliest-pending-upload, epoch ms or ISO-8601");
        }
        if (t < -6) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--time: " + t + " is not a time nor one of -1 to -6");
        }
        return t;
    }

    /** kafka-get-offsets.sh: one line per partition, sorted as TopicPartition.toString() sorts, no line for -1; the metadata log is not a topic. */
    private void printTime(PrintWriter out, PrintWriter err, InventorySource source, List<PartitionReplicas> parts, long t) {
        TreeMap<String, Long> lines = new TreeMap<>();
        ReplicaScanner scanner = new ReplicaScanner(read.readerOptions(), false);
        for (PartitionReplicas p : parts) {
            if (TopicPartitionName.METADATA_TOPIC.equals(p.topic())) {
                continue;
            }
            ReplicaState r = p.leader();
            long offset = switch ((int) Math.max(t, -7)) {
                case -1 -> r.latestOffset();
                case -2, -4 -> r.logStartOffset();
                case -3 -> r.maxTimestampOffset();
                case -5, -6 -> -1;
                default -> {
                    PartitionDir dir = source.dirOf(r);
                    long[] found = dir == null ? null : scanner.searchTimestamp(dir, t, r.logStartOffset());
                    yield found == null || found[0] >= r.latestOffset() ? -1 : found[0];
                }
            };
            if (offset != -1) {
                lines.put(p.topic() + "-" + p.partition() + "\u0000" + p.topic() + ":" + p.partition(), offset);
            }
        }
        StringBuilder sb = new StringBuilder();
        lines.forEach((k, v) -> sb.append(k, k.indexOf('\u0000') + 1, k.length()).append(':').append(v).append('\n'));
        out.print(sb);
        if (lines.isEmpty() && !parts.isEmpty()) {
            err.print("partitions: no partition has an offset for --time " + time + " (kafka-get-offsets.sh prints no line for"
                    + " those either: none found, or at or past the high watermark)\n");
        }
    }

    static String where(ReplicaState r) {
        return r.brokerId().isPresent() ? "broker " + r.brokerId().getAsInt() + " (" + r.dir() + ")" : r.dir();
    }

    private static final String[] HEADERS = {"TOPIC", "PARTITION", "BROKER", "LOG-START", "LOG-END", "HIGH-WATERMARK",
        "LAST-STABLE", "RECOVERY-POINT", "MAX-TIMESTAMP", "MAX-TS-OFFSET", "EPOCH", "SEGMENTS", "BYTES", "PRODUCERS",
        "OPEN-TXNS", "DIRTY-RATIO", "REPLICA"};

    private static List<String> row(PartitionReplicas p, int i) {
        ReplicaState r = p.replicas().get(i);
        Divergence d = p.standing().get(i);
        List<String> c = new ArrayList<>();
        c.add(r.topic());
        c.add(Integer.toString(r.partition()));
        c.add(r.brokerId().isPresent() ? Integer.toString(r.brokerId().getAsInt()) : "-");
        c.add(r.logStartOffset() + (r.logStartCheckpoint().isPresent() && r.logStartCheckpoint().getAsLong() != r.firstSegmentBase()
                ? " (segment " + r.firstSegmentBase() + ")" : ""));
        c.add(Long.toString(r.logEndOffset()));
        c.add(opt(r.highWatermark()));
        c.add(Long.toString(r.lastStableOffset()));
        c.add(opt(r.recoveryPoint()));
        c.add(r.maxTimestamp() < 0 ? "-" : Times.iso(r.maxTimestamp()));
        c.add(r.maxTimestampOffset() < 0 ? "-" : Long.toString(r.maxTimestampOffset()));
        c.add(r.latestEpoch() < 0 ? "-" : Integer.toString(r.latestEpoch()));
        c.add(Integer.toString(r.segments()));
        c.add(Long.toString(r.bytes()));
        c.add(Integer.toString(r.producers()));
        c.add(Integer.toString(r.openTransactions().size()));
        c.add(r.dirtyRatio().isPresent() ? String.format(Locale.ROOT, "%.3f", r.dirtyRatio().getAsDouble()) : "-");
        c.add(p.replicas().size() == 1 ? "only" : d.kind() + (d.kind().equals(Divergence.BEHIND) ? " " + d.records()
                : d.kind().equals(Divergence.DIVERGED) ? " at " + d.offset() : ""));
        return c;
    }

    private static String opt(OptionalLong v) {
        return v.isPresent() ? Long.toString(v.getAsLong()) : "-";
    }

    private static void table(PrintWriter out, List<PartitionReplicas> parts) {
        Table t = new Table(HEADERS);
        List<String> notes = new ArrayList<>();
        for (PartitionReplicas p : parts) {
            for (int i = 0; i < p.replicas().size(); i++) {
                List<String> c = row(p, i);
                c.set(0, Table.cell(c.get(0)));
                t.add(c.toArray(String[]::new));
                ReplicaState r = p.replicas().get(i);
                String label = r.topicPartition() + (r.brokerId().isPresent() ? " (broker " + r.brokerId().getAsInt() + ")"
                        : p.replicas().size() > 1 ? " (" + r.dir() + ")" : "");
                for (String n : r.notes()) {
                    notes.add(label + ": " + n);
                }
                Divergence d = p.standing().get(i);
                if (d.kind().equals(Divergence.BEHIND) || d.kind().equals(Divergence.DIVERGED)) {
                    notes.add(label + ": " + d.kind() + ": " + d.reason());
                }
            }
        }
        if (t.size() > 0) {
            t.print(out);
        }
        if (!notes.isEmpty()) {
            out.print("\nNotes:\n");
            for (String n : notes) {
                out.print("  " + n.replace("\n", "\\n") + "\n");
            }
        }
    }

    private static void csv(PrintWriter out, List<PartitionReplicas> parts) {
        StringBuilder sb = new StringBuilder();
        for (int h = 0; h < HEADERS.length; h++) {
            sb.append(h == 0 ? "" : ",").append(HEADERS[h].toLowerCase(Locale.ROOT));
        }
        sb.append('\n');
        for (PartitionReplicas p : parts) {
            for (int i = 0; i < p.replicas().size(); i++) {
                List<String> c = row(p, i);
                for (int k = 0; k < c.size(); k++) {
                    sb.append(k == 0 ? "" : ",").append(OffsetsCommand.csvField(c.get(k)));
                }
                sb.append('\n');
            }
        }
        out.print(sb);
    }

    private static void jsonl(PrintWriter out, List<PartitionReplicas> parts) throws IOException {
        JsonGenerator g = new JsonFactory().createGenerator(out);
        g.setRootValueSeparator(null);
        for (PartitionReplicas p : parts) {
            for (int i = 0; i < p.replicas().size(); i++) {
                writeReplica(g, p, i);
                g.flush();
                out.print('\n');
            }
        }
    }

    static void writeReplica(JsonGenerator g, PartitionReplicas p, int i) throws IOException {
        ReplicaState r = p.replicas().get(i);
        Divergence d = p.standing().get(i);
        g.writeStartObject();
        g.writeStringField("topic", r.topic());
        g.writeNumberField("partition", r.partition());
        writeOpt(g, "topicId", r.topicId().orElse(null));
        if (r.brokerId().isPresent()) {
            g.writeNumberField("broker", r.brokerId().getAsInt());
        } else {
            g.writeNullField("broker");
        }
        writeOpt(g, "clusterId", r.clusterId().orElse(null));
        g.writeStringField("logDir", r.logDir());
        g.writeStringField("dir", r.dir());
        g.writeNumberField("logStartOffset", r.logStartOffset());
        g.writeNumberField("firstSegmentBaseOffset", r.firstSegmentBase());
        writeOpt(g, "logStartOffsetCheckpoint", r.logStartCheckpoint());
        g.writeNumberField("logEndOffset", r.logEndOffset());
        writeOpt(g, "highWatermark", r.highWatermark());
        writeOpt(g, "highWatermarkCheckpoint", r.highWatermarkCheckpoint());
        g.writeNumberField("lastStableOffset", r.lastStableOffset());
        writeOpt(g, "recoveryPoint", r.recoveryPoint());
        writeTime(g, "firstTimestamp", r.firstTimestamp());
        writeTime(g, "maxTimestamp", r.maxTimestamp());
        g.writeNumberField("maxTimestampOffset", r.maxTimestampOffset());
        g.writeNumberField("leaderEpoch", r.latestEpoch());
        writeEpochs(g, "leaderEpochCheckpoint", r.epochCheckpoint());
        writeEpochs(g, r.deep() ? "leaderEpochsInBatches" : "leaderEpochsInTailBatches", r.epochBatches());
        g.writeNumberField("segments", r.segments());
        g.writeNumberField("bytes", r.bytes());
        g.writeNumberField("producers", r.producers());
        g.writeStringField("producerStateFrom", r.producerStateFrom());
        g.writeArrayFieldStart("openTransactions");
        for (OpenTransaction o : r.openTransactions()) {
            g.writeStartObject();
            g.writeNumberField("producerId", o.producerId());
            g.writeNumberField("producerEpoch", o.producerEpoch());
            g.writeNumberField("coordinatorEpoch", o.coordinatorEpoch());
            g.writeNumberField("firstOffset", o.firstOffset());
            writeTime(g, "firstTimestamp", o.firstTimestamp());
            writeTime(g, "lastTimestamp", o.lastTimestamp());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeBooleanField("compacted", r.compacted());
        writeOpt(g, "cleanerCheckpoint", r.cleanerCheckpoint());
        if (r.dirtyRatio().isPresent()) {
            g.writeNumberField("dirtyRatio", Math.round(r.dirtyRatio().getAsDouble() * 1e6) / 1e6);
        } else {
            g.writeNullField("dirtyRatio");
        }
        if (r.cleanShutdown() == null) {
            g.writeNullField("cleanShutdown");
        } else {
            g.writeBooleanField("cleanShutdown", r.cleanShutdown());
        }
        g.writeBooleanField("deep", r.deep());
        g.writeObjectFieldStart("replica");
        g.writeStringField("standing", p.replicas().size() == 1 ? "only" : d.kind());
        g.writeNumberField("offset", d.offset());
        g.writeNumberField("records", d.records());
        g.writeStringField("reason", d.reason());
        g.writeNumberField("replicas", p.replicas().size());
        if (p.metadataLeader().isPresent()) {
            g.writeNumberField("metadataLeader", p.metadataLeader().getAsInt());
        } else {
            g.writeNullField("metadataLeader");
        }
        g.writeEndObject();
        g.writeArrayFieldStart("notes");
        for (String n : r.notes()) {
            g.writeString(n);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("problems");
        for (FormatException e : r.problems()) {
            g.writeString(e.getMessage());
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void writeEpochs(JsonGenerator g, String name, List<EpochEntry> es) throws IOException {
        g.writeArrayFieldStart(name);
        for (EpochEntry e : es) {
            g.writeStartObject();
            g.writeNumberField("epoch", e.epoch());
            g.writeNumberField("startOffset", e.startOffset());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    static void writeTime(JsonGenerator g, String name, long ms) throws IOException {
        if (ms < 0) {
            g.writeNullField(name);
        } else {
            g.writeNumberField(name, ms);
        }
    }

    private static void writeOpt(JsonGenerator g, String name, String v) throws IOException {
        if (v == null) {
            g.writeNullField(name);
        } else {
            g.writeStringField(name, v);
        }
    }

    private static void writeOpt(JsonGenerator g, String name, OptionalLong v) throws IOException {
        if (v.isPresent()) {
            g.writeNumberField(name, v.getAsLong());
        } else {
            g.writeNullField(name);
        }
    }
}
