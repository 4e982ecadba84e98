package io.segscope.inspector.input;

import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.TopicPartitionName;

import java.util.Optional;

/**
 * One file to work on, with what is known about it.
 *
 * @param file the file
 * @param kind what its suffix says it is; null when the name is not a segment file's
 * @param kraftSnapshot true for a KRaft snapshot ({@code <offset>-<epoch>.checkpoint}), which
 *     holds record batches like a {@code .log}
 * @param partition the topic-partition of its directory, when the directory name parses as one
 * @param baseOffset the offset from its name, or -1
 */
public record Target(FileEntry file, FileKind kind, boolean kraftSnapshot, Optional<TopicPartitionName> partition,
                     long baseOffset) {

    /** True when the file holds record batches. */
    public boolean holdsRecords() {
        return kind == FileKind.LOG || kraftSnapshot;
    }

    public Optional<String> topic() {
        return partition.map(TopicPartitionName::topic);
    }

    public String display() {
        return file.path();
    }
}
