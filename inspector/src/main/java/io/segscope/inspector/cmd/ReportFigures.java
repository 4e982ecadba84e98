package io.segscope.inspector.cmd;

import io.segscope.format.compat.Compatibility;
import io.segscope.format.compat.FormatInventory;
import io.segscope.format.compat.TimeBuckets;
import io.segscope.format.compact.CleanerDecision;
import io.segscope.format.compact.CompactResult;
import io.segscope.format.compact.CompactSettings;
import io.segscope.format.compact.Compactor;
import io.segscope.format.inventory.MetadataTopics;
import io.segscope.format.inventory.OpenTransaction;
import io.segscope.format.inventory.PartitionReplicas;
import io.segscope.format.inventory.ReplicaState;
import io.segscope.format.inventory.TransactionCoordinatorState;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.replay.AsOf;
import io.segscope.format.replay.CommitHistory;
import io.segscope.format.replay.CommittedOffset;
import io.segscope.format.replay.ReplayedGroup;
import io.segscope.inspector.report.ReportModel;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report's figures from the engines beyond the partitions and verify: the groups (the offsets
 * replay, {@code CommitHistory}, lag against the partitions' high watermarks), the open
 * transactions, the compacted partitions (the cleaner's decision and a dry run) and the formats.
 */
final class ReportFigures {
    private final List<Path> paths;
    private final Long asOfTime;
    private final long staleAfterMs;
    private final int maxTimeoutMinutes;

    ReportFigures(List<Path> paths, Long asOfTime, long staleAfterMs, int maxTimeoutMinutes) {
        this.paths = paths;
        this.asOfTime = asOfTime;
        this.staleAfterMs = staleAfterMs;
        this.maxTimeoutMinutes = maxTimeoutMinutes;
    }

    ReportModel.Groups groups(Map<String, ReplicaState> leaders, ReaderOptions options, PrintWriter err, List<String> left) {
        AsOf asOf = asOfTime == null ? AsOf.END : AsOf.time(asOfTime);
        List<ReportModel.Group> rows = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        int total = 0;
        int coordinatorPartitions;
        try (OffsetsSource source = OffsetsSource.open("report", paths, new PrintWriter(java.io.Writer.nullWriter()))) {
            coordinatorPartitions = source.parts().size();
            // the groups drawn: the first ones by id over all partitions
            record Found(ReplayedGroup g, int partition, OffsetsSource.Part part, List<CommittedOffset> offsets, int pending, long end) {
            }
            List<Found> found = new ArrayList<>();
            for (OffsetsSource.Part part : source.parts()) {
                OffsetsSource.Replayed r = source.replay(part, asOf);
                for (var pr : r.result().problems()) {
                    if (problems.size() < 100) {
                        problems.add(pr.message());
                    }
                }
                Map<String, List<CommittedOffset>> offsets = new HashMap<>();
                for (CommittedOffset o : r.result().offsets()) {
                    offsets.computeIfAbsent(o.group(), k -> new ArrayList<>()).add(o);
                }
                Map<String, Integer> pending = new HashMap<>();
                for (CommittedOffset o : r.result().pendingOffsets()) {
                    pending.merge(o.group(), 1, Integer::sum);
                }
                long end = r.result().lastBatchTimestamp();
                for (ReplayedGroup g : r.result().groups().values()) {
                    total++;
                    found.add(new Found(g, part.partition(), part, offsets.getOrDefault(g.groupId(), List.of()),
                            pending.getOrDefault(g.groupId(), 0), end));
                }
            }
            found.sort(Comparator.comparing((Found f) -> f.g().groupId()).thenComparingInt(Found::partition));
            Map<OffsetsSource.Part, List<String>> drawnByPart = new LinkedHashMap<>();
            for (int i = 0; i < found.size() && i < ReportCommand.MAX_DRAWN_GROUPS; i++) {
                drawnByPart.computeIfAbsent(found.get(i).part(), k -> new ArrayList<>()).add(found.get(i).g().groupId());
            }
            Map<String, List<CommitHistory.Series>> history = new HashMap<>();
            for (Map.Entry<OffsetsSource.Part, List<String>> e : drawnByPart.entrySet()) {
                for (CommitHistory.Series s : CommitHistory.replay(e.getKey().files(), e.getValue(),
                        asOfTime == null ? Long.MAX_VALUE : asOfTime, ReportCommand.MAX_POINTS, options)) {
                    history.computeIfAbsent(e.getKey().partition() + "\u0000" + s.group(), k -> new ArrayList<>()).add(s);
                }
            }
            for (int i = 0; i < found.size() && i < ReportCommand.MAX_GROUPS; i++) {
                Found f = found.get(i);
                ReplayedGroup g = f.g();
                long lastCommit = -1;
                long totalLag = -1;
                List<ReportModel.Lag> lag = new ArrayList<>();
                for (CommittedOffset o : f.offsets()) {
                    lastCommit = Math.max(lastCommit, o.commitTimestamp());
                    ReplicaState r = leaders.get(o.topic() + "-" + o.partition());
                    long end = r == null ? -1 : r.highWatermark().orElse(r.logEndOffset());
                    long l = end < 0 ? -1 : Math.max(0, end - o.offset());
                    if (l >= 0) {
                        totalLag = Math.max(totalLag, 0) + l;
                    }
                    lag.add(new ReportModel.Lag(o.topic(), o.partition(), o.offset(), end, l));
                }
                lag.sort(Comparator.comparing(ReportModel.Lag::topic).thenComparingInt(ReportModel.Lag::partition));
                long dataEnd = asOfTime != null ? Math.min(asOfTime, f.end()) : f.end();
                boolean stopped = lastCommit >= 0 && dataEnd >= 0 && dataEnd - lastCommit > staleAfterMs;
                boolean drawn = i < ReportCommand.MAX_DRAWN_GROUPS;
                rows.add(new ReportModel.Group(g.groupId(), g.type().display() + (g.isSimple() ? " (simple)" : ""), g.state(),
                        g.members().size(), lastCommit, totalLag, f.partition(), f.offsets().size(), f.pending(), stopped,
                        drawn ? lag : List.of(), drawn ? history.getOrDefault(f.partition() + "\u0000" + g.groupId(), List.of()) : List.of(),
                        drawn));
            }
            if (found.size() > ReportCommand.MAX_GROUPS) {
                left.add("groups: the first " + ReportCommand.MAX_GROUPS + " of " + found.size() + " (by id) are in the table");
            }
            if (found.size() > ReportCommand.MAX_DRAWN_GROUPS) {
                left.add("commit histories: the first " + ReportCommand.MAX_DRAWN_GROUPS + " groups (by id) are drawn");
            }
        }
        return new ReportModel.Groups(coordinatorPartitions, total, rows, Math.max(0, total - rows.size()), ReportCommand.MAX_DRAWN_GROUPS,
                staleAfterMs, problems);
    }

    /**
     * The open transactions of each partition's leader, as {@code open} gives them (at the end of the
     * log, or as of --as-of-time), judged as the transactions command judges them.
     */
    void transactions(List<PartitionReplicas> parts, TransactionCoordinatorState coord, long end,
                      java.util.function.Function<ReplicaState, List<OpenTransaction>> open,
                      List<ReportModel.Transaction> out, List<String> left) {
        Map<Long, TransactionCoordinatorState.Txn> byPid = coord.indexByProducerId();
        int all = 0;
        for (PartitionReplicas p : parts) {
            ReplicaState r = p.leader();
            for (OpenTransaction o : open.apply(r)) {
                all++;
                if (out.size() >= ReportCommand.MAX_TRANSACTIONS) {
                    continue;
                }
                TransactionsCommand.Row row = TransactionsCommand.judge(r, o, coord, byPid, end, maxTimeoutMinutes);
                TransactionCoordinatorState.Txn t = row.coordinator();
                out.add(new ReportModel.Transaction(r.topicPartition(), r.brokerId().orElse(-1), o.producerId(), o.producerEpoch(),
                        o.firstOffset(), o.firstTimestamp(), o.lastTimestamp(), row.ageMs(), row.idleMs(), t == null ? null : t.transactionalId(),
                        t == null ? null : t.state(), row.hanging(), row.verdict()));
            }
        }
        if (all > out.size()) {
            left.add("transactions: the first " + ReportCommand.MAX_TRANSACTIONS + " of " + all + " open transactions are listed");
        }
    }

    /** The configs of a topic the report's compaction section uses, with Kafka's default when the metadata log has none. */
    static final List<String> CLEANER_CONFIGS = List.of("cleanup.policy", "segment.bytes", "min.cleanable.dirty.ratio",
            "min.compaction.lag.ms", "max.compaction.lag.ms", "delete.retention.ms");

    /**
     * One topic's cleaner settings: the configs the KRaft metadata log gave it ({@code MetadataTopics.configs}),
     * each missing one Kafka 4.4.0's broker default (the broker's own overrides are not in the log dir).
     *
     * @param minRatio min.cleanable.dirty.ratio
     * @param fromMetadata the configs taken from the metadata log, by name
     * @param defaulted the configs left at Kafka's broker default
     */
    record CleanerConfig(CompactSettings settings, double minRatio, Map<String, String> fromMetadata, List<String> defaulted) {
        String note() {
            if (defaulted.isEmpty()) {
                return "configs from the metadata log";
            }
            return (fromMetadata.isEmpty() ? "no topic config in the metadata log" : "from the metadata log: " + String.join(", ", fromMetadata.keySet()))
                    + "; broker defaults: " + String.join(", ", defaulted);
        }
    }

    static CleanerConfig cleanerConfig(String topic, Map<String, String> configs, long now) {
        CompactSettings s = CompactSettings.defaults(Math.max(0, now));
        Map<String, String> used = new java.util.TreeMap<>();
        List<String> defaulted = new ArrayList<>();
        for (String name : CLEANER_CONFIGS) {
            String v = configs.get(name);
            if (v == null) {
                defaulted.add(name);
                continue;
            }
            try {
                switch (name) {
                    case "segment.bytes" -> s = s.withSegmentBytes(Integer.parseInt(v.trim()));
                    case "min.compaction.lag.ms" -> s = s.withMinCompactionLagMs(Long.parseLong(v.trim()));
                    case "max.compaction.lag.ms" -> s = s.withMaxCompactionLagMs(Long.parseLong(v.trim()));
                    case "delete.retention.ms" -> s = s.withDeleteRetentionMs(Long.parseLong(v.trim()));
                    case "min.cleanable.dirty.ratio" -> Double.parseDouble(v.trim());
                    default -> {
                    }
                }
                used.put(name, v.trim());
            } catch (IllegalArgumentException e) {
                // a value Kafka would have refused: its default stands
                defaulted.add(name);
            }
        }
        if (!used.containsKey("segment.bytes") && CompactCommand.COMPACTED_INTERNAL.contains(topic)) {
            // offsets.topic.segment.bytes and transaction.state.log.segment.bytes default to 100 MiB
            s = s.withSegmentBytes(CompactCommand.INTERNAL_SEGMENT_BYTES);
        }
        double ratio = used.containsKey("min.cleanable.dirty.ratio") ? Double.parseDouble(used.get("min.cleanable.dirty.ratio"))
                : CompactCommand.DEFAULT_MIN_CLEANABLE_RATIO;
        return new CleanerConfig(s, ratio, used, defaulted);
    }

    List<ReportModel.Compaction> compaction(List<PartitionReplicas> parts, Map<String, FormatInventory.Counts> countsOf,
                                                    MetadataTopics metadata, long now, List<String> left) {
        List<ReportModel.Compaction> rows = new ArrayList<>();
        int dry = 0;
        int pick = -1;
        double pickRatio = -1;
        for (PartitionReplicas p : parts) {
            ReplicaState r = p.leader();
            if (!r.compacted() || r.bytes() == 0) {
                // an empty compacted partition has nothing to clean
                continue;
            }
            CleanerConfig cc = cleanerConfig(r.topic(), metadata == null ? Map.of() : metadata.configs(r.topic()), now);
            FormatInventory.Counts c = countsOf.get(r.topicPartition());
            long records = c == null ? -1 : c.records();
            Path dir = Path.of(r.dir());
            if (!Files.isDirectory(dir)) {
                rows.add(new ReportModel.Compaction(r.topicPartition(), r.bytes(), records, -1, -1,
                        r.dirtyRatio().orElse(-1), cc.minRatio(), cc.note(), false, false, "in an archive: no dry run (extract it to see the clean)"));
                continue;
            }
            if (dry >= ReportCommand.MAX_DRY_RUNS) {
                rows.add(new ReportModel.Compaction(r.topicPartition(), r.bytes(), records, -1, -1,
                        r.dirtyRatio().orElse(-1), cc.minRatio(), cc.note(), false, false, "past the first " + ReportCommand.MAX_DRY_RUNS + " dry runs: not run"));
                continue;
            }
            dry++;
            CompactSettings s = cc.settings();
            if (r.highWatermark().isPresent()) {
                s = s.withHighWatermark(r.highWatermark().getAsLong());
            }
            if (r.cleanerCheckpoint().isPresent()) {
                s = s.withFirstDirtyOffset(r.cleanerCheckpoint().getAsLong());
            }
            try {
                CleanerDecision d = Compactor.decide(dir, s);
                CompactResult res = Compactor.dryRun(dir, s);
                long bytesAfter = Math.max(0, r.bytes() - (res.stats().bytesRead() - res.stats().bytesWritten()));
                long recordsAfter = records < 0 ? -1 : Math.max(0, records - (res.stats().messagesRead() - res.stats().messagesWritten()));
                boolean would = d.wouldClean(cc.minRatio());
                rows.add(new ReportModel.Compaction(r.topicPartition(), r.bytes(), records, bytesAfter, recordsAfter,
                        d.dirtyRatio(), cc.minRatio(), cc.note(), would, false, res.inputDamage().isEmpty() ? "" : res.inputDamage().size() + " damaged range(s) in the input"));
                if (would && d.dirtyRatio() > pickRatio) {
                    pickRatio = d.dirtyRatio();
                    pick = rows.size() - 1;
                }
            } catch (IOException | RuntimeException e) {
                rows.add(new ReportModel.Compaction(r.topicPartition(), r.bytes(), records, -1, -1,
                        r.dirtyRatio().orElse(-1), cc.minRatio(), cc.note(), false, false, "not cleaned: " + e.getMessage()));
            }
        }
        if (pick >= 0) {
            ReportModel.Compaction c = rows.get(pick);
            rows.set(pick, new ReportModel.Compaction(c.partition(), c.bytesNow(), c.recordsNow(), c.bytesAfter(), c.recordsAfter(),
                    c.dirtyRatio(), c.minRatio(), c.configs(), c.wouldClean(), true, c.note()));
        }
        return rows;
    }

    static ReportModel.Formats formats(Map<String, Compatibility.TopicFormats> topics, List<FormatInventory.Counts> counts) {
        List<ReportModel.TopicFormat> rows = new ArrayList<>();
        List<ReportModel.Span> spans = new ArrayList<>();
        Map<String, long[]> topicTimes = new HashMap<>();
        for (FormatInventory.Counts c : counts) {
            long[] t = topicTimes.computeIfAbsent(c.topic(), k -> new long[] {Long.MAX_VALUE, -1});
            if (c.firstTimestamp() >= 0) {
                t[0] = Math.min(t[0], c.firstTimestamp());
            }
            t[1] = Math.max(t[1], c.lastTimestamp());
        }
        for (Compatibility.TopicFormats t : topics.values()) {
            StringBuilder codecs = new StringBuilder();
            t.codecs().forEach((c, n) -> codecs.append(codecs.isEmpty() ? "" : ", ").append(c.toString().toLowerCase(java.util.Locale.ROOT))
                    .append(' ').append(n));
            long control = 0;
            for (long n : t.controlTypes().values()) {
                control += n;
            }
            rows.add(new ReportModel.TopicFormat(t.topic(), t.partitions(), t.batches(), t.batchesByMagic().clone(), codecs.toString(),
                    t.transactionalBatches(), control));
            long[] tt = topicTimes.getOrDefault(t.topic(), new long[] {-1, -1});
            for (int m = 0; m < 3; m++) {
                if (t.batchesByMagic()[m] > 0) {
                    spans.add(new ReportModel.Span("magic " + m, t.topic(), t.batchesByMagic()[m], tt[0] == Long.MAX_VALUE ? -1 : tt[0], tt[1], true));
                }
            }
            for (var c : t.codecs().entrySet()) {
                spans.add(new ReportModel.Span("codec " + c.getKey().toString().toLowerCase(java.util.Locale.ROOT), t.topic(), c.getValue(),
                        tt[0] == Long.MAX_VALUE ? -1 : tt[0], tt[1], true));
            }
            for (var v : t.recordVersions().values()) {
                spans.add(new ReportModel.Span((v.name().isEmpty() ? "type " + v.type() : v.name()) + (v.version() < 0 ? " tombstone" : " v" + v.version()),
                        t.topic(), v.count(), v.firstTimestamp(), v.lastTimestamp(), v.known()));
            }
        }
        List<ReportModel.Timeline> timelines = new ArrayList<>();
        long undated = 0;
        TimeBuckets buckets = null;
        // family -> label -> {counts, first, last}
        Map<String, Map<String, ReportModel.Series>> fam = new LinkedHashMap<>();
        for (String f : FAMILIES) {
            fam.put(f, new java.util.TreeMap<>());
        }
        for (FormatInventory.Counts c : counts) {
            FormatInventory.Timeline t = c.timeline();
            if (t == null) {
                continue;
            }
            buckets = t.buckets();
            undated += t.undated();
            for (FormatInventory.Series x : t.magics()) {
                add(fam.get(FAMILIES.get(0)), "magic " + x.key(), x);
            }
            for (FormatInventory.Series x : t.codecs()) {
                String magic = x.key().substring(0, x.key().indexOf('/'));
                add(fam.get(FAMILIES.get(1)), x.key().substring(x.key().indexOf('/') + 1) + (magic.equals("2") ? "" : " (magic " + magic + ")"), x);
            }
            boolean offsets = c.topic().equals("__consumer_offsets");
            for (FormatInventory.Series x : t.recordVersions()) {
                FormatInventory.RecordVersion v = c.recordVersions().get(x.key());
                String name = v == null || v.name().isEmpty() ? "type " + x.key().substring(0, x.key().indexOf('/')) : v.name();
                String label = (offsets ? "" : c.topic() + " ") + name + (v != null && v.version() < 0 ? " tombstone" : " v" + x.key().substring(x.key().indexOf('/') + 1));
                add(fam.get(FAMILIES.get(offsets ? 2 : 3)), label, x);
            }
        }
        if (buckets != null) {
            for (Map.Entry<String, Map<String, ReportModel.Series>> e : fam.entrySet()) {
                if (e.getValue().isEmpty()) {
                    continue;
                }
                List<ReportModel.Series> series = new ArrayList<>(e.getValue().values());
                series.sort(Comparator.comparingLong(ReportModel.Series::first).thenComparing(ReportModel.Series::label));
                boolean batches = e.getKey().equals(FAMILIES.get(0)) || e.getKey().equals(FAMILIES.get(1));
                timelines.add(new ReportModel.Timeline(e.getKey(), buckets.unit(), buckets.bounds(), batches ? "batches" : "records", series,
                        verdicts(series, batches)));
            }
        }
        return new ReportModel.Formats(rows, spans, timelines, undated);
    }

    /** The formats' families over time, in the page's order. */
    static final List<String> FAMILIES = List.of("magic", "codec", "__consumer_offsets record versions", "other state logs' record versions");

    private static void add(Map<String, ReportModel.Series> family, String label, FormatInventory.Series x) {
        ReportModel.Series s = family.get(label);
        if (s == null) {
            family.put(label, new ReportModel.Series(label, x.counts().clone(), x.first(), x.last()));
            return;
        }
        long[] sum = s.counts().clone();
        for (int i = 0; i < sum.length; i++) {
            sum[i] += x.counts()[i];
        }
        long first = s.first() < 0 ? x.first() : x.first() < 0 ? s.first() : Math.min(s.first(), x.first());
        family.put(label, new ReportModel.Series(label, sum, first, Math.max(s.last(), x.last())));
    }

    /**
     * One line per series: "magic 2: 1,234 batches since T", "last magic-1 batch at T", "OffsetCommit v4
     * since T" (a record type's newest version), "last OffsetCommit v3 at T" (its older ones).
     */
    static List<String> verdicts(List<ReportModel.Series> series, boolean batches) {
        List<String> out = new ArrayList<>();
        Map<String, String> newest = new HashMap<>();
        if (!batches) {
            // the newest version of each record type (the label without its version)
            for (ReportModel.Series s : series) {
                String type = s.label().replaceAll(" (v\\d+|tombstone)$", "");
                String v = s.label().substring(type.length()).trim();
                String cur = newest.get(type);
                if (v.startsWith("v") && (cur == null || Integer.parseInt(v.substring(1)) > Integer.parseInt(cur.substring(1)))) {
                    newest.put(type, v);
                }
            }
        }
        for (ReportModel.Series s : series) {
            String count = String.format(java.util.Locale.ROOT, "%,d", s.total()) + (batches ? " batch(es)" : " record(s)");
            String first = s.first() < 0 ? "-" : io.segscope.inspector.output.Times.iso(s.first());
            String last = s.last() < 0 ? "-" : io.segscope.inspector.output.Times.iso(s.last());
            String type = s.label().replaceAll(" (v\\d+|tombstone)$", "");
            boolean older = batches ? s.label().equals("magic 0") || s.label().equals("magic 1")
                    : s.label().endsWith(" tombstone") ? false : !s.label().equals(type + " " + newest.get(type));
            out.add(older ? s.label() + ": " + count + ", the last at " + last + (s.first() < s.last() ? " (the first at " + first + ")" : "")
                    : s.label() + ": " + count + " since " + first + (s.first() < s.last() ? ", the last at " + last : ""));
        }
        return out;
    }

}
