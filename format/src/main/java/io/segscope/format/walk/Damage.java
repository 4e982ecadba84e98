package io.segscope.format.walk;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.record.Tail;

/**
 * Bytes of a record file that hold no good batch, as {@link SegmentWalk} met them: damage in the
 * middle of the file, after which good batches resume at {@link #resumeAt()}, or a torn tail that
 * runs to the end of the file (docs/format.md 1.10). Facts only; each command words them itself.
 *
 * @param violation what was found at {@link #from()}: the reader's error (bad size, magic, CRC),
 *     {@link Violation#BATCH_TOO_LARGE} for a size that runs past the end of the file with good
 *     batches after it, {@link Violation#TRUNCATED} or {@link Violation#ZERO_TAIL} for a torn tail
 * @param cause the reader's error, or null for a tail the reader stopped at without one
 * @param tail how the reader ended, for a torn tail it detected itself; else null
 * @param from first damaged byte
 * @param to end (exclusive) of the damaged bytes: {@link #resumeAt()}, or the end of the file
 * @param resumeAt where good batches resume, or -1 when none follows (a torn tail)
 * @param searched false when the source is a stream that could not go back to look for good
 *     batches after the damage (the rest of the file was not searched)
 * @param lostFrom the first offset the damage loses: after the last good batch (or the previous
 *     segment, or the file name's base offset), or -1 when unknown
 * @param headerBaseOffset the offset field of the damaged entry when it is plausible, else -1
 * @param headerLastOffset the last offset a torn entry's header claims when plausible, else -1
 */
public record Damage(Violation violation, FormatException cause, Tail tail, long from, long to, long resumeAt,
                     boolean searched, long lostFrom, long headerBaseOffset, long headerLastOffset) {

    /** True when no good batch follows: the damage runs to the end of the file. */
    public boolean isTornTail() {
        return resumeAt < 0;
    }

    public long bytes() {
        return to - from;
    }
}
