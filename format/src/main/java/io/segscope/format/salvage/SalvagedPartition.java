package io.segscope.format.salvage;

import io.segscope.format.state.EpochEntry;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link Salvager} wrote for one partition and what it could not keep.
 *
 * @param topic the partition's topic
 * @param partition its number
 * @param dir the salvaged copy
 * @param segments the segments written (base offset, bytes, batches), in offset order
 * @param firstOffset first offset kept, or -1 when no batch was kept
 * @param logEndOffset the copy's log end offset as Kafka computes it (the next offset after the
 *     last kept batch, or the last segment's base offset when that segment is empty)
 * @param keptBatches batches (legacy entries) kept
 * @param keptBytes bytes of them
 * @param producers producers in the rebuilt producer snapshot
 * @param epochs the rebuilt leader-epoch checkpoint
 * @param losses what was lost, in file and byte order
 * @param leftOut files not copied, each with why ({@code name: reason})
 */
public record SalvagedPartition(String topic, int partition, Path dir, List<SegmentOut> segments, long firstOffset,
                                long logEndOffset, long keptBatches, long keptBytes, int producers,
                                List<EpochEntry> epochs, List<Loss> losses, List<String> leftOut) {

    /** One segment of the copy. */
    public record SegmentOut(long baseOffset, long bytes, long batches) {
    }

    public String name() {
        return topic + "-" + partition;
    }

    public long lostBytes() {
        return losses.stream().mapToLong(Loss::bytes).sum();
    }
}
