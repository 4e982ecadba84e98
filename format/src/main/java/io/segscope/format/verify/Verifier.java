package io.segscope.format.verify;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.DirStatus;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.FileStatus;
import io.segscope.format.logdir.Include;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.LogScanner;
import io.segscope.format.walk.ContentSniffer;
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
import java.nio.file.Path;

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

    private LogScanner sorted = new LogScanner(Include.all(), ContentSniffer.resolver(null));
    private LogScanner scanner = sorted;
    private java.util.Comparator<FileEntry> readOrder;
    private final Report report;
    private final SegmentVerifier segments;
    private final ProducerSnapshotReader snapshotReader = new ProducerSnapshotReader();
    private boolean reportIgnored;
    private PartitionListener partitionListener;

    /** Told after each partition dir is verified. */
    public interface PartitionListener {
        /**
         * @param partition the partition dir verified
         * @param errors errors found in it (its files and the partition's own checks)
         * @param warnings warnings found in it
         */
        void verified(PartitionDir partition, long errors, long warnings);
    }

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

    /** Reads every file named on its own as {@code kind}, whatever its name and content (null: by name, else content). */
    public Verifier as(FileKind kind) {
        sorted = new LogScanner(Include.all(), ContentSniffer.resolver(kind));
        scanner = readOrder == null ? sorted : sorted.withOrder(readOrder);
        return this;
    }

    /**
     * Whether files and dirs that the search passed over (not Kafka's: a README, a folder of
     * notes beside the log dir) are reported, at info. Off by default: on a file system they are
     * plain to see; an archive's reader may want to know what it held besides the data.
     */
    public Verifier reportIgnored(boolean on) {
        reportIgnored = on;
        return this;
    }

    /**
     * The order in which directories and the partitions of a log dir are verified: by name, topic
     * and partition (null, the default), or e.g. the order in which a stream holds them, so that
     * it is read in one pass. Each partition's checks are the same in any order.
     */
    public Verifier readOrder(java.util.Comparator<FileEntry> order) {
        readOrder = order;
        scanner = order == null ? sorted : sorted.withOrder(order);
        return this;
    }

    /** Adds a finding made outside the checks, e.g. by the reader of an archive that is cut short. */
    public void report(FormatException e, Severity severity) {
        report.add(e, severity);
    }

    /** Sets who is told of each partition dir verified and what was found in it (null for nobody). */
    public Verifier onPartition(PartitionListener listener) {
        partitionListener = listener;
        return this;
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
        return scanner.scan(entry, scanVisitor);
    }

    /**
     * Verifies a path of the file system; a {@code .log} named on its own is checked with the
     * index files beside it.
     *
     * @return false when nothing Kafka-like was found there
     */
    public boolean verify(Path path) {
        return scanner.scan(path, scanVisitor);
    }

    private final LogScanner.Visitor scanVisitor = new LogScanner.Visitor() {
        @Override
        public void beginLogDir(LogDir dir, List<LogFile> rootFiles) {
            verifyLogDirRoot(dir, rootFiles);
        }

        @Override
        public void partition(PartitionDir partition, SegmentSet segments, List<LogFile> otherFiles, Boolean cleanShutdown) {
            long errors = report.stats.findings(Severity.ERROR);
            long warnings = report.stats.findings(Severity.WARNING);
            verifyPartition(partition, segments, otherFiles, cleanShutdown);
            if (partitionListener != null) {
                partitionListener.verified(partition, report.stats.findings(Severity.ERROR) - errors,
                        report.stats.findings(Severity.WARNING) - warnings);
            }
        }

        @Override
        public void note(FormatException note) {
            report.add(note, Severity.INFO);
        }

        @Override
        public void file(LogFile file, Segment segment) {
            if (segment != null) {
                SegmentVerifier.Result r = segments.verify(segment.log().orElseThrow(), segment.baseOffset(),
                        new SegmentVerifier.Context(segment.index().orElse(null), segment.timeIndex().orElse(null),
                                segment.txnIndex().orElse(null), true, null, false, -1, -1, null)
                                .forTopic(file.topic().orElse(null)));
                emptyAlone(r, file);
            } else {
                verifyFile(file);
            }
        }

        @Override
        public void ignored(FileEntry entry) {
            if (reportIgnored) {
                Verifier.this.ignored(entry);
            }
        }
    };

    /** A file or dir that is not Kafka's, named with what it holds. */
    private void ignored(FileEntry entry) {
        if (!entry.isDirectory()) {
            report.add(entry.path(), -1, Violation.IGNORED, Severity.INFO, -1, "not Kafka data (" + entry.size()
                    + " bytes): ignored");
            return;
        }
        List<String> names = new ArrayList<>();
        long[] count = new long[1];
        collect(entry, entry.path().length() + 1, names, count);
        report.add(entry.path(), -1, Violation.IGNORED, Severity.INFO, -1, "no Kafka data in this directory: ignored ("
                + count[0] + (count[0] == 1 ? " file" : " files") + (names.isEmpty() ? "" : ": " + String.join(", ", names)
                + (count[0] > names.size() ? ", ..." : "")) + ")");
    }

    /**
     * Counts the files below {@code dir} and names the first ten, depth first in name order,
     * without recursion: an archive's dirs may nest tens of thousands deep.
     */
    private static void collect(FileEntry dir, int prefix, List<String> names, long[] count) {
        java.util.ArrayDeque<java.util.Iterator<FileEntry>> open = new java.util.ArrayDeque<>();
        open.push(dir.children().iterator());
        while (!open.isEmpty()) {
            java.util.Iterator<FileEntry> it = open.peek();
            if (!it.hasNext()) {
                open.pop();
                continue;
            }
            FileEntry e = it.next();
            if (e.isDirectory()) {
                open.push(e.children().iterator());
            } else {
                count[0]++;
                if (names.size() < 10) {
                    names.add(e.path().length() > prefix ? e.path().substring(prefix) : e.name());
                }
            }
        }
    }

    /** A broker log dir's root files; its partition dirs follow (transient ones included, reported). */
    private void verifyLogDirRoot(LogDir dir, List<LogFile> rootFiles) {
        Boolean cleanShutdown = dir.cleanShutdown().isPresent();
        dir.cleanShutdown().ifPresent(f -> parse(f, CleanShutdown::read));
        if (!cleanShutdown && dir.metaProperties().isPresent()) {
            report.add(dir.root().path(), -1, Violation.UNCLEAN_SHUTDOWN, Severity.INFO, -1,
                    "no " + CleanShutdown.FILE_NAME + ": the broker did not shut down cleanly (or is running);"
                            + " it will recover the segments after the recovery point at start", true);
        }
        dir.metaProperties().ifPresent(f -> parse(f, MetaProperties::read));
        for (LogFile f : rootFiles) {
            if (f.kind() == FileKind.OFFSET_CHECKPOINT) {
                parse(f.file(), OffsetCheckpoint::read);
            }
        }
        for (LogFile f : rootFiles) {
            if (f.kind() == FileKind.TMP) {
                leftoverTmp(f.file());
            } else if (f.kind() == FileKind.BOOTSTRAP_CHECKPOINT) {
                segments.verify(f.file(), -1, SegmentVerifier.Context.alone(cleanShutdown));
            }
        }
        for (FormatException e : dir.unrecognizedDirs()) {
            report.add(e, Severity.WARNING);
        }
    }

    /**
     * A partition dir.
     *
     * @param cleanShutdown whether its log dir has a clean-shutdown marker; null when unknown
     */
    private void verifyPartition(PartitionDir p, SegmentSet set, List<LogFile> otherFiles, Boolean cleanShutdown) {
        if (p.status() != DirStatus.LIVE) {
            report.add(p.dir().path(), -1, Violation.TRANSIENT_FILE, Severity.INFO, -1,
                    "partition dir marked " + p.status().suffix() + "; Kafka " + switch (p.status()) {
                        case DELETE -> "deletes it";
                        case FUTURE -> "moves it into place when the intra-broker move completes";
                        default -> "leaves it alone (not assigned to this broker)";
                    });
        }
        for (FormatException e : set.problems()) {
            // an orphan .deleted index is normal: Kafka deletes the files of a deleted segment one by one
            report.add(e, e.violation() != Violation.ORPHAN_INDEX ? Severity.ERROR
                    : e.file().endsWith(FileStatus.DELETED.suffix()) ? Severity.INFO : Severity.WARNING);
        }
        for (LogFile other : otherFiles) {
            if (other.kind() == FileKind.TMP) {
                leftoverTmp(other.file());
            } else if (other.kind() == FileKind.KRAFT_SNAPSHOT) {
                segments.verify(other.file(), -1, SegmentVerifier.Context.alone(cleanShutdown));
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
            SegmentVerifier.Result r = segments.verify(s.log().orElseThrow(), s.baseOffset(), new SegmentVerifier.Context(
                    s.index().orElse(null), s.timeIndex().orElse(null), s.txnIndex().orElse(null), active, cleanShutdown,
                    p.name().isMetadataLog(), prevLast, active ? -1 : live.get(i + 1).baseOffset(), epochs)
                    .forTopic(p.name().topic()));
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
                            : ".cleaned segment: unfinished cleaner or split output; Kafka deletes it at load", true);
        }
        s.log().ifPresent(log -> segments.verify(log, s.baseOffset(), SegmentVerifier.Context.ALONE));
    }

    private void leftoverTmp(FileEntry tmp) {
        report.add(tmp.path(), -1, Violation.LEFTOVER_TMP, Severity.WARNING, -1,
                "a write that never completed (Kafka writes checkpoints to .tmp and renames); Kafka ignores it", true);
    }

    /** A segment named on its own with no batch: nothing was verified, which must not look like a clean bill. */
    private void emptyAlone(SegmentVerifier.Result r, LogFile f) {
        if (r.readable() && r.isEmpty()) {
            report.add(f.path(), -1, Violation.EMPTY_SEGMENT, Severity.WARNING, f.baseOffset(),
                    "no batches: nothing to verify (a segment just rolled is empty in its partition;"
                            + " named on its own, an empty file is more likely a copy that failed)");
        }
    }

    /** One file named on its own: a segment file, an index, a snapshot or a side file. */
    private void verifyFile(LogFile f) {
        FileEntry e = f.file();
        switch (f.kind()) {
            case LOG -> emptyAlone(segments.verify(e, f.baseOffset(),
                    SegmentVerifier.Context.ALONE.forTopic(f.topic().orElse(null))), f);
            case KRAFT_SNAPSHOT, BOOTSTRAP_CHECKPOINT -> segments.verify(e, -1, SegmentVerifier.Context.ALONE);
            case SNAPSHOT -> verifySnapshot(e);
            case INDEX, TIME_INDEX, TXN_INDEX -> verifyLoneIndex(e, f.kind(), f.baseOffset());
            case TMP -> leftoverTmp(e);
            case CLEAN_SHUTDOWN -> parse(e, CleanShutdown::read);
            case META_PROPERTIES -> parse(e, MetaProperties::read);
            case OFFSET_CHECKPOINT -> parse(e, OffsetCheckpoint::read);
            case PARTITION_METADATA -> parse(e, PartitionMetadata::read);
            case LEADER_EPOCH_CHECKPOINT -> parse(e, LeaderEpochCheckpoint::read);
            default -> report.add(e.path(), -1, Violation.UNRECOGNIZED_FILE, Severity.ERROR, -1,
                    "not a Kafka file by its name or its content; nothing was checked (name its kind with --as)");
        }
    }

    private void verifyLoneIndex(FileEntry f, FileKind kind, long base) {
        // Without its .log only the file's own structure can be checked; a zero tail is reported as info.
        IndexCursors cursors = new IndexCursors(report, 10);
        cursors.open(kind == FileKind.INDEX ? f : null, kind == FileKind.TIME_INDEX ? f : null,
                kind == FileKind.TXN_INDEX ? f : null, base, true, null, false);
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
