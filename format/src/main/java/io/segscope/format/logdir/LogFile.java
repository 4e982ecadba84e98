package io.segscope.format.logdir;

import io.segscope.format.state.CleanShutdown;
import io.segscope.format.state.LeaderEpochCheckpoint;
import io.segscope.format.state.MetaProperties;
import io.segscope.format.state.OffsetCheckpoint;
import io.segscope.format.state.PartitionMetadata;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One file of a log dir with what its name and place say about it: the one classifier of file
 * names (docs/format.md 1.1), used by every command through {@link LogScanner}.
 *
 * @param file the file
 * @param kind what its name says it is
 * @param status its transient suffix ({@code .deleted}, {@code .cleaned}, {@code .swap}) or LIVE
 * @param partition the topic-partition of its directory, when the directory name parses as one
 * @param baseOffset the offset its name gives (segment base offset, snapshot offset, KRaft
 *     snapshot end offset; 0 for the bootstrap snapshot), or -1
 */
public record LogFile(FileEntry file, FileKind kind, FileStatus status, Optional<TopicPartitionName> partition,
                      long baseOffset) {
    /** KRaft snapshots: {@code <20-digit end offset>-<10-digit epoch>.checkpoint}. */
    private static final Pattern KRAFT_SNAPSHOT = Pattern.compile("(\\d{20})-(\\d{10})\\.checkpoint");
    /** The KRaft bootstrap snapshot a 3.x {@code kafka-storage format} leaves at the log dir root. */
    public static final String BOOTSTRAP_CHECKPOINT = "bootstrap.checkpoint";

    /** Classifies {@code file} by its name; {@code partition} is its directory's name when that parses. */
    public static LogFile classify(FileEntry file, Optional<TopicPartitionName> partition) {
        String name = file.name();
        Optional<SegmentFileName> segment = SegmentFileName.parse(name);
        if (segment.isPresent()) {
            SegmentFileName n = segment.get();
            return new LogFile(file, n.kind(), n.status(), partition, n.baseOffset());
        }
        Matcher m = KRAFT_SNAPSHOT.matcher(name);
        if (m.matches()) {
            return new LogFile(file, FileKind.KRAFT_SNAPSHOT, FileStatus.LIVE, partition, Long.parseLong(m.group(1)));
        }
        FileKind kind = switch (name) {
            case BOOTSTRAP_CHECKPOINT -> FileKind.BOOTSTRAP_CHECKPOINT;
            case CleanShutdown.FILE_NAME -> FileKind.CLEAN_SHUTDOWN;
            case MetaProperties.FILE_NAME -> FileKind.META_PROPERTIES;
            case OffsetCheckpoint.RECOVERY_POINT, OffsetCheckpoint.LOG_START_OFFSET,
                    OffsetCheckpoint.REPLICATION_OFFSET, OffsetCheckpoint.CLEANER_OFFSET -> FileKind.OFFSET_CHECKPOINT;
            case PartitionMetadata.FILE_NAME -> FileKind.PARTITION_METADATA;
            case LeaderEpochCheckpoint.FILE_NAME -> FileKind.LEADER_EPOCH_CHECKPOINT;
            default -> name.endsWith(".tmp") ? FileKind.TMP : FileKind.OTHER;
        };
        return new LogFile(file, kind, FileStatus.LIVE, partition, kind == FileKind.BOOTSTRAP_CHECKPOINT ? 0 : -1);
    }

    /** The epoch in a KRaft snapshot's name, or -1. */
    public int snapshotEpoch() {
        Matcher m = KRAFT_SNAPSHOT.matcher(file.name());
        return kind == FileKind.KRAFT_SNAPSHOT && m.matches() ? Integer.parseInt(m.group(2)) : -1;
    }

    public Optional<String> topic() {
        return partition.map(TopicPartitionName::topic);
    }

    /** True for files of the KRaft metadata log: its segments and snapshots. */
    public boolean isMetadataLog() {
        return kind == FileKind.KRAFT_SNAPSHOT || kind == FileKind.BOOTSTRAP_CHECKPOINT
                || partition.map(TopicPartitionName::isMetadataLog).orElse(false);
    }

    /** The path shown to people. */
    public String path() {
        return file.path();
    }
}
