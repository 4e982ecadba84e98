package io.segscope.format.inventory;

import io.segscope.format.error.FormatException;
import io.segscope.format.state.EpochEntry;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One replica of a partition as its files show it: what Kafka 4.4.0 would load from them
 * ({@code LogLoader}: the log start and end offsets, the high watermark, the producer state and the
 * last stable offset) and what its ListOffsets would answer for the earliest, latest and
 * max-timestamp specs (docs/format.md 1.11).
 *
 * @param topic the topic (from the dir name)
 * @param partition the partition number
 * @param dir the partition dir
 * @param logDir the log dir holding it ("" for a partition dir given on its own)
 * @param brokerId the broker's node id from the log dir's {@code meta.properties}
 * @param clusterId the cluster id from {@code meta.properties}
 * @param topicId the topic id from {@code partition.metadata}
 * @param firstSegmentBase the first segment's base offset (the log end offset when there is none)
 * @param logStartCheckpoint the log dir's {@code log-start-offset-checkpoint} entry
 * @param logStartOffset what Kafka loads: the larger of the two (the checkpoint holds only log start
 *     offsets inside the first segment)
 * @param logEndOffset the offset after the last whole batch (a torn tail is not counted, as
 *     recovery truncates it)
 * @param highWatermarkCheckpoint the {@code replication-offset-checkpoint} entry
 * @param highWatermark what Kafka loads: the checkpoint held inside [log start, log end] (the log
 *     start offset when the log dir has the file but no entry); after an unclean shutdown, the log end
 *     offset when the metadata log's ISR of the partition is this broker alone (a restarted sole
 *     in-sync leader raises it at once); empty when no checkpoint file is known
 * @param recoveryPoint the {@code recovery-point-offset-checkpoint} entry
 * @param lastStableOffset the first offset of the earliest open transaction, at most the high
 *     watermark (the log end when no high watermark is known)
 * @param firstTimestamp the first batch's first timestamp (-1 when none or legacy magic 0)
 * @param maxTimestamp the largest batch max timestamp (-1 when none)
 * @param maxTimestampOffset Kafka's answer to ListOffsets MAX_TIMESTAMP: the first record with the
 *     largest timestamp (-1 when none, or at or above the high watermark)
 * @param epochCheckpoint the {@code leader-epoch-checkpoint} entries
 * @param epochBatches the leader epochs seen in the batches (each epoch's first offset): every batch
 *     with {@code --deep}, else those of the batches read at the log's end
 * @param lastBatchEpoch the partition leader epoch of the last batch (-1 when none or legacy)
 * @param segments live segments
 * @param bytes bytes of their {@code .log} files
 * @param producers producers in the rebuilt producer state
 * @param openTransactions transactions open at the log end
 * @param compacted whether the topic is compacted (its config in the metadata log, else Kafka's
 *     internal compacted topics, else a cleaner checkpoint entry)
 * @param cleanerCheckpoint the {@code cleaner-offset-checkpoint} entry
 * @param dirtyRatio the cleaner's dirty ratio (compacted topics)
 * @param cleanShutdown whether the log dir shut down cleanly (null: not known)
 * @param deep whether every batch was read
 * @param producerStateFrom where the producer state was rebuilt from (a snapshot's offset, or the
 *     offset replay started at)
 * @param notes disagreements between the files, in words (checkpoint vs segments, epochs)
 * @param problems what could not be read or was damaged
 */
public record ReplicaState(String topic, int partition, String dir, String logDir, OptionalInt brokerId,
                           Optional<String> clusterId, Optional<String> topicId, long firstSegmentBase,
                           OptionalLong logStartCheckpoint, long logStartOffset, long logEndOffset,
                           OptionalLong highWatermarkCheckpoint, OptionalLong highWatermark,
                           OptionalLong recoveryPoint, long lastStableOffset, long firstTimestamp,
                           long maxTimestamp, long maxTimestampOffset, List<EpochEntry> epochCheckpoint,
                           List<EpochEntry> epochBatches, int lastBatchEpoch, int segments, long bytes,
                           int producers, List<OpenTransaction> openTransactions, boolean compacted,
                           OptionalLong cleanerCheckpoint, OptionalDouble dirtyRatio, Boolean cleanShutdown,
                           boolean deep, String producerStateFrom, List<String> notes,
                           List<FormatException> problems) {

    /** "topic-partition". */
    public String topicPartition() {
        return topic + "-" + partition;
    }

    /**
     * The last leader epoch as Kafka's epoch cache holds it after loading: the checkpoint's entries
     * that start below the log end offset (it truncates the others), and the last batch's.
     */
    public int latestEpoch() {
        int e = -1;
        for (EpochEntry c : epochCheckpoint) {
            if (c.startOffset() < logEndOffset) {
                e = Math.max(e, c.epoch());
            }
        }
        return Math.max(e, lastBatchEpoch);
    }

    /** The high watermark, else the log end offset (what ListOffsets LATEST answers as far as the files tell). */
    public long latestOffset() {
        return highWatermark.orElse(logEndOffset);
    }
}
