package io.segscope.format.logdir;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A broker log directory (kafka-format.md 1.1): partition directories, plus the files at its
 * root ({@code meta.properties}, the offset checkpoint files, {@code .kafka_cleanshutdown}).
 * A {@code <checkpoint>.tmp} sibling is an unfinished write that Kafka never reads: it is not
 * returned as the checkpoint, only listed by {@link #leftoverTmpFiles()}.
 */
public final class LogDir {
    public static final String META_PROPERTIES = "meta.properties";
    public static final String CLEAN_SHUTDOWN = ".kafka_cleanshutdown";
    public static final String RECOVERY_POINT_CHECKPOINT = "recovery-point-offset-checkpoint";
    public static final String LOG_START_OFFSET_CHECKPOINT = "log-start-offset-checkpoint";
    public static final String REPLICATION_OFFSET_CHECKPOINT = "replication-offset-checkpoint";
    public static final String CLEANER_OFFSET_CHECKPOINT = "cleaner-offset-checkpoint";
    /** The root files that mark a log dir. */
    public static final List<String> ROOT_FILES = List.of(META_PROPERTIES, CLEAN_SHUTDOWN, RECOVERY_POINT_CHECKPOINT,
            LOG_START_OFFSET_CHECKPOINT, REPLICATION_OFFSET_CHECKPOINT, CLEANER_OFFSET_CHECKPOINT);

    private final FileEntry root;

    public LogDir(FileEntry root) {
        this.root = root;
    }

    public static LogDir open(Path dir) {
        return new LogDir(FileEntry.of(dir));
    }

    public FileEntry root() {
        return root;
    }

    /** The live partition directories, in name order. */
    public List<PartitionDir> partitions() {
        return partitions(Include.none());
    }

    /** The partition directories whose status {@code include} allows, in name order. */
    public List<PartitionDir> partitions(Set<Include> include) {
        List<PartitionDir> out = new ArrayList<>();
        for (FileEntry e : root.children()) {
            if (!e.isDirectory()) {
                continue;
            }
            Optional<TopicPartitionName> name = TopicPartitionName.tryParse(e.name());
            if (name.isPresent() && Include.includes(include, name.get().status())) {
                out.add(new PartitionDir(e, name.get()));
            }
        }
        return out;
    }

    /** Directories whose names Kafka would refuse ("should only contain Kafka topic data"). */
    public List<FormatException> unrecognizedDirs() {
        List<FormatException> out = new ArrayList<>();
        for (FileEntry e : root.children()) {
            if (e.isDirectory() && TopicPartitionName.tryParse(e.name()).isEmpty()) {
                out.add(FormatException.at(Violation.NAME_FORMAT, e.path(), FormatException.UNKNOWN)
                        .field("directory name").expected("<topic>-<partition>[.<uniqueId>-delete|-future|-stray]")
                        .actual(e.name()).build());
            }
        }
        return out;
    }

    /** A file at the root by exact name (never its {@code .tmp} sibling). */
    public Optional<FileEntry> file(String name) {
        for (FileEntry e : root.children()) {
            if (!e.isDirectory() && e.name().equals(name)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    public Optional<FileEntry> metaProperties() {
        return file(META_PROPERTIES);
    }

    /** Present when the last shutdown was clean. */
    public Optional<FileEntry> cleanShutdown() {
        return file(CLEAN_SHUTDOWN);
    }

    public Optional<FileEntry> recoveryPointCheckpoint() {
        return file(RECOVERY_POINT_CHECKPOINT);
    }

    public Optional<FileEntry> replicationOffsetCheckpoint() {
        return file(REPLICATION_OFFSET_CHECKPOINT);
    }

    public Optional<FileEntry> cleanerOffsetCheckpoint() {
        return file(CLEANER_OFFSET_CHECKPOINT);
    }

    /** Root files ending in {@code .tmp}: checkpoint or properties writes that never completed. */
    public List<FileEntry> leftoverTmpFiles() {
        List<FileEntry> out = new ArrayList<>();
        for (FileEntry e : root.children()) {
            if (!e.isDirectory() && e.name().endsWith(".tmp")) {
                out.add(e);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return root.path();
    }
}
