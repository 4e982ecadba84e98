package io.segscope.format.state;

/**
 * One producer of a producer-state snapshot (docs/format.md 1.9). {@code lastSequence},
 * {@code lastOffset} and {@code currentTxnFirstOffset} may be -1 (no retained batch, no open
 * transaction).
 */
public record ProducerSnapshotEntry(long producerId, short epoch, int lastSequence, long lastOffset,
                                    int offsetDelta, long timestamp, int coordinatorEpoch,
                                    long currentTxnFirstOffset) {
}
