package io.segscope.format.logdir;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.state.CleanShutdown;
import io.segscope.format.state.MetaProperties;
import io.segscope.format.state.OffsetCheckpoint;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A broker log directory (docs/format.md 1.1): partition directories, plus the files at its
 * root ({@code meta.properties}, the offset checkpoint files ({@link OffsetCheckpoint#FILE_NAMES}, read
 * one with {@link #file}), {@code .kafka_cleanshutdown}).
 * A {@code <checkpoint>.tmp} sibling is an unfinished write that Kafka never reads: it is not
 * returned as the checkpoint, only listed by {@link #leftoverTmpFiles()}.
 */
public final class LogDir {
    /** The root files that mark a log dir (their names are owned by the classes that read them). */
    public static final List<String> ROOT_FILES = Stream.concat(Stream.of(MetaProperties.FILE_NAME, CleanShutdown.FILE_NAME),
            OffsetCheckpoint.FILE_NAMES.stream()).toList();

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
        return file(MetaProperties.FILE_NAME);
    }

    /** Present when the last shutdown was clean. */
    public Optional<FileEntry> cleanShutdown() {
        return file(CleanShutdown.FILE_NAME);
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
