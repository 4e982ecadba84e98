package io.segscope.format.logdir;

import io.segscope.format.state.LeaderEpochCheckpoint;
import io.segscope.format.state.PartitionMetadata;
import java.nio.file.Path;

/**
 * What a path given by a person is: one file, a partition directory, a broker log directory, or
 * none of these. A directory is a log dir when it holds a log-dir root file or a subdirectory
 * named like a partition; it is a partition dir when its own name parses as one and it holds
 * segment files or per-partition side files. Content decides first because a log dir may itself
 * be named like a partition ({@code kafka-logs-1}); so may the log dirs a directory holds
 * ({@code logdirs/broker-1}), which are not its partitions.
 */
public enum InputKind {
    FILE,
    PARTITION_DIR,
    LOG_DIR,
    UNKNOWN;

    public static InputKind detect(Path path) {
        return detect(FileEntry.of(path));
    }

    public static InputKind detect(FileEntry entry) {
        if (!entry.isDirectory()) {
            return FILE;
        }
        boolean partitionContent = false;
        for (FileEntry child : entry.children()) {
            String name = child.name();
            if (child.isDirectory()) {
                if (TopicPartitionName.tryParse(name).isPresent() && !holdsLogDirContent(child) && !zooKeeperDir(child)) {
                    return LOG_DIR;
                }
            } else if (LogDir.ROOT_FILES.contains(name)) {
                return LOG_DIR;
            } else if (SegmentFileName.parse(name).isPresent() || name.equals(LeaderEpochCheckpoint.FILE_NAME)
                    || name.equals(PartitionMetadata.FILE_NAME)) {
                partitionContent = true;
            }
        }
        if (partitionContent && TopicPartitionName.tryParse(entry.name()).isPresent()) {
            return PARTITION_DIR;
        }
        return UNKNOWN;
    }

    /**
     * True when a directory named like a partition is a log dir itself: it holds a log-dir root file
     * or a subdirectory named like a partition (a partition dir holds neither). Several brokers'
     * log dirs side by side ({@code logdirs/broker-1}, {@code broker-2}) are so told from one log
     * dir holding partitions of a topic {@code broker}.
     */
    private static boolean holdsLogDirContent(FileEntry dir) {
        for (FileEntry child : dir.children()) {
            String name = child.name();
            if (child.isDirectory() ? TopicPartitionName.tryParse(name).isPresent() : LogDir.ROOT_FILES.contains(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * True for ZooKeeper's {@code version-2} dir (a dataDir's or dataLogDir's: {@code snapshot.<zxid>} and
     * {@code log.<zxid>} files, no segment), which is named like partition 2 of a topic "version".
     */
    public static boolean zooKeeperDir(FileEntry dir) {
        if (!dir.name().equals("version-2")) {
            return false;
        }
        boolean zk = false;
        for (FileEntry child : dir.children()) {
            if (child.isDirectory()) {
                continue;
            }
            if (SegmentFileName.parse(child.name()).isPresent()) {
                return false;
            }
            zk |= child.name().matches("(snapshot|log)\\.[0-9a-fA-F]+(\\.gz|\\.snappy)?");
        }
        return zk;
    }
}
