package io.segscope.inspector.input;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.Include;
import io.segscope.format.logdir.InputKind;
import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.logdir.Segment;
import io.segscope.format.logdir.SegmentFileName;
import io.segscope.format.logdir.SegmentSet;
import io.segscope.format.logdir.SnapshotFile;
import io.segscope.format.logdir.TopicPartitionName;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns the PATHs a person gives into the files to read: a segment or side file, a partition
 * dir, a whole broker log dir, several of them, or an archive holding any of these (read in
 * place). Partitions come sorted by topic and partition, segments by base offset.
 */
public final class Inputs implements AutoCloseable {
    /** KRaft snapshots: {@code <20-digit offset>-<10-digit epoch>.checkpoint}. */
    public static final Pattern KRAFT_SNAPSHOT = Pattern.compile("(\\d{20})-(\\d{10})\\.checkpoint");
    /** The KRaft bootstrap snapshot a 3.x {@code kafka-storage format} leaves at the log dir root. */
    public static final String BOOTSTRAP_CHECKPOINT = "bootstrap.checkpoint";
    private static final int MAX_SEARCH_DEPTH = 4;

    private final List<ArchiveTree> archives = new ArrayList<>();
    private final List<Target> targets = new ArrayList<>();
    private final List<LogDir> logDirs = new ArrayList<>();
    private final List<FormatException> problems = new ArrayList<>();
    private final Set<Include> include;
    private final Set<FileKind> kinds;

    private Inputs(Set<Include> include, Set<FileKind> kinds) {
        this.include = include;
        this.kinds = kinds;
    }

    /**
     * @param include transient files and dirs to read besides the live ones
     * @param kinds the kinds of file wanted from directories (a file named on the command line is
     *     always taken)
     */
    public static Inputs resolve(List<Path> paths, Set<Include> include, Set<FileKind> kinds) {
        Inputs inputs = new Inputs(include, kinds);
        try {
            for (Path p : paths) {
                inputs.add(p);
            }
        } catch (RuntimeException e) {
            inputs.close();
            throw e;
        }
        return inputs;
    }

    public List<Target> targets() {
        return targets;
    }

    /** The broker log dirs found (for commands that read their checkpoints). */
    public List<LogDir> logDirs() {
        return logDirs;
    }

    /** Names that look like Kafka files but do not parse, orphan index files, and the like. */
    public List<FormatException> problems() {
        return problems;
    }

    private void add(Path path) {
        if (!Files.exists(path)) {
            throw FormatException.at(Violation.IO_ERROR, path.toString(), FormatException.UNKNOWN)
                    .note("no such file or directory").build();
        }
        if (Files.isRegularFile(path) && ArchiveTree.isArchive(path)) {
            ArchiveTree tree = ArchiveTree.open(path);
            archives.add(tree);
            if (!addEntry(tree.root(), Optional.empty(), 0)) {
                throw noKafkaData(path.toString());
            }
            return;
        }
        FileEntry entry = FileEntry.of(path);
        Path parent = path.toAbsolutePath().getParent();
        Optional<TopicPartitionName> parentName = parent == null || parent.getFileName() == null
                ? Optional.empty() : TopicPartitionName.tryParse(parent.getFileName().toString());
        if (!addEntry(entry, parentName, 0)) {
            throw noKafkaData(path.toString());
        }
    }

    private static FormatException noKafkaData(String path) {
        return FormatException.at(Violation.IO_ERROR, path, FormatException.UNKNOWN)
                .note("no Kafka segment, partition dir or log dir found there").build();
    }

    /** Adds what {@code entry} holds; false when nothing Kafka-like was found. */
    private boolean addEntry(FileEntry entry, Optional<TopicPartitionName> parentName, int depth) {
        if (!entry.isDirectory()) {
            addFile(entry, parentName);
            return true;
        }
        switch (InputKind.detect(entry)) {
            case LOG_DIR -> {
                LogDir logDir = new LogDir(entry);
                logDirs.add(logDir);
                problems.addAll(logDir.unrecognizedDirs());
                if (kinds.contains(FileKind.LOG)) {
                    logDir.file(BOOTSTRAP_CHECKPOINT).ifPresent(f -> targets.add(new Target(f, null, true, Optional.empty(), 0)));
                }
                List<PartitionDir> partitions = new ArrayList<>(logDir.partitions(include));
                partitions.sort(Comparator.comparing((PartitionDir p) -> p.topic()).thenComparingInt(PartitionDir::partition)
                        .thenComparing(p -> p.name().status()));
                for (PartitionDir p : partitions) {
                    addPartition(p);
                }
                return true;
            }
            case PARTITION_DIR -> {
                addPartition(PartitionDir.of(entry));
                return true;
            }
            default -> {
                if (depth >= MAX_SEARCH_DEPTH) {
                    return false;
                }
                boolean found = false;
                for (FileEntry child : entry.children()) {
                    if (child.isDirectory()) {
                        found |= addEntry(child, Optional.empty(), depth + 1);
                    }
                }
                return found;
            }
        }
    }

    private void addFile(FileEntry file, Optional<TopicPartitionName> parentName) {
        Optional<SegmentFileName> name = SegmentFileName.parse(file.name());
        var m = KRAFT_SNAPSHOT.matcher(file.name());
        if (m.matches()) {
            targets.add(new Target(file, null, true, parentName, Long.parseLong(m.group(1))));
        } else if (file.name().equals(BOOTSTRAP_CHECKPOINT)) {
            targets.add(new Target(file, null, true, parentName, 0));
        } else {
            targets.add(new Target(file, name.map(SegmentFileName::kind).orElse(null), false, parentName,
                    name.map(SegmentFileName::baseOffset).orElse(-1L)));
        }
    }

    private void addPartition(PartitionDir p) {
        SegmentSet set = p.segments(include);
        problems.addAll(set.problems());
        Optional<TopicPartitionName> name = Optional.of(p.name());
        for (Segment s : set.segments()) {
            for (FileKind k : FileKind.values()) {
                if (k != FileKind.SNAPSHOT && kinds.contains(k)) {
                    s.file(k).ifPresent(f -> targets.add(new Target(f, k, false, name, s.baseOffset())));
                }
            }
        }
        if (kinds.contains(FileKind.SNAPSHOT)) {
            for (SnapshotFile snap : set.snapshots()) {
                targets.add(new Target(snap.file(), FileKind.SNAPSHOT, false, name, snap.offset()));
            }
        }
        if (kinds.contains(FileKind.LOG)) {
            for (FileEntry other : set.otherFiles()) {
                var m = KRAFT_SNAPSHOT.matcher(other.name());
                if (!other.isDirectory() && m.matches()) {
                    targets.add(new Target(other, null, true, name, Long.parseLong(m.group(1))));
                }
            }
        }
    }

    @Override
    public void close() {
        for (ArchiveTree t : archives) {
            t.close();
        }
    }
}
