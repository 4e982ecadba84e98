package io.segscope.format.verify;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.DirStatus;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.FileStatus;
import io.segscope.format.logdir.Include;
import io.segscope.format.logdir.InputKind;
import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.logdir.Segment;
import io.segscope.format.logdir.SegmentFileName;
import io.segscope.format.logdir.SegmentSet;
import io.segscope.format.logdir.SnapshotFile;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.state.CleanShutdown;
import io.segscope.format.state.EpochEntry;
import io.segscope.format.state.LeaderEpochCheckpoint;
import io.segscope.format.state.MetaProperties;
import io.segscope.format.state.OffsetCheckpoint;
import io.segscope.format.state.PartitionMetadata;
import io.segscope.format.state.ProducerSnapshotReader;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Checks Kafka's on-disk data the way {@code DumpLogSegments --verify-index-only/--index-sanity-check}
 * and the broker's log recovery do, and more (see the kinds table in {@code package-info}):
 * a segment, a partition directory (segments in order, indexes, producer snapshots, leader-epoch
 * checkpoint, transient files) or a whole log directory (plus its checkpoints and markers).
 * Findings go to a {@link FindingSink} as they are made; {@link #stats()} counts what was read.
 *
 * <pre>
 * Verifier v = new Verifier(ReaderOptions.defaults(), finding -&gt; System.out.println(finding));
 * v.verify(FileEntry.of(Path.of("/var/lib/kafka/data")));
 * boolean clean = v.stats().isClean();
 * </pre>
 *
 * One instance per thread; it reuses its readers, so memory stays constant whatever the sizes.
 */
public final class Verifier {
    /** KRaft snapshots of {@code __cluster_metadata}: {@code <offset>-<epoch>.checkpoint}, made of record batches. */
    private static final Pattern KRAFT_SNAPSHOT = Pattern.compile("(\\d{20})-(\\d{10})\\.checkpoint");
    private static final int MAX_SEARCH_DEPTH = 4;

    private final Report report;
    private final SegmentVerifier segments;
    private final ProducerSnapshotReader snapshotReader = new ProducerSnapshotReader();

    public Verifier(ReaderOptions options, FindingSink sink) {
        this.report = new Report(sink);
        this.segments = new SegmentVerifier(report, options);
    }

    /** Collects the findings in a list. */
    public static List<Finding> verifyAll(FileEntry entry) {
        List<Finding> out = new ArrayList<>();
        Verifier v = new Verifier(ReaderOptions.defaults(), out::add);
        v.verify(entry);
        return out;
    }

    /** Sets who is told how far the run is (null for nobody). */
    public Verifier progress(ProgressListener listener) {
        report.progress = listener;
        return this;
    }

    public VerifyStats stats() {
        return report.stats;
    }

    /**
     * Verifies whatever {@code entry} is: a log dir, a partition dir, one file, or a directory
     * holding those a few levels down.
     *
     * @return false when nothing Kafka-like was found there
     */
    public boolean verify(FileEntry entry) {
        return verify(entry, 0);
    }

    private boolean verify(FileEntry entry, int depth) {
        switch (InputKind.detect(entry)) {
            case FILE -> {
                verifyFile(entry);
                return true;
            }
            case LOG_DIR -> {
                verifyLogDir(new LogDir(entry));
                return true;
            }
            case PARTITION_DIR -> {
                verifyPartition(PartitionDir.of(entry), null);
                return true;
            }
            default -> {
                if (depth >= MAX_SEARCH_DEPTH) {
                    return false;
                }
                boolean found = false;
                for (FileEntry child : entry.children()) {
                    if (child.isDirectory()) {
                        found |= verify(child, depth + 1);
                    }
                }
                return found;
            }
        }
    }

    /** A broker log dir: root files, then every partition dir (transient ones included, reported). */
    public void verifyLogDir(LogDir dir) {
        Boolean cleanShutdown = dir.cleanShutdown().isPresent();
        dir.cleanShutdown().ifPresent(f -> parse(f, CleanShutdown::read));
        if (!cleanShutdown && dir.metaProperties().isPresent()) {
            report.add(dir.root().path(), -1, Violation.UNCLEAN_SHUTDOWN, Severity.INFO, -1,
                    "no " + CleanShutdown.FILE_NAME + ": the broker did not shut down cleanly (or is running);"
                            + " it will recover the segments after the recovery point at start");
        }
        dir.metaProperties().ifPresent(f -> parse(f, MetaProperties::read));
        for (String name : OffsetCheckpoint.FILE_NAMES) {
            dir.file(name).ifPresent(f -> parse(f, OffsetCheckpoint::read));
        }
        for (FileEntry tmp : dir.leftoverTmpFiles()) {
            leftoverTmp(tmp);
        }
        for (FormatException e : dir.unrecognizedDirs()) {
            report.add(e, Severity.WARNING);
        }
        for (PartitionDir p : dir.partitions(Include.all())) {
            verifyPartition(p, cleanShutdown);
        }
    }

    /**
     * A partition dir.
     *
     * @param cleanShutdown whether its log dir has a clean-shutdown marker; null when unknown
     */
    public void verifyPartition(PartitionDir p, Boolean cleanShutdown) {
        if (p.status() != DirStatus.LIVE) {
            report.add(p.dir().path(), -1, Violation.TRANSIENT_FILE, Severity.INFO, -1,
                    "partition dir marked " + p.status().suffix() + "; Kafka " + switch (p.status()) {
                        case DELETE -> "deletes it";
                        case FUTURE -> "moves it into place when the intra-broker move completes";
                        default -> "leaves it alone (not assigned to this broker)";
                    });
        }
        SegmentSet set = p.segments(Include.all());
        for (FormatException e : set.problems()) {
            // an orphan .deleted index is normal: Kafka deletes the files of a deleted segment one by one
            report.add(e, e.violation() != Violation.ORPHAN_INDEX ? Severity.ERROR
                    : e.file().endsWith(FileStatus.DELETED.suffix()) ? Severity.INFO : Severity.WARNING);
        }
        for (FileEntry other : set.otherFiles()) {
            if (other.isDirectory()) {
                continue;
            }
            if (other.name().endsWith(".tmp")) {
                leftoverTmp(other);
            } else if (KRAFT_SNAPSHOT.matcher(other.name()).matches()) {
                segments.verify(other, -1, null, null, null, true, cleanShutdown, -1, null);
            }
        }
        List<Segment> live = new ArrayList<>();
        for (Segment s : set.segments()) {
            if (s.status() == FileStatus.LIVE) {
                live.add(s);
            } else {
                transientSegment(s);
            }
        }
        EpochTracker epochs = new EpochTracker();
        long prevLast = -1;
        int empty = 0;
        long firstEmpty = -1;
        boolean compacted = false;
        long logStart = -1;
        for (int i = 0; i < live.size(); i++) {
            Segment s = live.get(i);
            boolean active = i == live.size() - 1;
            SegmentVerifier.Result r = segments.verify(s.log().orElseThrow(), s.baseOffset(), s.index().orElse(null),
                    s.timeIndex().orElse(null), s.txnIndex().orElse(null), active, cleanShutdown, prevLast, epochs);
            compacted |= r.compacted();
            if (r.isEmpty() && r.readable()) {
                if (empty++ == 0) {
                    firstEmpty = s.baseOffset();
                }
                if (!active) {
                    report.add(s.log().get().path(), -1, Violation.EMPTY_SEGMENT, Severity.INFO, s.baseOffset(),
                            "no batches in a closed segment (left by the log cleaner or by retention)");
                }
            }
            if (r.lastOffset() >= 0) {
                prevLast = Math.max(prevLast, r.lastOffset());
                if (logStart < 0) {
                    logStart = r.firstOffset();
                }
            }
        }
        if (empty >= 2 && "__consumer_offsets".equals(p.topic())) {
            report.add(p.dir().path(), -1, Violation.EMPTY_SEGMENT, Severity.WARNING, firstEmpty,
                    empty + " empty segments in __consumer_offsets (the first at base offset " + firstEmpty + "): brokers"
                            + " before 2.4 loop forever loading such a partition (KAFKA-9065); the cleaner left them (KAFKA-12889)");
        }
        for (SnapshotFile snap : set.snapshots()) {
            if (snap.status() == FileStatus.LIVE) {
                verifySnapshot(snap.file());
            }
        }
        p.partitionMetadata().ifPresent(f -> parse(f, PartitionMetadata::read));
        Optional<FileEntry> epochFile = p.leaderEpochCheckpoint();
        if (epochFile.isPresent()) {
            List<EpochEntry> entries = parse(epochFile.get(), LeaderEpochCheckpoint::read);
            if (entries != null) {
                LeaderEpochCheck.check(report, epochFile.get().path(), entries, epochs, compacted, logStart, cleanShutdown);
            }
        }
    }

    private void transientSegment(Segment s) {
        FileEntry any = s.log().or(s::index).or(s::timeIndex).or(s::txnIndex).orElseThrow();
        if (s.status() == FileStatus.DELETED) {
            report.add(any.path(), -1, Violation.TRANSIENT_FILE, Severity.INFO, s.baseOffset(),
                    "segment scheduled for deletion; Kafka deletes .deleted files at load");
        } else {
            report.add(any.path(), -1, Violation.INCOMPLETE_CLEANER_OUTPUT, Severity.WARNING, s.baseOffset(),
                    s.status() == FileStatus.SWAP
                            ? ".swap segment: cleaner or split output that was about to replace older segments; Kafka completes the swap at load"
                            : ".cleaned segment: unfinished cleaner or split output; Kafka deletes it at load");
        }
        s.log().ifPresent(log -> segments.verify(log, s.baseOffset(), null, null, null, true, null, -1, null));
    }

    private void leftoverTmp(FileEntry tmp) {
        report.add(tmp.path(), -1, Violation.LEFTOVER_TMP, Severity.WARNING, -1,
                "a write that never completed (Kafka writes checkpoints to .tmp and renames); Kafka ignores it");
    }

    /** One file named on its own: a segment file, an index, a snapshot or a side file. */
    public void verifyFile(FileEntry f) {
        String name = f.name();
        Optional<SegmentFileName> parsed = SegmentFileName.parse(name);
        if (parsed.isPresent()) {
            SegmentFileName n = parsed.get();
            long base = n.baseOffset();
            switch (n.kind()) {
                case LOG -> segments.verify(f, base, null, null, null, true, null, -1, null);
                case SNAPSHOT -> verifySnapshot(f);
                default -> verifyLoneIndex(f, n.kind(), base);
            }
            return;
        }
        if (KRAFT_SNAPSHOT.matcher(name).matches()) {
            segments.verify(f, -1, null, null, null, true, null, -1, null);
        } else if (name.endsWith(".tmp")) {
            leftoverTmp(f);
        } else if (name.equals(CleanShutdown.FILE_NAME)) {
            parse(f, CleanShutdown::read);
        } else if (name.equals(MetaProperties.FILE_NAME)) {
            parse(f, MetaProperties::read);
        } else if (OffsetCheckpoint.FILE_NAMES.contains(name)) {
            parse(f, OffsetCheckpoint::read);
        } else if (name.equals(PartitionMetadata.FILE_NAME)) {
            parse(f, PartitionMetadata::read);
        } else if (name.equals(LeaderEpochCheckpoint.FILE_NAME)) {
            parse(f, LeaderEpochCheckpoint::read);
        }
    }

    /**
     * One segment: its .log with whichever of its index files are given (null when absent), as the
     * last segment of a partition whose shutdown state is unknown (a zero index tail is info).
     */
    public void verifySegment(FileEntry log, long baseOffset, FileEntry index, FileEntry timeIndex, FileEntry txnIndex) {
        segments.verify(log, baseOffset, index, timeIndex, txnIndex, true, null, -1, null);
    }

    private void verifyLoneIndex(FileEntry f, FileKind kind, long base) {
        // Without its .log only the file's own structure can be checked; a zero tail is reported as info.
        IndexCursors cursors = new IndexCursors(report, 10);
        cursors.open(kind == FileKind.INDEX ? f : null, kind == FileKind.TIME_INDEX ? f : null,
                kind == FileKind.TXN_INDEX ? f : null, base, true, null);
        cursors.close();
    }

    private void verifySnapshot(FileEntry f) {
        report.stats.files++;
        try (ByteSource source = f.open()) {
            snapshotReader.wrap(source);
            for (FormatException e : snapshotReader.findings()) {
                report.add(e, e.violation() == Violation.CRC_MISMATCH ? Severity.ERROR : Severity.WARNING);
            }
        } catch (FormatException e) {
            report.add(e, Severity.ERROR);
        }
    }

    /** Parses a small side file; a failure becomes an error finding and the result null. */
    private <T> T parse(FileEntry f, java.util.function.Function<ByteSource, T> reader) {
        report.stats.files++;
        try (ByteSource source = f.open()) {
            return reader.apply(source);
        } catch (FormatException e) {
            report.add(e, Severity.ERROR);
            return null;
        }
    }
}
