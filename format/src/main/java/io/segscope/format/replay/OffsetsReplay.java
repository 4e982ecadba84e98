package io.segscope.format.replay;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.RecordSchema;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.coordinator.Unknown;
import io.segscope.format.coordinator.UnknownReason;
import io.segscope.format.coordinator.Utf8Slice;
import io.segscope.format.coordinator.group.OffsetCommitView;
import io.segscope.format.error.FormatException;
import io.segscope.format.error.Problem;
import io.segscope.format.error.Violation;
import io.segscope.format.io.KafkaUuid;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.FileListing;
import io.segscope.format.logdir.Include;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.LogScanner;
import io.segscope.format.logdir.TopicPartitionName;
import io.segscope.format.record.Batch;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.Tail;
import io.segscope.format.walk.DecoderChoice;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordFilter;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;
import io.segscope.format.walk.TransactionOutcome;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Replays one {@code __consumer_offsets} partition in log order as Kafka 4.4's group coordinator
 * loads it (docs/format.md 3), as a {@link RecordSink} of a {@link RecordWalk}. See the package
 * documentation for the rules. One instance per partition; {@link #result()} may be called at any
 * time and reads the live state (do not replay further while using it).
 *
 * <pre>
 * ReplayResult r = OffsetsReplay.replay(OffsetsReplay.logFiles(Path.of("/data/__consumer_offsets-7")), AsOf.END);
 * </pre>
 */
public final class OffsetsReplay implements RecordSink {
    // values are refined when read (ReplayedGroup.refineClassic): most are replaced before anyone reads them
    private static final CoordinatorRecordDecoder DECODER = CoordinatorRecordDecoder.consumerOffsets().unrefined();

    private final AsOf asOf;
    // this replay keeps the groups whose id hashes to shard (of shards); markers and file problems go to every shard
    private final int shard;
    private final int shards;
    private final OffsetCommitView view = new OffsetCommitView();

    // state
    final Utf8Table groupIds = new Utf8Table();
    final Utf8Table topics = new Utf8Table();
    final OffsetTable offsets = new OffsetTable();
    final Map<String, ReplayedGroup> groups = new LinkedHashMap<>();
    final Map<Long, Map<Key, CommittedOffset>> pending = new LinkedHashMap<>();
    final List<Problem> problems = new ArrayList<>();
    // per problem, the walk event it was found at (batches and file problems, counted alike by every shard): shards merge in log order by it
    final List<Long> problemBatch = new ArrayList<>();
    /** Walk events so far, the same in every shard: batches, and the file problems between and after them. */
    private long batchesSeen;
    final Map<Short, Long> skippedTypes = new TreeMap<>();
    final List<String> files = new ArrayList<>();
    private final Map<String, Integer> fileIndex = new HashMap<>();

    // batch context
    private LogFile file;
    private int fileIdx;
    private int coordinatorPartition = -1;
    private long batchPosition;
    private long batchMaxTimestamp;
    private long producerId;
    private boolean control;
    private boolean skipBatch;
    private Batch currentBatch;
    // producers holding a pending offset, per key
    private final KeyCounts pendingKeys = new KeyCounts();
    // ids (of groupIds) of groups known to be in groups: their commits look nothing up
    private final BitSet groupKnown = new BitSet();

    // progress
    private boolean stopped;
    long records;
    long batches;
    long lastBatchTimestamp = -1;
    long nextOffset = -1;

    record Key(int group, int topic, int partition) {
    }

    public OffsetsReplay() {
        this(AsOf.END);
    }

    public OffsetsReplay(AsOf asOf) {
        this(asOf, 0, 1);
    }

    /**
     * A replay of the groups whose id hashes to {@code shard} of {@code shards} (see
     * {@link #replay(List, AsOf, int)}): it reads every batch and record of the log, and skips the
     * records of other shards' groups after reading their group id. Control records (transaction
     * markers, matched by producer id) are replayed by every shard; the batches, control records
     * and problems of the files themselves are counted by shard 0 only.
     */
    OffsetsReplay(AsOf asOf, int shard, int shards) {
        this.asOf = asOf;
        this.shard = shard;
        this.shards = shards;
    }

    /** The live {@code .log} files of a {@code __consumer_offsets} partition dir, in offset order. */
    public static List<LogFile> logFiles(Path partitionDir) {
        FileListing listing = new FileListing(Set.of(FileKind.LOG));
        new LogScanner(Include.none()).scan(partitionDir, listing);
        List<LogFile> logs = new ArrayList<>();
        for (LogFile f : listing.files()) {
            if (f.kind() == FileKind.LOG) {
                logs.add(f);
            }
        }
        return logs;
    }

    /**
     * Replays {@code files} (one partition's {@code .log} files in offset order) up to {@code asOf}.
     * Records are read raw ({@link DecoderChoice#NONE}): offset commits through
     * {@link OffsetCommitView}, other records through the coordinator decoder.
     */
    public static ReplayResult replay(List<LogFile> files, AsOf asOf) {
        return replay(files, asOf, defaultThreads(files));
    }

    /** Logs smaller than this are replayed by one thread: starting more costs more than it saves. */
    static final long PARALLEL_BYTES = 64L << 20;
    /** At most this many threads by default. */
    static final int MAX_THREADS = 8;

    /**
     * The threads {@link #replay(List, AsOf)} uses: one for a log under {@value #PARALLEL_BYTES}
     * bytes or not in files on disk (a stream, an archive), else the processors available, at most
     * {@value #MAX_THREADS}.
     */
    public static int defaultThreads(List<LogFile> files) {
        long bytes = 0;
        for (LogFile f : files) {
            if (!(f.file() instanceof io.segscope.format.logdir.PathEntry)) {
                return 1; // a stream or an archive entry: read once, by one thread
            }
            bytes += f.file().size();
        }
        return bytes < PARALLEL_BYTES ? 1 : Math.min(MAX_THREADS, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Replays {@code files} with {@code threads} threads: the groups are split into as many shards
     * by a hash of the group id, and each thread replays the whole log for its shard's groups
     * (Kafka's load rules never relate records of two groups, except transaction markers, which
     * every shard replays). The result is the same as one thread's; each thread reads every batch,
     * so the speed-up is that of the record work, not of the reading (and a compressed log is
     * decompressed by each thread). Files read from a stream or an archive need {@code threads} = 1.
     */
    public static ReplayResult replay(List<LogFile> files, AsOf asOf, int threads) {
        int n = Math.max(1, threads);
        // one mapping of each file on disk for every thread, unmapped as soon as every thread is done with it
        List<LogFile> input = new ArrayList<>(files.size());
        for (LogFile f : files) {
            input.add(f.file() instanceof io.segscope.format.logdir.PathEntry p
                    ? new LogFile(new io.segscope.format.logdir.SharedMapping(p, n), f.kind(), f.status(), f.partition(), f.baseOffset()) : f);
        }
        List<LogFile> walked = input;
        OffsetsReplay[] shards = new OffsetsReplay[n];
        for (int i = 0; i < n; i++) {
            shards[i] = new OffsetsReplay(asOf, i, n);
        }
        Throwable[] failures = new Throwable[n];
        Thread[] workers = new Thread[n];
        for (int i = 1; i < n; i++) {
            int k = i;
            workers[i] = new Thread(() -> {
                try {
                    walk(walked, shards[k]);
                } catch (Throwable t) {
                    failures[k] = t;
                } finally {
                    io.segscope.format.record.Decompressor.releaseThread();
                }
            }, "segscope-replay-" + i);
            workers[i].setDaemon(true);
            workers[i].start();
        }
        try {
            walk(walked, shards[0]);
        } catch (RuntimeException | Error e) {
            failures[0] = e;
        }
        boolean interrupted = false;
        for (int i = 1; i < n; i++) {
            while (true) {
                try {
                    workers[i].join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        for (Throwable t : failures) {
            if (t instanceof RuntimeException e) {
                throw e;
            }
            if (t instanceof Error e) {
                throw e;
            }
            if (t != null) {
                throw new IllegalStateException(t);
            }
        }
        return new ReplayResult(List.of(shards), asOf);
    }

    private static void walk(List<LogFile> files, OffsetsReplay replay) {
        new RecordWalk(ReaderOptions.defaults(), DecoderChoice.NONE, RecordFilter.ALL, Long.MAX_VALUE).walk(files, replay);
    }

    /** Whether the as-of limit was reached (the rest of the log is not replayed). */
    public boolean stopped() {
        return stopped;
    }

    /** The state replayed so far. */
    public ReplayResult result() {
        return new ReplayResult(List.of(this), asOf);
    }

    /**
     * A problem of the file (damage, a torn tail, a wrong CRC), found by every shard alike and kept
     * by shard 0; it is a walk event of its own, so that the shards' problems merge in log order.
     */
    private void fileProblem(Problem p) {
        batchesSeen++;
        if (shard == 0) {
            problems.add(p);
            problemBatch.add(batchesSeen);
        }
    }

    // ---------------------------------------------------------------- RecordSink

    @Override
    public void beginFile(LogFile f) {
        file = f;
        Integer idx = fileIndex.get(f.path());
        if (idx == null) {
            idx = files.size();
            files.add(f.path());
            fileIndex.put(f.path(), idx);
        }
        fileIdx = idx;
        coordinatorPartition = f.partition().map(TopicPartitionName::partition).orElse(-1);
    }

    @Override
    public void batch(LogFile f, Batch b, TransactionOutcome transaction) {
        if (file != f) {
            beginFile(f);
        }
        currentBatch = b;
        skipBatch = false;
        batchesSeen++;
        if (stopped) {
            skipBatch = true;
            return;
        }
        long ts = b.maxTimestamp();
        if (asOf.timeMs() != Long.MAX_VALUE && ts > asOf.timeMs()) {
            stopped = true;
            skipBatch = true;
            return;
        }
        if (!b.isValid()) {
            skipBatch = true;
            fileProblem(Problem.of(Violation.CRC_MISMATCH, f.path(), b.position(), -1,
                    "the batch's CRC is wrong: Kafka's log recovery would truncate the log here; its records were not replayed"));
            return;
        }
        batchPosition = b.position();
        batchMaxTimestamp = ts;
        producerId = b.magic() >= 2 ? b.producerId() : -1;
        control = b.isControl();
    }

    @Override
    public void endBatch(LogFile f, Batch b, long recordsPassed) {
        if (!skipBatch && !stopped && currentBatch == b) {
            if (shard == 0) {
                batches++;
            }
            lastBatchTimestamp = batchMaxTimestamp;
            if (b.magic() >= 2 && !stopped) {
                nextOffset = Math.max(nextOffset, b.nextOffset());
            }
        }
    }

    @Override
    public void problem(LogFile f, String message) {
        fileProblem(Problem.of(Violation.RESYNC, f.path(), -1, -1, message));
    }

    @Override
    public void endFile(LogFile f, Tail tail, long validBytes, long fileSize, String error) {
        if (error != null) {
            fileProblem(Problem.of(Violation.TRUNCATED, f.path(), validBytes, -1, error));
        }
    }

    @Override
    public boolean isOpen() {
        return !stopped;
    }

    @Override
    public void record(LogFile f, Batch b, LogRecord r, RecordContent content) {
        if (currentBatch != b) {
            batch(f, b, null);
        }
        if (skipBatch || stopped) {
            return;
        }
        long offset = r.offset();
        if (offset >= asOf.endOffset()) {
            stopped = true;
            return;
        }
        lastBatchTimestamp = batchMaxTimestamp;
        nextOffset = Math.max(nextOffset, offset + 1);
        if (control) {
            if (shard == 0) {
                records++;
            }
            replayControl(b, r, offset);
            return;
        }
        ByteBuffer kb = r.hasKey() ? r.buffer() : null;
        int kl = r.hasKey() ? r.keyLength() : -1;
        if (shards > 1 && shardOf(kb, r.keyOffset(), kl, shards) != shard) {
            return;
        }
        records++;
        ByteBuffer vb = r.hasValue() ? r.buffer() : null;
        int vl = r.hasValue() ? r.valueLength() : -1;
        if (OffsetCommitView.isOffsetCommitKey(kb, r.keyOffset(), kl)
                && view.wrap(kb, r.keyOffset(), kl, vb, r.valueOffset(), vl)) {
            replayOffsetCommit(offset);
            return;
        }
        // GroupMetadata (type 2): the value is checked, kept as bytes and decoded when read
        boolean classic = kb != null && kl >= 2 && kb.getShort(r.keyOffset()) == 2;
        CoordinatorResult res = classic
                ? DECODER.decodeKeyCheckValue(kb, r.keyOffset(), kl, vb, r.valueOffset(), vl)
                : DECODER.decode(kb, r.keyOffset(), kl, vb, r.valueOffset(), vl);
        if (res instanceof Unknown u) {
            io.segscope.format.coordinator.RecordSchema schema = DECODER.schemas().forType(u.recordType());
            if (u.reason() == UnknownReason.UNKNOWN_RECORD_TYPE || schema != null && !schema.inKafka440()) {
                // unknown to 4.4.0 (types 9 and 18 included, whatever their bytes): skipped with a WARN
                skippedTypes.merge(u.recordType(), 1L, Long::sum);
            } else {
                FormatException e = u.toException(f.path(), batchPosition, offset);
                addProblem(e.problem(), offset, "Kafka's load fails on this record (" + u.detail() + ")");
            }
            return;
        }
        Decoded d = (Decoded) res;
        if (!d.schema().inKafka440()) {
            // types 9 and 18: unknown to 4.4.0, skipped with a WARN (CoordinatorLoaderImpl)
            skippedTypes.merge(d.recordType(), 1L, Long::sum);
            return;
        }
        if (classic) {
            replayClassic(d.ownerId(), d.schema(), d.valueVersion(), vb, r.valueOffset(), vl, offset);
            return;
        }
        replayGroupRecord(d, offset);
    }

    /**
     * The shard of a record: its key's group id (every key type of {@code __consumer_offsets} starts
     * with it: int16 type, int16 length, UTF-8 bytes) hashed; 0 for a key that does not hold one.
     */
    static int shardOf(ByteBuffer key, int offset, int length, int shards) {
        if (key == null || length < 4) {
            return 0;
        }
        int n = key.getShort(offset + 2);
        if (n < 0 || n > length - 4) {
            return 0;
        }
        return Math.floorMod(Utf8Table.hash(key, offset + 4, n), shards);
    }

    /** Shard {@code s} of {@code shards} holds this group's records. */
    static int shardOf(String groupId, int shards) {
        byte[] b = groupId.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return Math.floorMod(Utf8Table.hash(ByteBuffer.wrap(b), 0, b.length), shards);
    }

    private void addProblem(Problem p, long offset, String note) {
        problems.add(new Problem(p.kind(), p.file(), p.position(), offset, p.field(), p.expected(), p.actual(),
                "offset " + offset + ": " + note + (p.note() == null ? "" : "; " + p.note())));
        problemBatch.add(batchesSeen);
    }

    private void fail(long offset, String message) {
        problems.add(new Problem(Violation.INVALID_COORDINATOR_VALUE, file.path(), batchPosition, offset, null, null, null,
                "offset " + offset + ": Kafka's load fails here: IllegalStateException: " + message));
        problemBatch.add(batchesSeen);
    }

    // ---------------------------------------------------------------- control records

    private void replayControl(Batch b, LogRecord r, long offset) {
        short type;
        try {
            type = ControlRecord.typeId(b, r);
        } catch (FormatException e) {
            if (shard == 0) {
                addProblem(e.problem(), offset, "Kafka's load fails on a control record whose key does not parse");
            }
            return;
        }
        if (type == ControlRecord.Type.COMMIT.id || type == ControlRecord.Type.ABORT.id) {
            endTransaction(producerId, type == ControlRecord.Type.COMMIT.id);
        }
    }

    /** {@code OffsetMetadataManager.replayEndTransactionMarker}: matched by producer id only. */
    private void endTransaction(long pid, boolean commit) {
        Map<Key, CommittedOffset> p = pending.remove(pid);
        if (p == null) {
            return;
        }
        for (Key k : p.keySet()) {
            pendingKeys.add(k.group(), k.topic(), k.partition(), -1);
        }
        if (!commit) {
            return;
        }
        for (Map.Entry<Key, CommittedOffset> e : p.entrySet()) {
            Key k = e.getKey();
            CommittedOffset o = e.getValue();
            int slot = offsets.find(k.group(), k.topic(), k.partition());
            if (slot >= 0 && o.source().logOffset() <= offsets.recordOffset(slot)) {
                continue; // "Skipped the materialization of transactional offset commit"
            }
            if (slot < 0) {
                slot = offsets.add(k.group(), k.topic(), k.partition());
            }
            offsets.setMetadata(slot, o.metadata());
            KafkaUuid id = o.topicId();
            offsets.set(slot, k.partition(), o.offset(), o.leaderEpoch(), o.commitTimestamp(), o.expireTimestamp(),
                    id == null ? 0 : id.mostSignificantBits(), id == null ? 0 : id.leastSignificantBits(),
                    o.source().logOffset(), o.source().position(), o.source().batchTimestamp(),
                    fileIndex.get(o.source().file()));
        }
    }

    // ---------------------------------------------------------------- offset commits

    /** {@code OffsetMetadataManager.replay(recordOffset, producerId, key, value)}. */
    private void replayOffsetCommit(long offset) {
        OffsetCommitView v = view;
        if (v.isTombstone()) {
            int g = groupIds.find(v.group());
            int t = topics.find(v.topic());
            if (g < 0 || t < 0) {
                return; // nothing was ever committed or pending under this key
            }
            int slot = offsets.find(g, t, v.partition());
            if (slot >= 0) {
                offsets.remove(slot);
            }
            if (pendingKeys.get(g, t, v.partition()) > 0) {
                Key k = new Key(g, t, v.partition());
                for (Map<Key, CommittedOffset> p : pending.values()) {
                    if (p.remove(k) != null) {
                        pendingKeys.add(g, t, v.partition(), -1);
                    }
                }
            }
            return;
        }
        int g = groupIds.intern(v.group());
        int t = topics.intern(v.topic());
        String groupId = groupIds.string(g);
        if (!groupKnown.get(g)) {
            if (!groups.containsKey(groupId)) {
                groups.put(groupId, new ReplayedGroup(groupId, GroupType.CLASSIC)); // a simple group
            }
            groupKnown.set(g);
        }
        if (producerId != -1) {
            String metadata = v.metadata().length() == 0 ? OffsetTable.EMPTY : v.metadata().toString();
            KafkaUuid topicId = v.hasTopicId()
                    ? new KafkaUuid(v.topicIdMostSignificantBits(), v.topicIdLeastSignificantBits()) : null;
            CommittedOffset o = new CommittedOffset(groupId, topics.string(t), v.partition(), v.offset(), v.leaderEpoch(),
                    metadata, v.commitTimestamp(), v.expireTimestamp(), topicId, producerId,
                    new Provenance(file.path(), coordinatorPartition, offset, batchPosition, batchMaxTimestamp));
            if (pending.computeIfAbsent(producerId, x -> new LinkedHashMap<>()).put(new Key(g, t, v.partition()), o) == null) {
                pendingKeys.add(g, t, v.partition(), 1);
            }
            return;
        }
        OffsetTable tb = offsets;
        int slot = tb.find(g, t, v.partition());
        if (slot < 0) {
            slot = tb.add(g, t, v.partition());
        }
        Utf8Slice md = v.metadata();
        tb.setMetadata(slot, md.buffer(), md.offset(), md.length());
        tb.set(slot, v.partition(), v.offset(), v.leaderEpoch(), v.commitTimestamp(), v.expireTimestamp(),
                v.topicIdMostSignificantBits(), v.topicIdLeastSignificantBits(),
                offset, batchPosition, batchMaxTimestamp, fileIdx);
    }

    // ---------------------------------------------------------------- group records

    private Provenance here(long offset) {
        return new Provenance(file.path(), coordinatorPartition, offset, batchPosition, batchMaxTimestamp);
    }

    private void replayGroupRecord(Decoded d, long offset) {
        String groupId = d.ownerId();
        StructValue v = d.value();
        int type = d.recordType();
        GroupType kind = switch (type) {
            case 3, 4, 5, 6, 7, 8, 16 -> GroupType.CONSUMER;
            case 10, 11, 12, 13, 14, 15 -> GroupType.SHARE;
            default -> GroupType.STREAMS;
        };
        ReplayedGroup g = modernGroup(groupId, kind, v != null, offset);
        if (g == null) {
            return;
        }
        g.lastRecord = here(offset);
        String memberId = d.key().schema().indexOf("MemberId") >= 0 ? d.key().getString("MemberId") : null;
        switch (type) {
            case 3, 11, 17 -> {
                if (v != null) {
                    g.groupMetadata = v;
                    g.groupEpoch = v.getInt("Epoch");
                } else {
                    if (!g.members.isEmpty()) {
                        fail(offset, "Received a tombstone record to delete group " + groupId + " but the group still has "
                                + g.members.size() + " members.");
                    } else if (kind != GroupType.STREAMS && !g.targetAssignments.isEmpty()) {
                        fail(offset, "Received a tombstone record to delete group " + groupId
                                + " but the target assignment still has " + g.targetAssignments.size() + " members.");
                    } else if (g.assignmentEpoch != -1) {
                        fail(offset, "Received a tombstone record to delete group " + groupId
                                + " but did not receive the target assignment metadata tombstone.");
                    } else {
                        removeGroup(groupId);
                    }
                }
            }
            case 4 -> g.hasPartitionMetadata = v != null;
            case 5, 10, 19 -> {
                if (v != null) {
                    g.members.computeIfAbsent(memberId, id -> new Member(id, kind == GroupType.STREAMS ? 1 : 0)).metadata = v;
                } else {
                    Member m = g.members.get(memberId);
                    if (m == null) {
                        return;
                    }
                    if (m.memberEpoch != -1) {
                        fail(offset, "Received a tombstone record to delete member " + memberId
                                + " but did not receive the current member assignment tombstone.");
                    } else if (g.targetAssignments.containsKey(memberId)) {
                        fail(offset, "Received a tombstone record to delete member " + memberId
                                + " but did not receive the target assignment member tombstone.");
                    } else {
                        g.members.remove(memberId);
                    }
                }
            }
            case 6, 12, 20 -> {
                if (v != null) {
                    g.targetAssignmentMetadata = v;
                    g.assignmentEpoch = v.getInt("AssignmentEpoch");
                } else if (!g.targetAssignments.isEmpty()) {
                    fail(offset, "Received a tombstone record to delete target assignment of " + groupId
                            + " but the assignment still has " + g.targetAssignments.size() + " members.");
                } else {
                    g.targetAssignmentMetadata = null;
                    g.assignmentEpoch = -1;
                }
            }
            case 7, 13, 21 -> {
                if (v != null) {
                    g.targetAssignments.put(memberId, v);
                } else {
                    g.targetAssignments.remove(memberId);
                }
            }
            case 8, 14, 22 -> {
                if (v != null) {
                    Member m = g.members.computeIfAbsent(memberId, id -> new Member(id, kind == GroupType.STREAMS ? 1 : 0));
                    m.currentAssignment = v;
                    m.memberEpoch = v.getInt("MemberEpoch");
                    m.previousMemberEpoch = v.getInt("PreviousMemberEpoch");
                    m.state = ((Number) v.get("State")).intValue();
                } else {
                    Member m = g.members.get(memberId);
                    if (m != null) {
                        m.currentAssignment = null;
                        m.memberEpoch = -1;
                        m.previousMemberEpoch = -1;
                    }
                }
            }
            case 15 -> g.statePartitionMetadata = v;
            case 16 -> {
                String regex = d.key().getString("RegularExpression");
                if (v != null) {
                    g.regularExpressions.put(regex, v);
                } else {
                    g.regularExpressions.remove(regex);
                }
            }
            case 23 -> g.topology = v;
            default -> {
            }
        }
    }

    /** {@code GroupMetadataManager.replay(GroupMetadataKey, GroupMetadataValue)}: a value replaces the group, a tombstone removes it. */
    private void replayClassic(String groupId, RecordSchema schema, short version, ByteBuffer vb, int valueOffset,
                               int valueLength, long offset) {
        if (version == -1) {
            removeGroup(groupId);
            return;
        }
        ReplayedGroup g = new ReplayedGroup(groupId, GroupType.CLASSIC);
        byte[] value = new byte[valueLength - 2];
        vb.get(valueOffset + 2, value, 0, value.length);
        g.classicBytes = value;
        g.classicVersion = version;
        g.classicSchema = schema;
        g.lastRecord = here(offset);
        groups.put(groupId, g);
    }

    /**
     * {@code getOrMaybeCreatePersisted{Consumer,Share,Streams}Group}: a missing group is created
     * for a value and ignored for a tombstone; a simple classic group is replaced by a consumer or
     * streams group (tombstones included) and fails the load for share records; any other type
     * fails the load.
     */
    private ReplayedGroup modernGroup(String groupId, GroupType kind, boolean create, long offset) {
        ReplayedGroup g = groups.get(groupId);
        if (g == null) {
            if (!create) {
                return null;
            }
            g = new ReplayedGroup(groupId, kind);
            groups.put(groupId, g);
            return g;
        }
        if (g.type() == kind) {
            return g;
        }
        if (g.type() == GroupType.CLASSIC && g.isSimple() && kind != GroupType.SHARE) {
            g = new ReplayedGroup(groupId, kind);
            groups.put(groupId, g);
            return g;
        }
        fail(offset, "Group " + groupId + " is not a " + kind.display().toLowerCase() + " group");
        return null;
    }

    private void removeGroup(String groupId) {
        groups.remove(groupId);
        int g = groupIds.find(groupId);
        if (g >= 0) {
            groupKnown.clear(g);
        }
    }

    /** Pending offsets, for the result. */
    Iterator<Map.Entry<Long, Map<Key, CommittedOffset>>> pendingEntries() {
        return pending.entrySet().iterator();
    }
}
