package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.walk.DecoderChoice;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordFilter;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;
import io.segscope.format.walk.TransactionOutcome;
import io.segscope.inspector.Segscope;
import io.segscope.inspector.output.Times;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.time.Duration;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code segscope history}: the records of one group in log order, walked with
 * {@link RecordWalk} (transaction outcomes told) over the {@code __consumer_offsets} partitions
 * found.
 */
@Command(name = "history", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Print one group's records in __consumer_offsets, in log order.",
            "commits (with the change from the partition's previous commit), transactional",
            "commits and how their transaction ended, offset tombstones, group metadata",
            "(generation, epoch, members) and the group's deletion. Flags: a commit that",
            "went backwards (an offset reset) and a commit made while the group had no",
            "members. Ends with the group's last commit and how long the log goes on after it.", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:damage met (on stderr)", "2:usage error", "3:I/O error"})
public final class HistoryCommand implements Callable<Integer> {
    enum Format { table, jsonl }

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Log dir, __consumer_offsets partition dir, or archive.")
    List<Path> paths;

    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "The group (exact id).")
    String group;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "Only this topic's commits and tombstones (group records are always shown).")
    String topic;

    @Option(names = "--partition", paramLabel = "P", description = "Only this partition's commits and tombstones (with --topic).")
    Integer partition;

    @Option(names = "--format", defaultValue = "table", description = "table (default) or jsonl.")
    Format format;

    @Option(names = "--as-of-time", paramLabel = "TIME", converter = TimeConverter.class,
            description = "The timeline up to this time (ISO-8601 or epoch ms): each partition's batches up to the first one written later.")
    Long asOfTime;

    @Option(names = "--stale-after", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "1h",
            description = "Flag the group's commits as stopped when its last commit is older than this before the end of its"
                    + " __consumer_offsets partition (default 1h; e.g. 30m, 12h, 7d).")
    long staleAfterMs;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** One line of the timeline. */
    record Event(int coordinatorPartition, long logOffset, long time, String event, String topic, int partition, long offset,
                 Long delta, String transaction, String detail, List<String> flags) {
    }

    @Override
    public Integer call() throws IOException {
        if (partition != null && topic == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--partition needs --topic");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (OffsetsSource source = OffsetsSource.open("history", paths, err)) {
            Timeline t = new Timeline(err);
            for (OffsetsSource.Part p : source.parts()) {
                t.part = p.partition();
                t.cut = false;
                t.partitionEnd = Math.max(t.partitionEnd, lastBatchTime(p.files()));
                new RecordWalk(ReaderOptions.defaults(), DecoderChoice.OFFSETS,
                        new RecordFilter(List.of(group), null, null, null, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE),
                        Long.MAX_VALUE).tellTransactions(true).walk(p.files(), t);
                t.partitionsRead++;
            }
            write(out, t);
            out.flush();
            if (source.ioError()) {
                return Segscope.EXIT_IO;
            }
            return t.damage ? Segscope.EXIT_FINDINGS : Segscope.EXIT_OK;
        }
    }

    /** Builds the events of the group from the records the filter lets through. */
    final class Timeline implements RecordSink {
        final List<Event> events = new ArrayList<>();
        final PrintWriter err;
        int part;
        int partitionsRead;
        /** True once a batch past --as-of-time was met in the current partition. */
        boolean cut;
        /** The time of the last batch of the partitions read (for the stale check), or -1. */
        long partitionEnd = -1;
        boolean damage;
        TransactionOutcome outcome;
        long batchTime;
        final Map<String, Long> lastOffset = new HashMap<>();
        /** Members as the group records say: -1 unknown (no group record: a simple group, or deleted). */
        int members = -1;
        final Set<String> modernMembers = new HashSet<>();
        Event lastCommit;

        Timeline(PrintWriter err) {
            this.err = err;
        }

        @Override
        public void batch(LogFile file, Batch b, TransactionOutcome transaction) {
            outcome = transaction;
            batchTime = b.maxTimestamp();
            if (asOfTime != null && batchTime > asOfTime) {
                cut = true;
            }
        }

        @Override
        public void problem(LogFile file, String message) {
            err.print("history: " + message + "\n");
            damage = true;
        }

        @Override
        public void endFile(LogFile file, io.segscope.format.record.Tail tail, long validBytes, long fileSize, String error) {
            if (error != null) {
                err.print("history: " + file.path() + " position " + validBytes + ": " + error + "\n");
                damage = true;
            }
        }

        @Override
        public void record(LogFile file, Batch b, LogRecord r, RecordContent content) {
            if (cut || !(content instanceof RecordContent.Coordinator c) || !(c.result() instanceof Decoded d)) {
                return;
            }
            CoordinatorResult res = c.result();
            if (!group.equals(res.ownerId())) {
                return;
            }
            long producerId = b.magic() >= 2 ? b.producerId() : -1;
            int type = d.recordType();
            StructValue k = d.key();
            StructValue v = d.value();
            switch (type) {
                case 0, 1 -> offsetRecord(r.offset(), k, v, producerId);
                case 2 -> {
                    if (v == null) {
                        members = -1;
                        add(r.offset(), batchTime, "group-deleted", null, "classic group metadata tombstone", List.of());
                    } else {
                        members = ((List<?>) v.get("members")).size();
                        String proto = v.getString("protocolType");
                        String p = v.getString("protocol");
                        add(r.offset(), batchTime, "group", null, "generation " + v.getInt("generation") + ", " + members
                                + " member" + (members == 1 ? "" : "s")
                                + (proto == null || proto.isEmpty() ? "" : ", " + proto + (p == null ? "" : "/" + p)), List.of());
                    }
                }
                case 3, 11, 17 -> {
                    if (v == null) {
                        members = -1;
                        modernMembers.clear();
                        add(r.offset(), batchTime, "group-deleted", null, d.schema().name() + " tombstone", List.of());
                    } else {
                        if (members < 0) {
                            members = modernMembers.size();
                        }
                        add(r.offset(), batchTime, "group", null, "epoch " + v.getInt("Epoch") + ", " + modernMembers.size()
                                + " member" + (modernMembers.size() == 1 ? "" : "s"), List.of());
                    }
                }
                case 5, 10, 19 -> {
                    String m = k.getString("MemberId");
                    if (v == null) {
                        if (modernMembers.remove(m)) {
                            members = modernMembers.size();
                            add(r.offset(), batchTime, "member-left", null, m, List.of());
                        }
                    } else if (modernMembers.add(m)) {
                        members = modernMembers.size();
                        String client = v.schema().indexOf("ClientId") >= 0 ? v.getString("ClientId") : null;
                        add(r.offset(), batchTime, "member-joined", null, m + (client == null ? "" : " (client " + client + ")"), List.of());
                    }
                }
                default -> {
                    // assignments, regexes, topology, partition metadata: not part of the timeline
                }
            }
        }

        private void offsetRecord(long logOffset, StructValue k, StructValue v, long producerId) {
            String t = k.getString("topic");
            int p = k.getInt("partition");
            if (topic != null && !topic.equals(t) || HistoryCommand.this.partition != null && HistoryCommand.this.partition != p) {
                return;
            }
            String tp = t + "\u0000" + p;
            if (v == null) {
                lastOffset.remove(tp);
                events.add(new Event(part, logOffset, batchTime, "offset-tombstone", t, p, -1, null, null, null, List.of()));
                return;
            }
            long offset = v.getLong("offset");
            Long prev = lastOffset.get(tp);
            Long delta = prev == null ? null : offset - prev;
            String txn = producerId == -1 ? null : outcome == null ? "unknown" : outcome.label;
            List<String> flags = new ArrayList<>();
            if (delta != null && delta < 0) {
                flags.add("backwards");
            }
            if (members == 0) {
                flags.add("no-members");
            }
            String detail = producerId == -1 ? null : "producer " + producerId;
            Event e = new Event(part, logOffset, v.getLong("commitTimestamp"), producerId == -1 ? "commit" : "txn-commit",
                    t, p, offset, delta, txn, detail, List.copyOf(flags));
            events.add(e);
            if (producerId == -1 || outcome == TransactionOutcome.COMMITTED) {
                lastOffset.put(tp, offset);
                lastCommit = e;
            }
        }

        private void add(long logOffset, long time, String event, String tp, String detail, List<String> flags) {
            events.add(new Event(part, logOffset, time, event, null, -1, -1, null, null, detail, flags));
        }
    }

    /** Where the timeline ends: the as-of time, else the last batch of the partitions read. */
    private long end(Timeline t) {
        return asOfTime != null ? Math.min(asOfTime, t.partitionEnd) : t.partitionEnd;
    }

    /** True when the group's last commit is older than --stale-after before the end of the partition. */
    private boolean stopped(Timeline t) {
        return t.lastCommit != null && end(t) >= 0 && t.lastCommit.time() >= 0 && end(t) - t.lastCommit.time() > staleAfterMs;
    }

    /** The max timestamp of the last good batch of the partition's last segment, or -1. */
    private static long lastBatchTime(List<LogFile> files) {
        if (files.isEmpty()) {
            return -1;
        }
        long[] last = {-1};
        LogFile f = files.get(files.size() - 1);
        try (io.segscope.format.io.ByteSource source = f.file().open()) {
            new io.segscope.format.walk.SegmentWalk(ReaderOptions.defaults()).walk(source, f.file().size(), -1, -1, true,
                    new io.segscope.format.walk.BatchVisitor() {
                        @Override
                        public boolean batch(Batch b) {
                            last[0] = Math.max(last[0], b.maxTimestamp());
                            return true;
                        }

                        @Override
                        public void damage(io.segscope.format.walk.Damage d) {
                        }
                    });
        } catch (io.segscope.format.error.FormatException e) {
            return -1;
        }
        return last[0];
    }

    /** The last column: bare unless it holds a control character. */
    private static String detail(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isISOControl(s.charAt(i))) {
                return TextQuote.quote(s);
            }
        }
        return s;
    }

    private void write(PrintWriter out, Timeline t) throws IOException {
        long lastTime = -1;
        for (Event e : t.events) {
            lastTime = Math.max(lastTime, e.time());
        }
        if (format == Format.jsonl) {
            JsonGenerator json = new JsonFactory().createGenerator(out);
            json.setRootValueSeparator(null);
            for (Event e : t.events) {
                json.writeStartObject();
                json.writeStringField("event", e.event());
                json.writeStringField("group", group);
                json.writeNumberField("coordinatorPartition", e.coordinatorPartition());
                json.writeNumberField("logOffset", e.logOffset());
                OffsetsCommand.nullable(json, "timestamp", e.time(), -1);
                json.writeStringField("time", e.time() < 0 ? null : Times.iso(e.time()));
                json.writeStringField("topic", e.topic());
                if (e.topic() != null) {
                    json.writeNumberField("partition", e.partition());
                } else {
                    json.writeNullField("partition");
                }
                OffsetsCommand.nullable(json, "offset", e.offset(), -1);
                if (e.delta() == null) {
                    json.writeNullField("delta");
                } else {
                    json.writeNumberField("delta", e.delta());
                }
                json.writeStringField("transaction", e.transaction());
                json.writeStringField("detail", e.detail());
                json.writeArrayFieldStart("flags");
                for (String f : e.flags()) {
                    json.writeString(f);
                }
                json.writeEndArray();
                json.writeEndObject();
                json.flush();
                out.print('\n');
            }
            if (t.lastCommit != null) {
                json.writeStartObject();
                json.writeStringField("event", "last-commit");
                json.writeStringField("group", group);
                json.writeNumberField("coordinatorPartition", t.lastCommit.coordinatorPartition());
                json.writeNumberField("logOffset", t.lastCommit.logOffset());
                json.writeNumberField("timestamp", t.lastCommit.time());
                json.writeStringField("time", Times.iso(t.lastCommit.time()));
                json.writeNumberField("recordsAfter", t.events.size() - 1 - t.events.indexOf(t.lastCommit));
                OffsetsCommand.nullable(json, "partitionEndTimestamp", end(t), -1);
                json.writeBooleanField("stopped", stopped(t));
                json.writeEndObject();
                json.flush();
                out.print('\n');
            }
            return;
        }
        boolean several = t.events.stream().map(Event::coordinatorPartition).distinct().count() > 1;
        Table table = new Table("LOG-OFFSET", "TIME", "EVENT", "TOPIC", "PARTITION", "OFFSET", "DELTA", "TXN", "FLAGS", "DETAIL");
        for (Event e : t.events) {
            table.add(several ? e.coordinatorPartition() + ":" + e.logOffset() : Long.toString(e.logOffset()),
                    Times.iso(e.time()), e.event(), e.topic() == null ? "-" : e.topic(),
                    e.topic() == null ? "-" : Integer.toString(e.partition()), e.offset() < 0 ? "-" : Long.toString(e.offset()),
                    e.delta() == null ? "-" : (e.delta() > 0 ? "+" : "") + e.delta(), e.transaction() == null ? "-" : e.transaction(),
                    e.flags().isEmpty() ? "-" : String.join(",", e.flags()), e.detail() == null ? "-" : detail(e.detail()));
        }
        if (table.size() == 0) {
            spec.commandLine().getErr().print("history: no record of group " + TextQuote.quote(group) + " in the paths given\n");
            return;
        }
        table.print(out);
        if (t.lastCommit != null) {
            int after = t.events.size() - 1 - t.events.indexOf(t.lastCommit);
            out.print("last commit " + Times.iso(t.lastCommit.time()) + " at log offset " + t.lastCommit.logOffset()
                    + (after > 0 ? "; " + after + " record" + (after == 1 ? "" : "s") + " of the group after it, the last at "
                    + Times.iso(lastTime) : "") + "\n");
            if (stopped(t)) {
                out.print("commits stopped: the last commit is " + Duration.ofMillis(end(t) - t.lastCommit.time()).toString()
                        .substring(2).toLowerCase(java.util.Locale.ROOT) + " older than the partition's last record ("
                        + Times.iso(end(t)) + ")\n");
            }
        }
    }
}
