package io.segscope.format.verify;

import java.util.Arrays;

/**
 * The leader epochs the batches of one partition carry, in log order: each change of
 * {@code partitionLeaderEpoch} with the first offset of the first batch that has it (what Kafka's
 * leader-epoch cache records, docs/format.md 1.1). Epoch changes are few (one per leader
 * election), but a cap keeps a hostile log from growing it without bound.
 */
final class EpochTracker {
    static final int MAX = 1 << 16;

    private int[] epochs = new int[16];
    private long[] startOffsets = new long[16];
    private int size;
    private boolean overflow;
    /** Position and file of the first batch whose epoch went backwards, for the finding. */
    String backwardsFile;
    long backwardsPosition = -1;
    int backwardsEpoch;
    int backwardsPrevious;
    long backwardsOffset;

    void observe(int epoch, long firstOffset, String file, long position) {
        if (epoch < 0) {
            return;
        }
        if (size > 0) {
            int last = epochs[size - 1];
            if (epoch == last) {
                return;
            }
            if (epoch < last) {
                if (backwardsPosition < 0) {
                    backwardsFile = file;
                    backwardsPosition = position;
                    backwardsEpoch = epoch;
                    backwardsPrevious = last;
                    backwardsOffset = firstOffset;
                }
                return;
            }
        }
        if (size == MAX) {
            overflow = true;
            return;
        }
        if (size == epochs.length) {
            epochs = Arrays.copyOf(epochs, size * 2);
            startOffsets = Arrays.copyOf(startOffsets, size * 2);
        }
        epochs[size] = epoch;
        startOffsets[size] = firstOffset;
        size++;
    }

    int size() { return size; }
    int epoch(int i) { return epochs[i]; }
    long startOffset(int i) { return startOffsets[i]; }
    boolean overflowed() { return overflow; }

    /** Index of {@code epoch}, or -1. */
    int indexOf(int epoch) {
        int i = Arrays.binarySearch(epochs, 0, size, epoch);
        return i < 0 ? -1 : i;
    }
}
