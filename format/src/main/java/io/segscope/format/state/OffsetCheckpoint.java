package io.segscope.format.state;

import io.segscope.format.io.ByteSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The offset checkpoint files at a log dir's root (docs/format.md 1.1): version 0, entries
 * {@code "<topic> <partition> <offset>"}. Kafka keeps one offset per partition, the last line
 * winning; {@link #toMap} does the same.
 */
public final class OffsetCheckpoint {
    /** Per-partition recovery points (segments below are trusted on an unclean start). */
    public static final String RECOVERY_POINT = "recovery-point-offset-checkpoint";
    /** Per-partition log start offsets. */
    public static final String LOG_START_OFFSET = "log-start-offset-checkpoint";
    /** Per-partition high watermarks. */
    public static final String REPLICATION_OFFSET = "replication-offset-checkpoint";
    /** Per-partition first dirty offset of compacted partitions. */
    public static final String CLEANER_OFFSET = "cleaner-offset-checkpoint";
    /** Every offset checkpoint file name. */
    public static final List<String> FILE_NAMES = List.of(RECOVERY_POINT, LOG_START_OFFSET, REPLICATION_OFFSET, CLEANER_OFFSET);
    public static final int CURRENT_VERSION = 0;

    private OffsetCheckpoint() {
    }

    /** Reads the entries in file order (see {@link CheckpointFile#read} for the errors). */
    public static List<TopicPartitionOffset> read(ByteSource source) {
        return CheckpointFile.read(source, CURRENT_VERSION, (fields, line) -> fields.length != 3 ? null
                : new TopicPartitionOffset(fields[0], line.parseInt(fields[1], "partition"),
                        line.parseLong(fields[2], "offset"), line.position()));
    }

    /** "topic-partition" to offset, the last line winning as in Kafka's map. */
    public static Map<String, Long> toMap(List<TopicPartitionOffset> entries) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (TopicPartitionOffset e : entries) {
            out.put(e.topic() + "-" + e.partition(), e.offset());
        }
        return out;
    }
}
