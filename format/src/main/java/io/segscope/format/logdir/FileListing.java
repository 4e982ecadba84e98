package io.segscope.format.logdir;

import io.segscope.format.error.FormatException;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The files a {@link LogScanner} finds, as one list in reading order: for each log dir its
 * bootstrap snapshot, then per partition each segment's files (log, index, time index,
 * transaction index), the producer snapshots and the KRaft snapshots. A file named on its own is
 * always taken; from directories only the kinds asked for. Problems of names and orphans are
 * collected, not thrown.
 */
public final class FileListing implements LogScanner.Visitor {
    private static final FileKind[] SEGMENT_KINDS = {FileKind.LOG, FileKind.INDEX, FileKind.TIME_INDEX, FileKind.TXN_INDEX};

    private final Set<FileKind> kinds;
    private final List<LogFile> files = new ArrayList<>();
    private final List<LogDir> logDirs = new ArrayList<>();
    private final List<FormatException> problems = new ArrayList<>();

    /** @param kinds the kinds of file wanted from directories; {@link FileKind#LOG} brings KRaft snapshots too */
    public FileListing(Set<FileKind> kinds) {
        this.kinds = kinds;
    }

    public List<LogFile> files() {
        return files;
    }

    /** The broker log dirs found (for commands that read their checkpoints). */
    public List<LogDir> logDirs() {
        return logDirs;
    }

    /** Names that look like Kafka files but do not parse, orphan index files, and the like. */
    public List<FormatException> problems() {
        return problems;
    }

    @Override
    public void beginLogDir(LogDir dir, List<LogFile> rootFiles) {
        logDirs.add(dir);
        problems.addAll(dir.unrecognizedDirs());
        if (kinds.contains(FileKind.LOG)) {
            for (LogFile f : rootFiles) {
                if (f.kind() == FileKind.BOOTSTRAP_CHECKPOINT) {
                    files.add(f);
                }
            }
        }
    }

    @Override
    public void note(FormatException note) {
        problems.add(note);
    }

    @Override
    public void partition(PartitionDir partition, SegmentSet set, List<LogFile> otherFiles, Boolean cleanShutdown) {
        problems.addAll(set.problems());
        Optional<TopicPartitionName> name = partition.name().isLoose() ? Optional.empty() : Optional.of(partition.name());
        for (Segment s : set.segments()) {
            for (FileKind k : SEGMENT_KINDS) {
                if (kinds.contains(k)) {
                    s.file(k).ifPresent(f -> files.add(LogFile.classify(f, name)));
                }
            }
        }
        if (kinds.contains(FileKind.SNAPSHOT)) {
            for (SnapshotFile snap : set.snapshots()) {
                files.add(LogFile.classify(snap.file(), name));
            }
        }
        if (kinds.contains(FileKind.LOG)) {
            for (LogFile other : otherFiles) {
                if (other.kind() == FileKind.KRAFT_SNAPSHOT) {
                    files.add(other);
                }
            }
        }
    }

    @Override
    public void file(LogFile file, Segment segment) {
        files.add(file);
    }
}
