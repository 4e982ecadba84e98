package io.segscope.format.compact;

import java.util.List;

/**
 * What a compaction did, in Kafka's {@code CleanerStats} terms (docs/format.md 4.6), per round and in
 * total. Kafka logs one round per cleaner pass; {@link #rounds()} has more than one when the key map
 * filled before the end of the dirty section.
 *
 * @param rounds             each pass, in order
 * @param logEndOffset       the partition's log end offset
 * @param highWatermark      the high watermark used
 * @param lastStableOffset   the last stable offset (no cleaning past it)
 * @param activeProducers    how many producers the cleaner treated as active
 * @param cleanerCheckpoint  the offset Kafka would write to {@code cleaner-offset-checkpoint} (the
 *                           first dirty offset of the next pass), or -1 when nothing was cleaned
 * @param segmentsIn         segments of the input
 * @param segmentsOut        segments of the output
 */
public record CompactStats(List<Round> rounds, long logEndOffset, long highWatermark, long lastStableOffset,
                           int activeProducers, long cleanerCheckpoint, int segmentsIn, int segmentsOut) {

    /**
     * One cleaner pass.
     *
     * @param firstDirtyOffset       where the map build started
     * @param firstUncleanableOffset the end of the dirty section (a segment boundary)
     * @param endOffset              the map's latest offset + 1: what this pass cleaned up to
     * @param segmentsCleaned        source segments rewritten (from offset 0 up to endOffset)
     * @param segmentsWritten        cleaned segments written (one per group)
     * @param mapBytesRead           Kafka's {@code mapBytesRead} ("Indexed … MB")
     * @param mapMessagesRead        Kafka's {@code mapMessagesRead}
     * @param bytesRead              Kafka's {@code bytesRead} (the rewrite's input, "Start size")
     * @param bytesWritten           Kafka's {@code bytesWritten} ("End size")
     * @param messagesRead           Kafka's {@code messagesRead}
     * @param messagesWritten        Kafka's {@code messagesWritten}
     * @param invalidMessagesRead    keyless records dropped (Kafka's {@code invalidMessagesRead})
     * @param mapSlots               slots of the key map
     * @param mapEntries             keys in the map when it was complete
     * @param bufferUtilization      mapEntries / mapSlots (Kafka's "Buffer utilization")
     * @param batchesCopied          batches copied byte for byte
     * @param batchesRebuilt         batches rebuilt as magic 2 (records dropped, a delete horizon set, or legacy input)
     * @param emptyBatchesWritten    61-byte empty batches kept (an active producer's last batch, the batch ending at the high watermark)
     * @param batchesDropped         batches removed entirely
     * @param mapNanos               time building the map
     * @param cleanNanos             time rewriting
     */
    public record Round(long firstDirtyOffset, long firstUncleanableOffset, long endOffset, int segmentsCleaned,
                        int segmentsWritten, long mapBytesRead, long mapMessagesRead, long bytesRead,
                        long bytesWritten, long messagesRead, long messagesWritten, long invalidMessagesRead,
                        int mapSlots, int mapEntries, double bufferUtilization, long batchesCopied,
                        long batchesRebuilt, long emptyBatchesWritten, long batchesDropped, long mapNanos,
                        long cleanNanos) {
    }

    public long bytesRead() {
        return rounds.stream().mapToLong(Round::bytesRead).sum();
    }

    public long bytesWritten() {
        return rounds.stream().mapToLong(Round::bytesWritten).sum();
    }

    public long messagesRead() {
        return rounds.stream().mapToLong(Round::messagesRead).sum();
    }

    public long messagesWritten() {
        return rounds.stream().mapToLong(Round::messagesWritten).sum();
    }

    public long mapBytesRead() {
        return rounds.stream().mapToLong(Round::mapBytesRead).sum();
    }

    public long mapMessagesRead() {
        return rounds.stream().mapToLong(Round::mapMessagesRead).sum();
    }

    public long invalidMessagesRead() {
        return rounds.stream().mapToLong(Round::invalidMessagesRead).sum();
    }

    /** The largest buffer utilization of any round (Kafka's {@code max-buffer-utilization-percent} / 100). */
    public double maxBufferUtilization() {
        return rounds.stream().mapToDouble(Round::bufferUtilization).max().orElse(0);
    }

    public long mapNanos() {
        return rounds.stream().mapToLong(Round::mapNanos).sum();
    }

    public long cleanNanos() {
        return rounds.stream().mapToLong(Round::cleanNanos).sum();
    }
}
