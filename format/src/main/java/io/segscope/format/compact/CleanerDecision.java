package io.segscope.format.compact;

/**
 * What a broker's cleaner would decide about a partition at {@code now} (docs/format.md 4.1,
 * {@code LogCleanerManager.cleanableOffsets} and {@code LogToClean}): the dirty section from the
 * cleaner checkpoint to the first uncleanable offset, its share of the cleanable log (the dirty
 * ratio), and whether the partition qualifies for cleaning.
 *
 * @param logStartOffset          the first segment's base offset
 * @param logEndOffset            the offset after the last batch
 * @param logBytes                bytes of every segment, the active one included
 * @param highWatermark           the high watermark used (the log end when none was given)
 * @param lastStableOffset        no cleaning past it (open transactions)
 * @param checkpoint              the cleaner checkpoint given, or -1 for none
 * @param checkpointReset         whether the checkpoint was outside [log start, log end] and reset
 *                                to the log start offset, as Kafka does
 * @param firstDirtyOffset        where cleaning would start
 * @param firstUncleanableOffset  where it would stop (a segment boundary): the active segment, the
 *                                last stable offset, or the first segment newer than
 *                                {@code min.compaction.lag.ms}
 * @param cleanBytes              bytes of the segments below the first dirty offset
 * @param cleanableBytes          bytes of the segments in [first dirty, first uncleanable)
 * @param maxCompactionDelayMs    how far past {@code max.compaction.lag.ms} the oldest dirty
 *                                segment is (0: not past it)
 */
public record CleanerDecision(long logStartOffset, long logEndOffset, long logBytes, long highWatermark, long lastStableOffset,
                              long checkpoint, boolean checkpointReset, long firstDirtyOffset,
                              long firstUncleanableOffset, long cleanBytes, long cleanableBytes,
                              long maxCompactionDelayMs) {

    /** {@code cleanableBytes / (cleanBytes + cleanableBytes)}, 0 for an empty log. */
    public double dirtyRatio() {
        long total = cleanBytes + cleanableBytes;
        return total == 0 ? 0 : (double) cleanableBytes / total;
    }

    /** Whether {@code max.compaction.lag.ms} forces a cleaning now ({@code needCompactionNow}). */
    public boolean needCompactionNow() {
        return maxCompactionDelayMs > 0;
    }

    /**
     * Whether the broker's cleaner would pick this partition (when no other is dirtier): some bytes
     * and either a dirty ratio above {@code min.cleanable.dirty.ratio} (strictly) or compaction
     * forced by the max lag with something to clean.
     */
    public boolean wouldClean(double minCleanableDirtyRatio) {
        return cleanBytes + cleanableBytes > 0
                && (needCompactionNow() && cleanableBytes > 0 || dirtyRatio() > minCleanableDirtyRatio);
    }
}
