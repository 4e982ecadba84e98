package io.segscope.format.replay;

/**
 * Where a replay stops: at the end of the log, before the first batch whose max timestamp is
 * after a time, or before a log offset. Either way the result equals the replay of the log cut
 * there: the batches before the first late batch (time), the records below the offset (offset).
 *
 * @param timeMs replay batches up to (excluding) the first batch whose max timestamp is above this
 *     (epoch ms); Long.MAX_VALUE for no limit. Batches without a timestamp (magic 0: -1) never stop it.
 * @param endOffset replay the records whose offset is below this (an exclusive end offset, like a
 *     log end offset); Long.MAX_VALUE for no limit
 */
public record AsOf(long timeMs, long endOffset) {
    public static final AsOf END = new AsOf(Long.MAX_VALUE, Long.MAX_VALUE);

    /** The log as it stood at {@code timeMs}: every batch up to the first one written later. */
    public static AsOf time(long timeMs) {
        return new AsOf(timeMs, Long.MAX_VALUE);
    }

    /** The log cut at {@code endOffset}: every record with a lower offset. */
    public static AsOf endOffset(long endOffset) {
        return new AsOf(Long.MAX_VALUE, endOffset);
    }

    public boolean isEnd() {
        return timeMs == Long.MAX_VALUE && endOffset == Long.MAX_VALUE;
    }
}
