package io.segscope.format.compact;

import io.segscope.format.record.ReaderOptions;
import io.segscope.format.write.SegmentWriter;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Compacts one partition directory offline as Kafka 4.4.0's log cleaner would (docs/format.md §4):
 * the same passes (rounds), segment groups, records, batches, delete horizons, empty batches and
 * {@code .txnindex}, byte for byte, for the same settings and clock.
 *
 * <pre>{@code
 * CompactResult r = Compactor.compact(Path.of("/data/__consumer_offsets-7"), CompactSettings.defaults(now), outDir);
 * // outDir/__consumer_offsets-7: cleaned segments, the segments past the cleaned section and the side files
 * CompactStats s = Compactor.dryRun(partitionDir, settings).stats();   // the same figures, nothing written
 * }</pre>
 *
 * Each pass follows {@code Cleaner.doClean}: build the key map over the dirty section [first dirty
 * offset, first uncleanable offset) until it is full; regroup every segment below the map's end
 * (the clean prefix too) by {@code segment.bytes} and {@code segment.index.bytes}; rewrite each
 * group into one segment; continue from the map's end until nothing is dirty. The input is only
 * read (mapped read-only); the output is built under a temporary name beside its final one and
 * renamed into place once complete, so an interrupted run leaves nothing under the final name.
 */
public final class Compactor {
    private static final Pattern SEGMENT = Pattern.compile("(\\d{20})\\.log");
    private static final String[] SEGMENT_SUFFIXES = {".log", ".index", ".timeindex", ".txnindex"};

    private final Path input;
    private final CompactSettings settings;
    private final ReaderOptions options;
    private final Path work;
    private final boolean dryRun;
    private final List<SourceSegment> inputs = new ArrayList<>();
    private List<SourceSegment> log = new ArrayList<>();
    private long logStartOffset;
    private long activeBaseOffset;
    private final List<CompactStats.Round> rounds = new ArrayList<>();
    /** Segments after the last pass when it was not written (a dry run), else -1. */
    private int projectedSegments = -1;

    private Compactor(Path input, CompactSettings settings, Path work, boolean dryRun) {
        this.input = input;
        this.settings = settings;
        this.options = ReaderOptions.defaults();
        this.work = work;
        this.dryRun = dryRun;
    }

    /**
     * Compacts {@code partitionDir} into a new directory of the same name under {@code outDir}, which
     * must not exist yet.
     */
    public static CompactResult compact(Path partitionDir, CompactSettings settings, Path outDir) throws IOException {
        return compact(partitionDir, settings, outDir, false);
    }

    /**
     * {@link #compact(Path, CompactSettings, Path)}; with {@code replace}, an output partition of the
     * same name is replaced once the new one is complete (never before: an interrupted run leaves
     * the old one as it was).
     */
    public static CompactResult compact(Path partitionDir, CompactSettings settings, Path outDir, boolean replace)
            throws IOException {
        return intoNewDir(partitionDir, settings, outDir, ".compacting-", replace, c -> {
            CompactStats stats = c.run();
            c.assemble();
            return stats;
        });
    }

    /** Writes one partition dir's output. */
    private interface Output {
        CompactStats write(Compactor c) throws IOException;
    }

    /**
     * Runs {@code output} into a temporary dir under {@code outDir} (never inside the input), renamed
     * to the partition's name when complete, deleted when not.
     */
    private static CompactResult intoNewDir(Path partitionDir, CompactSettings settings, Path outDir, String suffix,
                                            boolean replace, Output output) throws IOException {
        Path in = partitionDir.toRealPath();
        Path out = outsideInput(in, outDir);
        Path target = out.resolve(in.getFileName());
        if (!replace && Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(target.toString(), null, "the output partition exists already");
        }
        Path work = Files.createTempDirectory(out, "." + in.getFileName() + suffix);
        boolean ok = false;
        try {
            Compactor c = new Compactor(in, settings, work, false);
            CompactStats stats = output.write(c);
            if (replace && Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                // the old output out of the way under a temporary name, the new one in, the old one gone
                Path old = Files.createTempDirectory(out, "." + in.getFileName() + ".replaced-");
                Files.delete(old);
                Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
                Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
                deleteTree(old);
            } else {
                Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
            }
            ok = true;
            return new CompactResult(java.util.Optional.of(target), stats, c.inputDamage());
        } finally {
            if (!ok) {
                deleteTree(work);
            }
        }
    }

    /**
     * The figures {@link #compact} would report, writing no output: the last pass only counts; earlier
     * passes (when the key map fills) need their segments for the next one and write them to a
     * temporary directory that is deleted before returning.
     */
    public static CompactResult dryRun(Path partitionDir, CompactSettings settings) throws IOException {
        Path in = partitionDir.toRealPath();
        Path work = Files.createTempDirectory("segscope-compact-");
        try {
            Compactor c = new Compactor(in, settings, work, true);
            CompactStats stats = c.run();
            return new CompactResult(java.util.Optional.empty(), stats, c.inputDamage());
        } finally {
            deleteTree(work);
        }
    }

    /**
     * Writes under {@code outDir} the smallest partition a coordinator loads into the same state: the
     * latest record of each key when it has a value, committed data only, no markers (see
     * {@code CoordinatorSnapshot}); the settings give segment.bytes and index.interval.bytes. Not
     * Kafka's cleaner output.
     */
    public static CompactResult snapshot(Path partitionDir, CompactSettings settings, Path outDir) throws IOException {
        return snapshot(partitionDir, settings, outDir, false);
    }

    /** {@link #snapshot(Path, CompactSettings, Path)}, replacing an existing output as {@link #compact(Path, CompactSettings, Path, boolean)} does. */
    public static CompactResult snapshot(Path partitionDir, CompactSettings settings, Path outDir, boolean replace)
            throws IOException {
        return intoNewDir(partitionDir, settings, outDir, ".snapshot-", replace, c -> {
            Path in = c.input;
            Path work = c.work;
            ProducerReplay replay = c.scan();
            long logEnd = c.log.isEmpty() ? 0 : c.log.get(c.log.size() - 1).nextOffset;
            CompactStats.Round round = new CoordinatorSnapshot(c.log, replay, settings).write(work, in);
            for (SourceSegment s : c.inputs) {
                s.close();
            }
            for (String side : List.of("partition.metadata", "leader-epoch-checkpoint")) {
                if (Files.isRegularFile(in.resolve(side))) {
                    Files.copy(in.resolve(side), work.resolve(side), StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
            int segmentsOut;
            try (Stream<Path> s = Files.list(work)) {
                segmentsOut = (int) s.filter(p -> SEGMENT.matcher(p.getFileName().toString()).matches()).count();
            }
            return new CompactStats(List.of(round), logEnd, logEnd, replay.lastStableOffset(logEnd), 0,
                    logEnd, c.inputs.size(), segmentsOut);
        });
    }

    /**
     * What a broker's cleaner would decide about {@code partitionDir} with these settings (its
     * {@code now}, {@code firstDirtyOffset} as the cleaner checkpoint, high watermark, lags and
     * {@code cleanUpTo}), reading the partition without cleaning it.
     */
    public static CleanerDecision decide(Path partitionDir, CompactSettings settings) throws IOException {
        Compactor c = new Compactor(partitionDir.toRealPath(), settings, null, true);
        try {
            ProducerReplay replay = c.scan();
            List<SourceSegment> log = c.log;
            long logEnd = log.isEmpty() ? 0 : log.get(log.size() - 1).nextOffset;
            long hw = settings.highWatermark() < 0 ? logEnd : Math.min(settings.highWatermark(), logEnd);
            long lso = replay.lastStableOffset(hw);
            c.logStartOffset = log.isEmpty() ? 0 : log.get(0).baseOffset;
            boolean rolled = settings.cleanUpTo() >= logEnd;
            c.activeBaseOffset = rolled ? logEnd : log.isEmpty() ? 0 : log.get(log.size() - 1).baseOffset;
            long checkpoint = settings.firstDirtyOffset();
            long firstDirty = checkpoint < 0 ? c.logStartOffset : checkpoint;
            boolean reset = false;
            if (firstDirty < c.logStartOffset || firstDirty > logEnd) {
                firstDirty = c.logStartOffset;
                reset = checkpoint >= 0;
            }
            long firstUncleanable = c.firstUncleanable(firstDirty, lso);
            long cleanBytes = c.bytes(c.logStartOffset, Math.max(c.logStartOffset, firstDirty));
            long cleanableBytes = c.bytes(Math.min(firstDirty, firstUncleanable), firstUncleanable);
            // LogCleanerManager.maxCompactionDelay: the earliest first-batch timestamp of the dirty non-active segments
            long earliest = Long.MAX_VALUE;
            for (SourceSegment s : c.nonActiveFrom(firstDirty)) {
                if (s.firstBatchTimestamp > 0) {
                    earliest = Math.min(earliest, s.firstBatchTimestamp);
                }
            }
            long cleanUntil = settings.now() - Math.max(settings.maxCompactionLagMs(), 0L);
            long delay = earliest < cleanUntil ? cleanUntil - earliest : 0L;
            long logBytes = 0;
            for (SourceSegment s : log) {
                logBytes += s.size;
            }
            return new CleanerDecision(c.logStartOffset, logEnd, logBytes, hw, lso, checkpoint, reset, firstDirty, firstUncleanable,
                    cleanBytes, cleanableBytes, delay);
        } finally {
            for (SourceSegment s : c.inputs) {
                s.close();
            }
        }
    }

    /**
     * Creates {@code outDir} (and its parents) unless it is, or would be, inside {@code in}: checked
     * on the real path of its nearest existing ancestor before anything is created.
     */
    static Path outsideInput(Path in, Path outDir) throws IOException {
        Path real = realPath(outDir);
        if (real.startsWith(in)) {
            throw new IllegalArgumentException("refusing to write into the input " + in);
        }
        Files.createDirectories(real);
        return real.toRealPath();
    }

    /**
     * The real path {@code path} has or would have once created: its nearest existing ancestor's
     * real path (links resolved) with the rest appended. Tells whether an output dir would land
     * inside an input before anything is created.
     */
    public static Path realPath(Path path) throws IOException {
        Path abs = path.toAbsolutePath().normalize();
        Path existing = abs;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        return existing == null ? abs : existing.toRealPath().resolve(existing.relativize(abs));
    }

    /** The input segments not read to their end (see {@link CompactResult#inputDamage()}). */
    private List<io.segscope.format.error.Problem> inputDamage() {
        List<io.segscope.format.error.Problem> out = new ArrayList<>();
        for (SourceSegment s : inputs) {
            if (s.badCrcPosition >= 0) {
                out.add(io.segscope.format.error.Problem.of(io.segscope.format.error.Violation.CRC_MISMATCH,
                        s.log.toString(), s.badCrcPosition, -1, "the batch of offsets " + s.badCrcOffsets
                                + " has a wrong CRC: Kafka's log recovery (after an unclean shutdown) would truncate the"
                                + " segment there; it was compacted as read, as Kafka's cleaner would (segscope verify"
                                + " tells more)"));
            }
            if (s.tail == null) {
                continue;
            }
            boolean zeros = s.tail.kind() == io.segscope.format.record.Tail.Kind.ZERO_FILL;
            out.add(io.segscope.format.error.Problem.of(
                    zeros ? io.segscope.format.error.Violation.ZERO_TAIL : io.segscope.format.error.Violation.TRUNCATED,
                    s.log.toString(), s.tail.validBytes(), -1,
                    s.tail.tailBytes() + " bytes from position " + s.tail.validBytes() + " were not read ("
                            + (zeros ? "zero-filled, as a crash leaves a preallocated file"
                                    : "a torn or damaged batch")
                            + "): Kafka's log recovery would truncate the segment there, and the output holds only"
                            + " what comes before (segscope verify tells more)"));
        }
        return out;
    }

    // ---------------------------------------------------------------- the passes

    /** Maps every input segment and replays the producers. */
    private ProducerReplay scan() throws IOException {
        List<Path> logs;
        try (Stream<Path> s = Files.list(input)) {
            logs = s.filter(p -> SEGMENT.matcher(p.getFileName().toString()).matches()).sorted().toList();
        }
        ProducerReplay replay = new ProducerReplay();
        for (Path p : logs) {
            Matcher m = SEGMENT.matcher(p.getFileName().toString());
            m.matches();
            long base = Long.parseLong(m.group(1));
            Path txnIndex = p.resolveSibling(m.group(1) + ".txnindex");
            SourceSegment seg = new SourceSegment(base, p, txnIndex, false);
            seg.open(settings.indexIntervalBytes(), options, replay);
            List<AbortedTxn> rebuilt = replay.takeAborted();
            if (!Files.exists(txnIndex)) {
                // no .txnindex (a partition not written by a broker, or copied without them): the aborted
                // transactions as Kafka's recovery rebuilds them, so that their data is still removed
                seg.abortedTxns = rebuilt;
            }
            inputs.add(seg);
        }
        log = new ArrayList<>(inputs);
        return replay;
    }

    private CompactStats run() throws IOException {
        ProducerReplay replay = scan();
        long logEnd = log.isEmpty() ? 0 : log.get(log.size() - 1).nextOffset;
        long hw = settings.highWatermark() < 0 ? logEnd : Math.min(settings.highWatermark(), logEnd);
        Map<Long, CompactSettings.LastRecord> producers = settings.producers() != null
                ? settings.producers() : replay.active(settings.now(), settings.producerIdExpirationMs());
        long lso = replay.lastStableOffset(hw);
        logStartOffset = log.isEmpty() ? 0 : log.get(0).baseOffset;
        boolean rolled = settings.cleanUpTo() >= logEnd;
        activeBaseOffset = rolled ? logEnd : log.isEmpty() ? 0 : log.get(log.size() - 1).baseOffset;
        long firstDirty = settings.firstDirtyOffset() < 0 ? logStartOffset : settings.firstDirtyOffset();
        if (firstDirty < logStartOffset || firstDirty > logEnd) {
            firstDirty = logStartOffset;   // LogCleanerManager.cleanableOffsets resets a checkpoint out of range
        }

        KeyOffsetMap map = new KeyOffsetMap(settings.mapMemory());
        SegmentCleaner cleaner = new SegmentCleaner(settings, map, options, hw, producers);
        long checkpoint = -1L;
        int segmentsIn = log.size();
        while (!log.isEmpty()) {
            long firstUncleanable = firstUncleanable(firstDirty, lso);
            long cleanableBytes = bytes(Math.min(firstDirty, firstUncleanable), firstUncleanable);
            if (cleanableBytes == 0) {
                break;
            }
            long endOffset = round(map, cleaner, firstDirty, firstUncleanable);
            checkpoint = endOffset;
            firstDirty = endOffset;
            if (dryRun && endOffset >= firstUncleanable) {
                break;   // the last pass wrote nothing, so there is nothing more to look at
            }
        }
        CompactStats stats = new CompactStats(List.copyOf(rounds), logEnd, hw, lso, producers.size(), checkpoint,
                segmentsIn, projectedSegments >= 0 ? projectedSegments : log.size());
        return stats;
    }

    /**
     * {@code LogCleanerManager.cleanableOffsets}: the end of the dirty section from {@code firstDirty}
     * (the last stable offset, the active segment, {@code cleanUpTo}, the first segment newer than the
     * minimum compaction lag), rounded down to a segment boundary.
     */
    private long firstUncleanable(long firstDirty, long lso) {
        long uncleanable = Math.min(lso, activeBaseOffset);
        if (settings.cleanUpTo() >= 0) {
            uncleanable = Math.min(uncleanable, settings.cleanUpTo());
        }
        if (settings.minCompactionLagMs() > 0) {
            for (SourceSegment s : nonActiveFrom(firstDirty)) {
                if (s.largestTimestamp > settings.now() - settings.minCompactionLagMs()) {
                    uncleanable = Math.min(uncleanable, s.baseOffset);
                    break;
                }
            }
        }
        uncleanable = Math.max(firstDirty, uncleanable);
        List<SourceSegment> nonActive = nonActiveFrom(uncleanable);
        return nonActive.isEmpty() ? activeBaseOffset : nonActive.get(0).baseOffset;
    }

    /** The bytes of the segments holding offsets in [from, to). */
    private long bytes(long from, long to) {
        long n = 0;
        for (SourceSegment s : segments(from, to)) {
            n += s.size;
        }
        return n;
    }

    /** One {@code Cleaner.doClean}; returns the end offset (the next first dirty offset). */
    private long round(KeyOffsetMap map, SegmentCleaner cleaner, long firstDirty, long firstUncleanable)
            throws IOException {
        Counters c = new Counters();
        long t0 = System.nanoTime();
        List<SourceSegment> clean = segments(0, firstDirty);
        long legacyDeleteHorizonMs = clean.isEmpty() ? 0L
                : clean.get(clean.size() - 1).lastModifiedMs - settings.deleteRetentionMs();

        map.clear();
        cleaner.startRound(firstDirty);
        List<SourceSegment> dirty = segments(firstDirty, firstUncleanable);
        TxnTracker mapTxns = new TxnTracker();
        mapTxns.addAborted(collectAbortedTxns(firstDirty, firstUncleanable));
        for (int i = 0; i < dirty.size(); i++) {
            long next = i + 1 < dirty.size() ? dirty.get(i + 1).baseOffset : firstUncleanable;
            if (cleaner.mapSegment(dirty.get(i), firstDirty, next, mapTxns, c)) {
                break;
            }
        }
        long endOffset = map.latestOffset() + 1;
        long t1 = System.nanoTime();

        List<List<SourceSegment>> groups = groupBySize(segments(0, endOffset), firstUncleanable);
        boolean lastPass = endOffset >= firstUncleanable;
        boolean write = !(dryRun && lastPass);
        Path dir = work.resolve("round-" + rounds.size());
        if (write) {
            Files.createDirectories(dir);
        }
        TxnTracker txns = new TxnTracker();
        List<SourceSegment> cleaned = new ArrayList<>();
        int replaced = 0;
        for (List<SourceSegment> group : groups) {
            SegmentWriter writer = write
                    ? SegmentWriter.open(dir, group.get(0).baseOffset, settings.indexIntervalBytes(), List.of(input))
                    : null;
            boolean ok = false;
            try {
                CleanedOutput out = writer == null ? CleanedOutput.DISCARD : CleanedOutput.of(writer);
                txns.cleanedIndex(out);
                for (int j = 0; j < group.size(); j++) {
                    SourceSegment seg = group.get(j);
                    long upper = j + 1 < group.size() ? group.get(j + 1).baseOffset : seg.nextOffset;
                    txns.addAborted(collectAbortedTxns(seg.baseOffset, upper));
                    boolean retainLegacyDeletes = seg.lastModifiedMs > legacyDeleteHorizonMs;
                    cleaner.cleanInto(seg, out, txns, retainLegacyDeletes, c);
                }
                if (writer != null) {
                    writer.lastModified(FileTime.fromMillis(group.get(group.size() - 1).lastModifiedMs));
                    writer.close();
                    SourceSegment s = new SourceSegment(group.get(0).baseOffset, writer.files().get(0),
                            writer.files().get(3), true);
                    s.open(settings.indexIntervalBytes(), options, null);
                    cleaned.add(s);
                }
                ok = true;
            } finally {
                if (!ok && writer != null) {
                    writer.abort();
                }
            }
            replaced += group.size();
        }
        long t2 = System.nanoTime();
        rounds.add(new CompactStats.Round(firstDirty, firstUncleanable, endOffset, replaced, groups.size(),
                c.mapBytesRead, c.mapMessagesRead, c.bytesRead, c.bytesWritten, c.messagesRead, c.messagesWritten,
                c.invalidMessages, map.slots(), map.size(), map.utilization(), c.batchesCopied, c.batchesRebuilt,
                c.emptyBatchesWritten, c.batchesDropped, t1 - t0, t2 - t1));

        if (!write) {
            projectedSegments = groups.size() + log.size() - replaced;
        } else {
            List<SourceSegment> next = new ArrayList<>(cleaned);
            for (int i = 0; i < log.size(); i++) {
                SourceSegment s = log.get(i);
                if (i < replaced) {
                    s.close();
                    if (s.written) {
                        for (String suffix : SEGMENT_SUFFIXES) {
                            Files.deleteIfExists(s.log.resolveSibling(name(s.baseOffset) + suffix));
                        }
                    }
                } else {
                    next.add(s);
                }
            }
            log = next;
        }
        return endOffset;
    }

    /** Kafka's {@code groupSegmentsBySize}. */
    private List<List<SourceSegment>> groupBySize(List<SourceSegment> segs, long firstUncleanable) {
        List<List<SourceSegment>> groups = new ArrayList<>();
        int i = 0;
        while (i < segs.size()) {
            SourceSegment first = segs.get(i);
            List<SourceSegment> group = new ArrayList<>();
            group.add(first);
            long logSize = first.size;
            long indexSize = first.offsetIndexBytes();
            long timeIndexSize = first.timeIndexBytes();
            int j = i + 1;
            while (j < segs.size()) {
                SourceSegment s = segs.get(j);
                long lastOffset = j + 1 < segs.size() ? segs.get(j + 1).baseOffset - 1 : firstUncleanable - 1;
                if (logSize + s.size > settings.segmentBytes()
                        || indexSize + s.offsetIndexBytes() > settings.maxIndexBytes()
                        || timeIndexSize + s.timeIndexBytes() > settings.maxIndexBytes()
                        || (s.size != 0 && lastOffset - first.baseOffset > Integer.MAX_VALUE)) {
                    break;
                }
                group.add(s);
                logSize += s.size;
                indexSize += s.offsetIndexBytes();
                timeIndexSize += s.timeIndexBytes();
                j++;
            }
            groups.add(group);
            i = j;
        }
        return groups;
    }

    /** Kafka's {@code LogSegments.values(from, to)}: from the segment holding {@code from} to those below {@code to}. */
    private List<SourceSegment> segments(long from, long to) {
        List<SourceSegment> out = new ArrayList<>();
        if (from == to) {
            return out;
        }
        if (to < from) {
            throw new IllegalArgumentException("Invalid log segment range: from " + from + " to " + to);
        }
        long floor = Long.MIN_VALUE;
        for (SourceSegment s : log) {
            if (s.baseOffset <= from) {
                floor = s.baseOffset;
            }
        }
        for (SourceSegment s : log) {
            if (s.baseOffset >= floor && s.baseOffset < to) {
                out.add(s);
            }
        }
        return out;
    }

    private List<SourceSegment> nonActiveFrom(long from) {
        return from > activeBaseOffset ? List.of() : segments(from, activeBaseOffset);
    }

    /**
     * Kafka's {@code LocalLog.collectAbortedTransactions(logStartOffset, base, upper)}: from the segment
     * holding {@code base} on, the entries ending at or after the log start offset and starting below
     * {@code upper}, until an entry's last stable offset reaches {@code upper}.
     */
    private List<AbortedTxn> collectAbortedTxns(long base, long upper) {
        List<AbortedTxn> out = new ArrayList<>();
        long floor = Long.MIN_VALUE;
        for (SourceSegment s : log) {
            if (s.baseOffset <= base) {
                floor = s.baseOffset;
            }
        }
        if (floor == Long.MIN_VALUE) {
            return out;
        }
        for (SourceSegment s : log) {
            if (s.baseOffset < floor) {
                continue;
            }
            for (AbortedTxn t : s.abortedTxns) {
                if (t.lastOffset() >= logStartOffset && t.firstOffset() < upper) {
                    out.add(t);
                }
                if (t.lastStableOffset() >= upper) {
                    return out;
                }
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- the output directory

    /** Moves the last pass's segments into the work dir and copies what was not cleaned. */
    private void assemble() throws IOException {
        List<Long> kept = new ArrayList<>();
        for (SourceSegment s : log) {
            if (s.written) {
                for (String suffix : SEGMENT_SUFFIXES) {
                    Path f = s.log.resolveSibling(name(s.baseOffset) + suffix);
                    if (Files.exists(f)) {
                        Files.move(f, work.resolve(f.getFileName()), StandardCopyOption.ATOMIC_MOVE);
                    }
                }
            } else {
                kept.add(s.baseOffset);
            }
            s.close();
        }
        for (SourceSegment s : inputs) {
            s.close();
        }
        try (Stream<Path> files = Files.list(input)) {
            for (Path f : files.sorted().toList()) {
                if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                String n = f.getFileName().toString();
                if (n.endsWith(".deleted") || n.endsWith(".cleaned") || n.endsWith(".swap")) {
                    continue;
                }
                Long base = segmentBase(n);
                if (base != null && !kept.contains(base)) {
                    continue;   // replaced by a cleaned segment
                }
                Files.copy(f, work.resolve(n), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        try (Stream<Path> dirs = Files.list(work)) {
            for (Path d : dirs.filter(Files::isDirectory).toList()) {
                deleteTree(d);
            }
        }
    }

    private static Long segmentBase(String fileName) {
        for (String suffix : SEGMENT_SUFFIXES) {
            if (fileName.endsWith(suffix) && fileName.length() == 20 + suffix.length()) {
                String digits = fileName.substring(0, 20);
                if (digits.chars().allMatch(Character::isDigit)) {
                    return Long.parseLong(digits);
                }
            }
        }
        return null;
    }

    private static String name(long baseOffset) {
        return String.format("%020d", baseOffset);
    }

    private static void deleteTree(Path root) throws IOException {
        io.segscope.format.logdir.Copies.deleteTree(root);
    }
}
