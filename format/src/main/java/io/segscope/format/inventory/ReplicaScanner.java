package io.segscope.format.inventory;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.index.OffsetIndexReader;
import io.segscope.format.index.TimeIndexReader;
import io.segscope.format.index.TimestampOffset;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.KafkaUuid;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.logdir.Segment;
import io.segscope.format.logdir.SegmentSet;
import io.segscope.format.logdir.SnapshotFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.RecordIterator;
import io.segscope.format.record.Tail;
import io.segscope.format.state.EpochEntry;
import io.segscope.format.state.LeaderEpochCheckpoint;
import io.segscope.format.state.OffsetCheckpoint;
import io.segscope.format.state.PartitionMetadata;
import io.segscope.format.state.ProducerSnapshotEntry;
import io.segscope.format.state.ProducerSnapshotReader;
import io.segscope.format.state.ProducerState;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * Reads one replica's state from its partition dir as Kafka 4.4.0 loads it (docs/format.md 1.11).
 * By default it reads what {@code LogLoader} reads: the checkpoints, the indexes, the producer
 * snapshot, the batches after the last offset-index entry of the last segment and after the
 * producer snapshot, and, after an unclean shutdown, every batch from the recovery point (CRCs
 * checked, as recovery does). With {@code deep}, every batch of every segment is read and checked.
 * Memory: one segment's index readers and one batch at a time.
 */
public final class ReplicaScanner {
    /** Kafka's internal topics that are compacted whatever the metadata log says. */
    private static final List<String> COMPACTED_INTERNAL = List.of("__consumer_offsets", "__transaction_state");

    private final ReaderOptions options;
    private final boolean deep;

    public ReplicaScanner(ReaderOptions options, boolean deep) {
        this.options = options;
        this.deep = deep;
    }

    /**
     * A directory listed once: {@link PartitionDir} lists its dir for each side file and for the
     * segments, and a listing of a dir of many segments allocates a path per file each time.
     */
    private static final class ListedOnce implements FileEntry {
        private final FileEntry dir;
        private List<FileEntry> children;

        ListedOnce(FileEntry dir) {
            this.dir = dir;
        }

        @Override
        public String name() {
            return dir.name();
        }

        @Override
        public String path() {
            return dir.path();
        }

        @Override
        public boolean isDirectory() {
            return dir.isDirectory();
        }

        @Override
        public long size() {
            return dir.size();
        }

        @Override
        public List<FileEntry> children() {
            if (children == null) {
                children = dir.children();
            }
            return children;
        }

        @Override
        public FileEntry parent() {
            return dir.parent();
        }

        @Override
        public ByteSource open() {
            return dir.open();
        }

        @Override
        public boolean isStream() {
            return dir.isStream();
        }
    }

    /** One live segment with its {@code .log}. */
    private static final class Seg {
        final Segment segment;
        final FileEntry log;
        final long base;
        final long size;
        long maxTs = -1;
        /** the last offset of the first batch holding maxTs (the time index's entry), -1 unknown */
        long maxTsLastOffset = -1;
        /** the position of that batch when a scan saw it, else -1 */
        long maxTsPosition = -1;
        long next = -1;

        Seg(Segment segment, FileEntry log) {
            this.segment = segment;
            this.log = log;
            this.base = segment.baseOffset();
            this.size = log.size();
        }
    }

    /**
     * @param metadata the topics of the KRaft metadata log given with this dir, or null
     */
    public ReplicaState scan(PartitionDir given, LogDirContext ctx, MetadataTopics metadata) {
        PartitionDir dir = new PartitionDir(new ListedOnce(given.dir()), given.name());
        String tp = dir.topic() + "-" + dir.partition();
        List<String> notes = new ArrayList<>();
        List<FormatException> problems = new ArrayList<>();
        SegmentSet set = dir.segments();
        List<Seg> segs = new ArrayList<>();
        for (Segment s : set.segments()) {
            s.log().ifPresent(l -> segs.add(new Seg(s, l)));
        }
        segs.sort(Comparator.comparingLong(s -> s.base));
        long bytes = 0;
        for (Seg s : segs) {
            bytes += s.size;
        }

        // topic id
        Optional<String> topicId = Optional.empty();
        if (dir.partitionMetadata().isPresent()) {
            try (ByteSource src = dir.partitionMetadata().get().open()) {
                KafkaUuid id = PartitionMetadata.read(src).topicId();
                topicId = Optional.of(id.toString());
                if (metadata != null) {
                    Optional<String> named = metadata.name(id);
                    if (named.isPresent() && !named.get().equals(dir.topic())) {
                        notes.add("partition.metadata's topic id " + id + " is topic " + named.get()
                                + " in the metadata log, not " + dir.topic());
                    } else if (named.isEmpty() && metadata.topic(dir.topic()).isPresent()) {
                        notes.add("partition.metadata's topic id " + id + " is not the metadata log's id of "
                                + dir.topic() + " (" + metadata.topic(dir.topic()).get().id()
                                + "): a replica of a deleted topic of the same name");
                    }
                }
            } catch (FormatException e) {
                problems.add(e);
            }
        } else if (metadata != null) {
            topicId = metadata.topic(dir.topic()).map(t -> t.id().toString());
        }

        // leader epochs
        List<EpochEntry> epochCheckpoint = List.of();
        if (dir.leaderEpochCheckpoint().isPresent()) {
            try (ByteSource src = dir.leaderEpochCheckpoint().get().open()) {
                epochCheckpoint = LeaderEpochCheckpoint.read(src);
            } catch (FormatException e) {
                problems.add(e);
            }
        }

        OptionalLong rp = ctx.offset(OffsetCheckpoint.RECOVERY_POINT, tp);
        boolean unclean = Boolean.FALSE.equals(ctx.cleanShutdown());
        long recoverFrom = unclean ? rp.orElse(0L) : Long.MAX_VALUE;

        // read each segment: its max timestamp, and the batches Kafka's loading reads
        List<EpochEntry> epochBatches = new ArrayList<>();
        int[] lastEpoch = {-1};
        long firstTimestamp = -1;
        boolean firstSeen = false;
        for (int i = 0; i < segs.size(); i++) {
            Seg s = segs.get(i);
            boolean last = i == segs.size() - 1;
            long segEnd = last ? Long.MAX_VALUE : segs.get(i + 1).base;
            boolean recover = segEnd > recoverFrom;   // Kafka recovers the segments holding offsets >= the recovery point
            TimestampOffset timeLast = null;
            long startPos = -1;
            if (!deep && !recover) {
                timeLast = lastTimeIndexEntry(s, problems);
                if (last) {
                    startPos = lastIndexPosition(s, problems);
                }
            } else {
                startPos = 0;
            }
            if (timeLast != null && timeLast.timestamp() >= 0) {
                s.maxTs = timeLast.timestamp();
                s.maxTsLastOffset = timeLast.offset();
            }
            if (!firstSeen && s.size > 0 && startPos != 0) {
                firstTimestamp = firstBatchTimestamp(s, problems);
                firstSeen = true;
            }
            if (startPos >= 0) {
                boolean check = deep || recover;
                final boolean wantFirst = !firstSeen;
                long[] first = {-1};
                boolean[] any = {false};
                scanBatches(s, startPos, check, problems, b -> {
                    if (!any[0]) {
                        any[0] = true;
                        first[0] = b.magic() >= 1 ? b.baseTimestamp() : -1;
                    }
                    if (b.maxTimestamp() > s.maxTs) {
                        s.maxTs = b.maxTimestamp();
                        s.maxTsLastOffset = b.lastOffset();
                        s.maxTsPosition = b.position();
                    }
                    s.next = b.nextOffset();
                    if (b.magic() >= 2) {
                        int e = b.partitionLeaderEpoch();
                        if (e >= 0 && (epochBatches.isEmpty() || e > epochBatches.get(epochBatches.size() - 1).epoch())) {
                            epochBatches.add(new EpochEntry(e, b.baseOffset(), -1));
                        }
                        lastEpoch[0] = e;
                    }
                });
                if (wantFirst && any[0]) {
                    firstTimestamp = first[0];
                    firstSeen = true;
                }
            }
        }
        long firstBase = segs.isEmpty() ? 0 : segs.get(0).base;
        long logEnd;
        if (segs.isEmpty()) {
            logEnd = 0;
        } else {
            Seg lastSeg = segs.get(segs.size() - 1);
            logEnd = lastSeg.next >= 0 ? lastSeg.next : lastSeg.base;
        }
        if (segs.isEmpty()) {
            firstBase = logEnd;
        }

        // log start offset (LogLoader: the larger of the checkpoint and the first segment's base)
        OptionalLong lsCheckpoint = ctx.offset(OffsetCheckpoint.LOG_START_OFFSET, tp);
        long logStart = Math.max(lsCheckpoint.orElse(0L), firstBase);
        if (lsCheckpoint.isPresent() && lsCheckpoint.getAsLong() < firstBase) {
            notes.add("log-start-offset-checkpoint says " + lsCheckpoint.getAsLong() + ", below the first segment's base offset "
                    + firstBase + ": Kafka starts the log at " + firstBase);
        }
        if (logStart > logEnd) {
            notes.add("the log start offset " + logStart + " is past the log end offset " + logEnd
                    + ": Kafka would empty the log and start it at " + logStart);
        }

        // high watermark
        OptionalLong hwCheckpoint = ctx.offset(OffsetCheckpoint.REPLICATION_OFFSET, tp);
        OptionalLong hw = OptionalLong.empty();
        if (hwCheckpoint.isPresent() || ctx.has(OffsetCheckpoint.REPLICATION_OFFSET) && !dir.name().isMetadataLog()) {
            long raw = hwCheckpoint.orElse(0L);
            long v = Math.max(logStart, Math.min(raw, logEnd));
            hw = OptionalLong.of(v);
            if (hwCheckpoint.isPresent() && raw > logEnd) {
                notes.add("replication-offset-checkpoint says " + raw + ", past the log end offset " + logEnd
                        + ": Kafka loads the high watermark as " + logEnd);
            } else if (hwCheckpoint.isEmpty()) {
                notes.add("no replication-offset-checkpoint entry: Kafka loads the high watermark as the log start offset " + v);
            }
            if (unclean && metadata != null && v < logEnd && !dir.name().isMetadataLog()) {
                hw = OptionalLong.of(afterCrash(dir, ctx, metadata, raw, v, logEnd, notes));
            }
        }

        // producer state: the latest snapshot at or below the log end, then the batches after it
        ProducerState producers = new ProducerState();
        long replayFrom;
        String stateFrom;
        SnapshotFile snap = null;
        for (SnapshotFile f : set.snapshots()) {
            if (f.offset() <= logEnd && f.offset() >= logStart && (snap == null || f.offset() > snap.offset())) {
                snap = f;
            }
        }
        boolean loaded = false;
        if (snap != null) {
            try (ByteSource src = snap.file().open()) {
                ProducerSnapshotReader r = new ProducerSnapshotReader().wrap(src);
                r.verifyCrc();
                for (ProducerSnapshotEntry e : r.entries()) {
                    producers.load(e);
                }
                loaded = true;
            } catch (FormatException e) {
                problems.add(e);
                producers = new ProducerState();
            }
        }
        if (loaded) {
            replayFrom = snap.offset();
            stateFrom = "snapshot " + snap.offset();
        } else if (Boolean.TRUE.equals(ctx.cleanShutdown()) && segs.size() > 0) {
            // LogLoader after a clean shutdown with no snapshot: empty snapshots at the last two
            // segments' base offsets, so that only they are replayed
            replayFrom = segs.get(Math.max(0, segs.size() - 2)).base;
            stateFrom = "replay from " + replayFrom + " (clean shutdown, no snapshot)";
        } else {
            replayFrom = logStart;
            stateFrom = "replay from " + replayFrom;
        }
        if (replayFrom < logEnd) {
            ProducerState ps = producers;
            for (int i = 0; i < segs.size(); i++) {
                Seg s = segs.get(i);
                long segEnd = i == segs.size() - 1 ? Long.MAX_VALUE : segs.get(i + 1).base;
                if (segEnd <= replayFrom) {
                    continue;
                }
                long pos = s.base >= replayFrom ? 0 : positionOf(s, replayFrom, problems);
                scanBatches(s, pos, false, null, b -> {
                    if (b.lastOffset() >= replayFrom && b.nextOffset() <= logEnd) {
                        ps.apply(b);
                    }
                });
            }
        }
        List<OpenTransaction> open = new ArrayList<>();
        for (ProducerSnapshotEntry e : producers.entries()) {
            if (e.currentTxnFirstOffset() >= 0) {
                open.add(new OpenTransaction(e.producerId(), e.epoch(), e.coordinatorEpoch(), e.currentTxnFirstOffset(),
                        batchTimestampAt(segs, e.currentTxnFirstOffset(), problems), e.timestamp()));
            }
        }
        open.sort(Comparator.comparingLong(OpenTransaction::firstOffset));
        long firstUnstable = producers.firstOpenTransactionOffset();
        long lsoBound = hw.orElse(logEnd);
        long lso = firstUnstable >= 0 ? Math.min(firstUnstable, lsoBound) : lsoBound;

        // max timestamp (ListOffsets MAX_TIMESTAMP): the first segment with the largest max timestamp,
        // its first batch holding it, that batch's first record holding it
        Seg best = null;
        for (Seg s : segs) {
            if (best == null || s.maxTs > best.maxTs) {
                best = s;
            }
        }
        long maxTs = best == null ? -1 : best.maxTs;
        long maxTsOffset = -1;
        if (best != null && maxTs >= 0) {
            maxTsOffset = offsetOfMaxTimestamp(best, problems);
            if (maxTsOffset >= lsoBound && hw.isPresent()) {
                notes.add("the max timestamp's offset " + maxTsOffset + " is at or above the high watermark: ListOffsets answers -1");
                maxTsOffset = -1;
            }
        }

        // epochs: checkpoint vs batches
        int lastBatchEpoch = lastEpoch[0];
        if (!epochCheckpoint.isEmpty() && lastBatchEpoch >= 0) {
            int ck = epochCheckpoint.get(epochCheckpoint.size() - 1).epoch();
            if (lastBatchEpoch > ck) {
                notes.add("the last batch has leader epoch " + lastBatchEpoch + ", past the leader-epoch-checkpoint's last ("
                        + ck + "): Kafka adds it when it loads the batches");
            }
        }
        if (deep) {
            compareEpochs(epochCheckpoint, epochBatches, logStart, notes);
        }

        // compaction
        boolean compacted = COMPACTED_INTERNAL.contains(dir.topic());
        if (metadata != null) {
            String policy = metadata.configs(dir.topic()).get("cleanup.policy");
            if (policy != null) {
                compacted = policy.contains("compact");
            }
        }
        OptionalLong cleaner = ctx.offset(OffsetCheckpoint.CLEANER_OFFSET, tp);
        compacted |= cleaner.isPresent();
        OptionalDouble dirty = OptionalDouble.empty();
        if (compacted && !segs.isEmpty()) {
            dirty = OptionalDouble.of(dirtyRatio(segs, logStart, logEnd, lso, cleaner));
        }

        return new ReplicaState(dir.topic(), dir.partition(), dir.dir().path(), ctx.path(), ctx.brokerId(), ctx.clusterId(),
                topicId, firstBase, lsCheckpoint, logStart, logEnd, hwCheckpoint, hw, rp, lso, firstTimestamp, maxTs,
                maxTsOffset, List.copyOf(epochCheckpoint), List.copyOf(epochBatches), lastBatchEpoch, segs.size(), bytes,
                producers.size(), List.copyOf(open), compacted, cleaner, dirty, ctx.cleanShutdown(), deep, stateFrom,
                List.copyOf(notes), distinct(problems));
    }

    /**
     * The high watermark a restarted broker serves after an unclean shutdown (docs/format.md 1.11):
     * the checkpoint is written every {@code replica.high.watermark.checkpoint.interval.ms}, so a
     * crash leaves it behind. When the metadata log's last in-sync replica set of the partition is
     * this broker alone, the broker becomes its leader on restart and {@code Partition.makeLeader}
     * calls {@code maybeIncrementLeaderHW}, which raises the high watermark to the log end offset
     * (no other in-sync replica holds it back; not when {@code min.insync.replicas} is above 1).
     * Otherwise the checkpoint's value stays, with a note that the live one may have been higher.
     */
    private static long afterCrash(PartitionDir dir, LogDirContext ctx, MetadataTopics metadata, long raw, long loaded,
                                   long logEnd, List<String> notes) {
        Optional<List<Integer>> isr = metadata.isr(dir.topic(), dir.partition());
        if (isr.isEmpty() || ctx.brokerId().isEmpty() || !isr.get().contains(ctx.brokerId().getAsInt())) {
            return loaded;
        }
        String said = "replication-offset-checkpoint says " + raw + ", written before the crash";
        String minIsr = metadata.configs(dir.topic()).get("min.insync.replicas");
        boolean underMinIsr = minIsr != null && !minIsr.trim().equals("1");
        if (isr.get().size() == 1 && !underMinIsr) {
            notes.add(said + "; a restarted sole in-sync leader serves the log end " + logEnd);
            return logEnd;
        }
        if (isr.get().size() == 1) {
            notes.add(said + "; min.insync.replicas is " + minIsr.trim() + ", so a restarted leader keeps it (the live high watermark"
                    + " may have been higher, up to " + logEnd + ")");
        } else {
            notes.add(said + "; the in-sync replicas " + isr.get() + " include other brokers, so it stays (the live high watermark"
                    + " may have been higher, up to " + logEnd + ")");
        }
        return loaded;
    }

    /** The problems, each once (the same damage can be met by two of the reads). */
    private static List<FormatException> distinct(List<FormatException> problems) {
        java.util.Map<String, FormatException> seen = new java.util.LinkedHashMap<>();
        for (FormatException e : problems) {
            seen.putIfAbsent(e.getMessage(), e);
        }
        return List.copyOf(seen.values());
    }

    /**
     * The cleaner's dirty ratio ({@code LogCleanerManager.cleanableOffsets}, {@code LogToClean},
     * docs/format.md 4.1) with {@code min.compaction.lag.ms} 0: the bytes of the segments from the
     * first dirty offset to the first uncleanable one over those from the log start.
     */
    static double dirtyRatio(List<Seg> segs, long logStart, long logEnd, long lso, OptionalLong checkpoint) {
        long firstDirty = checkpoint.orElse(logStart);
        if (firstDirty < logStart || firstDirty > logEnd) {
            firstDirty = logStart;
        }
        long activeBase = segs.get(segs.size() - 1).base;
        long uncleanable = Math.max(firstDirty, Math.min(lso, activeBase));
        long firstUncleanable = activeBase;
        for (int i = 0; i < segs.size() - 1; i++) {
            if (segs.get(i + 1).base > uncleanable) {
                firstUncleanable = segs.get(i).base;
                break;
            }
        }
        long clean = bytes(segs, logStart, Math.max(logStart, firstDirty));
        long cleanable = bytes(segs, Math.min(firstDirty, firstUncleanable), firstUncleanable);
        long total = clean + cleanable;
        return total == 0 ? 0 : (double) cleanable / total;
    }

    /** Bytes of the segments holding offsets in [from, to). */
    private static long bytes(List<Seg> segs, long from, long to) {
        if (from >= to) {
            return 0;
        }
        long n = 0;
        for (int i = 0; i < segs.size(); i++) {
            long segEnd = i == segs.size() - 1 ? Long.MAX_VALUE : segs.get(i + 1).base;
            if (segEnd > from && segs.get(i).base < to) {
                n += segs.get(i).size;
            }
        }
        return n;
    }

    private static void compareEpochs(List<EpochEntry> checkpoint, List<EpochEntry> batches, long logStart, List<String> notes) {
        // the checkpoint keeps epochs whose first batches were deleted or cleaned: compare from the
        // first epoch both know
        List<String> ck = new ArrayList<>();
        for (EpochEntry e : checkpoint) {
            ck.add(e.epoch() + "@" + e.startOffset());
        }
        List<String> bt = new ArrayList<>();
        for (EpochEntry e : batches) {
            bt.add(e.epoch() + "@" + e.startOffset());
        }
        for (EpochEntry b : batches) {
            for (EpochEntry c : checkpoint) {
                if (c.epoch() == b.epoch() && c.startOffset() != b.startOffset() && b.startOffset() > logStart
                        && c.startOffset() >= logStart) {
                    notes.add("leader epoch " + b.epoch() + " starts at offset " + b.startOffset() + " in the batches but at "
                            + c.startOffset() + " in leader-epoch-checkpoint");
                }
            }
            if (!checkpoint.isEmpty() && checkpoint.stream().noneMatch(c -> c.epoch() == b.epoch())
                    && b.epoch() < checkpoint.get(checkpoint.size() - 1).epoch()) {
                notes.add("leader epoch " + b.epoch() + " (from offset " + b.startOffset() + ") is in the batches but not in leader-epoch-checkpoint");
            }
        }
    }

    /** The time index's last entry, or null when it is missing or unreadable. */
    private TimestampOffset lastTimeIndexEntry(Seg s, List<FormatException> problems) {
        Optional<FileEntry> ti = s.segment.timeIndex();
        if (ti.isEmpty()) {
            return null;
        }
        try (ByteSource src = ti.get().open()) {
            return new TimeIndexReader().wrap(src, s.base).lastEntry();
        } catch (FormatException e) {
            problems.add(e);
            return null;
        }
    }

    /** The position of the offset index's last entry (Kafka's {@code readNextOffset} starts there), 0 when none or bad. */
    private long lastIndexPosition(Seg s, List<FormatException> problems) {
        Optional<FileEntry> oi = s.segment.index();
        if (oi.isEmpty()) {
            return 0;
        }
        try (ByteSource src = oi.get().open()) {
            OffsetIndexReader r = new OffsetIndexReader().wrap(src, s.base);
            int n = r.entries();
            if (n == 0) {
                return 0;
            }
            long pos = r.position(n - 1);
            return pos >= 0 && pos < s.size ? pos : 0;
        } catch (FormatException e) {
            problems.add(e);
            return 0;
        }
    }

    /** Where the batch holding {@code offset} starts or a batch before it (the offset index), 0 when none. */
    private long positionOf(Seg s, long offset, List<FormatException> problems) {
        Optional<FileEntry> oi = s.segment.index();
        if (oi.isEmpty()) {
            return 0;
        }
        try (ByteSource src = oi.get().open()) {
            long pos = new OffsetIndexReader().wrap(src, s.base).lookup(offset).position();
            return pos >= 0 && pos < s.size ? pos : 0;
        } catch (FormatException e) {
            problems.add(e);
            return 0;
        }
    }

    /** The first batch's first timestamp (-1 for none or magic 0). */
    private long firstBatchTimestamp(Seg s, List<FormatException> problems) {
        long[] ts = {-1};
        boolean[] done = {false};
        scanBatches(s, 0, false, problems, b -> {
            if (!done[0]) {
                ts[0] = b.magic() >= 1 ? b.baseTimestamp() : -1;
                done[0] = true;
            }
        }, 1);
        return ts[0];
    }

    /** The max timestamp of the batch holding {@code offset}, -1 when not found. */
    private long batchTimestampAt(List<Seg> segs, long offset, List<FormatException> problems) {
        Seg s = null;
        for (Seg c : segs) {
            if (c.base <= offset) {
                s = c;
            }
        }
        if (s == null) {
            return -1;
        }
        long[] ts = {-1};
        scanBatches(s, positionOf(s, offset, problems), false, null, b -> {
            if (ts[0] < 0 && b.baseOffset() <= offset && offset <= b.lastOffset()) {
                ts[0] = b.maxTimestamp();
            }
        });
        return ts[0];
    }

    /**
     * Kafka's MAX_TIMESTAMP answer within the segment holding the largest timestamp: the first batch
     * from the offset index's entry for the time index's offset whose max timestamp is the
     * segment's, then {@code offsetOfMaxTimestamp}: its first record with that timestamp (none for
     * magic 0).
     */
    private long offsetOfMaxTimestamp(Seg s, List<FormatException> problems) {
        long pos = s.maxTsPosition >= 0 ? s.maxTsPosition : positionOf(s, s.maxTsLastOffset, problems);
        long[] out = {-1};
        boolean[] found = {false};
        scanBatches(s, pos, false, problems, b -> {
            if (found[0] || b.maxTimestamp() != s.maxTs) {
                return;
            }
            found[0] = true;
            if (b.magic() == 0) {
                return;
            }
            try {
                RecordIterator it = b.records();
                while (it.next()) {
                    LogRecord r = it.record();
                    if (r.timestamp() == s.maxTs) {
                        out[0] = r.offset();
                        return;
                    }
                }
            } catch (FormatException e) {
                problems.add(e);
            }
        });
        return out[0];
    }

    /**
     * Kafka's search by timestamp ({@code UnifiedLog.searchOffsetInLocalLog},
     * {@code LogSegment.findOffsetByTimestamp}, {@code FileRecords.searchForTimestamp}): the first
     * segment whose largest timestamp is at least {@code target} (a segment with no timestamp counts,
     * as its file's modification time would), the time index and offset index to start from, the
     * first record at or after {@code startOffset} whose timestamp is at least {@code target}.
     *
     * @return {offset, timestamp}, or null when there is none
     */
    public long[] searchTimestamp(PartitionDir dir, long target, long startOffset) {
        List<Seg> segs = new ArrayList<>();
        for (Segment s : dir.segments().segments()) {
            s.log().ifPresent(l -> segs.add(new Seg(s, l)));
        }
        segs.sort(Comparator.comparingLong(s -> s.base));
        List<FormatException> ignored = new ArrayList<>();
        for (int i = 0; i < segs.size(); i++) {
            Seg s = segs.get(i);
            long largest = largestTimestamp(s, i == segs.size() - 1, ignored);
            if (largest >= 0 && largest < target) {
                continue;
            }
            long start = startOffset;
            TimestampOffset t = null;
            Optional<FileEntry> ti = s.segment.timeIndex();
            if (ti.isPresent()) {
                try (ByteSource src = ti.get().open()) {
                    t = new TimeIndexReader().wrap(src, s.base).lookup(target);
                } catch (FormatException e) {
                    t = null;
                }
            }
            long from = Math.max(t == null ? s.base : t.offset(), start);
            long pos = positionOf(s, from, ignored);
            long[] out = {-1, -1};
            scanBatches(s, pos, false, null, b -> {
                if (out[0] >= 0 || b.maxTimestamp() < target) {
                    return;
                }
                try {
                    RecordIterator it = b.records();
                    while (it.next()) {
                        LogRecord r = it.record();
                        if (r.timestamp() >= target && r.offset() >= start) {
                            out[0] = r.offset();
                            out[1] = r.timestamp();
                            return;
                        }
                    }
                } catch (FormatException e) {
                    // a batch that cannot be read holds no answer
                }
            });
            return out[0] >= 0 ? out : null;
        }
        return null;
    }

    /**
     * A partition as of a time: cut before its first batch (in offset order) whose largest timestamp
     * is later than {@code asOfTime}.
     *
     * @param endOffset the cut batch's base offset (the log end as of then), or the offset after the
     *     last batch when none is later
     * @param bytes the bytes of the segments before the cut, and of the cut segment up to the cut batch
     * @param cut whether some batch is later than the time
     * @param openTransactions the transactions open then: begun at or before the cut and not ended by a
     *     marker before it, by the producer state replayed from the log start ({@link ProducerState},
     *     as the scan replays it; transactions begun below the log start are not seen)
     */
    public record Cut(long endOffset, long bytes, boolean cut, List<OpenTransaction> openTransactions) {
        public Cut {
            openTransactions = List.copyOf(openTransactions);
        }
    }

    /** {@link Cut} of a partition dir's live segments at {@code asOfTime} (epoch ms). */
    public Cut cut(PartitionDir dir, long asOfTime) {
        List<Seg> segs = new ArrayList<>();
        for (Segment s : dir.segments().segments()) {
            s.log().ifPresent(l -> segs.add(new Seg(s, l)));
        }
        segs.sort(Comparator.comparingLong(s -> s.base));
        ProducerState producers = new ProducerState();
        long bytes = 0;
        long[] next = {segs.isEmpty() ? 0 : segs.get(0).base};
        long[] at = {-1, -1};
        boolean cut = false;
        for (Seg s : segs) {
            scanBatches(s, 0, false, null, b -> {
                if (at[0] >= 0) {
                    return;
                }
                if (b.maxTimestamp() > asOfTime) {
                    at[0] = b.baseOffset();
                    at[1] = b.position();
                    return;
                }
                producers.apply(b);
                next[0] = b.nextOffset();
            });
            if (at[0] >= 0) {
                bytes += at[1];
                cut = true;
                break;
            }
            bytes += s.size;
        }
        List<FormatException> ignored = new ArrayList<>();
        List<OpenTransaction> open = new ArrayList<>();
        for (ProducerSnapshotEntry e : producers.entries()) {
            if (e.currentTxnFirstOffset() >= 0) {
                open.add(new OpenTransaction(e.producerId(), e.epoch(), e.coordinatorEpoch(), e.currentTxnFirstOffset(),
                        batchTimestampAt(segs, e.currentTxnFirstOffset(), ignored), e.timestamp()));
            }
        }
        open.sort(Comparator.comparingLong(OpenTransaction::firstOffset));
        return new Cut(cut ? at[0] : next[0], bytes, cut, open);
    }

    /**
     * The timestamp of the record at {@code offset} (the offset index, then the batch holding it;
     * for a record the cleaner removed, the next record's), or -1 when the log does not hold it.
     */
    public long timestampAt(PartitionDir dir, long offset) {
        Seg s = null;
        for (Segment seg : dir.segments().segments()) {
            if (seg.log().isPresent() && seg.baseOffset() <= offset && (s == null || seg.baseOffset() > s.base)) {
                s = new Seg(seg, seg.log().get());
            }
        }
        if (s == null) {
            return -1;
        }
        long[] ts = {-1};
        boolean[] done = {false};
        List<FormatException> ignored = new ArrayList<>();
        scanBatches(s, positionOf(s, offset, ignored), false, null, b -> {
            if (done[0] || b.lastOffset() < offset) {
                return;
            }
            done[0] = true;
            if (b.magic() == 0) {
                return;
            }
            try {
                RecordIterator it = b.records();
                while (it.next()) {
                    if (it.record().offset() >= offset) {
                        ts[0] = it.record().timestamp();
                        return;
                    }
                }
            } catch (FormatException e) {
                ts[0] = b.maxTimestamp();
            }
        });
        return ts[0];
    }

    /** A segment's largest timestamp as its time index and (last segment) its unindexed batches tell. */
    private long largestTimestamp(Seg s, boolean last, List<FormatException> problems) {
        TimestampOffset t = lastTimeIndexEntry(s, problems);
        long max = t == null ? -1 : t.timestamp();
        if (last || t == null || t.timestamp() < 0) {
            long[] m = {max};
            scanBatches(s, last ? lastIndexPosition(s, problems) : 0, false, null, b -> m[0] = Math.max(m[0], b.maxTimestamp()));
            max = m[0];
        }
        return max;
    }

    /**
     * A segment's {@code .log}: on the file system and up to 256 MiB, a mapping unmapped on close (so
     * that the resident set does not grow with the number of segments read); else as its entry opens it.
     */
    private static ByteSource open(Seg s) {
        if (s.log instanceof io.segscope.format.logdir.PathEntry && s.size <= (256L << 20) && !s.log.isStream()) {
            return io.segscope.format.io.MappedSource.openReleasable(java.nio.file.Path.of(s.log.path()), s.log.path());
        }
        return s.log.open();
    }

    private void scanBatches(Seg s, long from, boolean checkCrc, List<FormatException> problems, Consumer<Batch> each) {
        scanBatches(s, from, checkCrc, problems, each, Integer.MAX_VALUE);
    }

    /**
     * Reads batch headers from {@code from} to the end of the segment or its first damage (a torn
     * tail, a frame Kafka cannot read, with {@code checkCrc} a bad CRC: where recovery truncates).
     */
    private void scanBatches(Seg s, long from, boolean checkCrc, List<FormatException> problems, Consumer<Batch> each,
                             int max) {
        if (s.size == 0 || from >= s.size) {
            return;
        }
        try (ByteSource src = open(s); BatchReader r = new BatchReader(src, options, from).framingAsKafka()) {
            int n = 0;
            while (n < max && r.next()) {
                Batch b = r.batch();
                if ((b.magic() < 0 || b.magic() > 2) && problems != null) {
                    problems.add(FormatException.at(Violation.INVALID_MAGIC, s.log.path(), b.position()).baseOffset(b.baseOffset())
                            .field("magic").expected("0, 1 or 2").actual(b.magic())
                            .note(b.magic() > 2 ? "Kafka frames it as a magic-2 batch (the CRC does not cover the magic) and keeps it"
                                    : "Kafka frames it as a legacy message").build());
                }
                if (checkCrc && !b.isValid()) {
                    if (problems != null) {
                        problems.add(FormatException.at(Violation.CRC_MISMATCH, s.log.path(), b.position())
                                .baseOffset(b.baseOffset()).field("crc").expected(b.computedCrc()).actual(b.storedCrc())
                                .note("Kafka's recovery truncates the segment here").build());
                    }
                    return;
                }
                each.accept(b);
                n++;
            }
            Tail t = r.tail();
            if (t != null && !t.isClean() && problems != null && n < max) {
                problems.add(FormatException.at(t.kind() == Tail.Kind.ZERO_FILL ? Violation.ZERO_TAIL : Violation.TRUNCATED,
                        s.log.path(), t.validBytes()).note(t.tailBytes() + " bytes after the last whole batch; the log ends at "
                        + "the batch before (Kafka's recovery truncates them)").build());
            }
        } catch (FormatException e) {
            if (problems != null) {
                problems.add(e);
            }
        }
    }
}
