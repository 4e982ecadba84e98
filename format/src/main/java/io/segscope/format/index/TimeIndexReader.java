package io.segscope.format.index;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;

import java.util.List;
import java.util.Optional;

/**
 * Reads a {@code .timeindex} file (docs/format.md 1.8): 12-byte entries, each the largest
 * timestamp seen so far in the segment and the offset of the batch that reached it.
 *
 * <pre>
 * entry byte  size  field
 *   0          8    timestamp      int64
 *   8          4    relativeOffset int32  (offset - segment base offset)
 * </pre>
 *
 * <p>Timestamps strictly increase (Kafka appends only a larger one) and offsets never decrease.
 * Entries end at the first all-zero slot (see {@link FixedSizeIndexReader}).
 */
public final class TimeIndexReader extends FixedSizeIndexReader {
    public static final int ENTRY_SIZE = 12;
    public static final int TIMESTAMP = 0;
    public static final int RELATIVE_OFFSET = 8;

    public TimeIndexReader() {
        super(ENTRY_SIZE);
    }

    /** Resets this reader onto {@code source}, the time index of the segment starting at {@code baseOffset}. */
    public TimeIndexReader wrap(ByteSource source, long baseOffset) {
        reset(source, baseOffset);
        return this;
    }

    public long timestamp(int i) {
        checkEntry(i);
        return slotLong(i, TIMESTAMP);
    }

    public int relativeOffset(int i) {
        checkEntry(i);
        return slotInt(i, RELATIVE_OFFSET);
    }

    /** The absolute offset of slot {@code i}. */
    public long offset(int i) {
        return baseOffset() + relativeOffset(i);
    }

    /** The slot of the largest entry whose timestamp is at most {@code targetTimestamp}, or -1. */
    public int lookupSlot(long targetTimestamp) {
        return largestLowerBoundSlot(targetTimestamp, entries());
    }

    /**
     * Kafka's {@code TimeIndex.lookup}: the largest entry whose timestamp is at most
     * {@code targetTimestamp}, else (-1, base offset).
     */
    public TimestampOffset lookup(long targetTimestamp) {
        int slot = lookupSlot(targetTimestamp);
        return slot < 0 ? new TimestampOffset(-1L, baseOffset()) : new TimestampOffset(timestamp(slot), offset(slot));
    }

    /** The last real entry, or (-1, base offset) when there is none (as Kafka's {@code lastEntry}). */
    public TimestampOffset lastEntry() {
        int n = entries();
        return n == 0 ? new TimestampOffset(-1L, baseOffset()) : new TimestampOffset(timestamp(n - 1), offset(n - 1));
    }

    @Override
    protected boolean isZeroSlot(int slot) {
        return slotLong(slot, TIMESTAMP) == 0L && slotInt(slot, RELATIVE_OFFSET) == 0;
    }

    @Override
    protected long key(int slot) {
        return slotLong(slot, TIMESTAMP);
    }

    @Override
    protected void checkEntries(List<FormatException> findings) {
        for (int i = 0; i < entries() && findings.size() < MAX_FINDINGS; i++) {
            long pos = slotPosition(i, ENTRY_SIZE);
            int rel = relativeOffset(i);
            long ts = timestamp(i);
            if (rel < 0) {
                findings.add(error(Violation.INDEX_OFFSET_RANGE, pos + RELATIVE_OFFSET).field("relativeOffset")
                        .expected(">= 0 (offset >= base offset " + baseOffset() + ")").actual(rel).build());
            }
            if (i > 0) {
                long prevTs = timestamp(i - 1);
                if (ts <= prevTs) {
                    findings.add(error(Violation.INDEX_ORDER, pos).field("timestamp")
                            .expected("> " + prevTs + " (entry " + (i - 1) + ")").actual(ts).build());
                }
                int prevRel = relativeOffset(i - 1);
                if (rel < prevRel) {
                    findings.add(error(Violation.INDEX_ORDER, pos + RELATIVE_OFFSET).field("relativeOffset")
                            .expected(">= " + prevRel + " (entry " + (i - 1) + ")").actual(rel).build());
                }
            }
        }
    }

    /**
     * Kafka's {@code TimeIndex.sanityCheck} as it runs on a freshly opened file (every slot an
     * entry): last timestamp below the first, last offset below the base offset, then the length.
     * A zero tail after real entries fails the first test (KAFKA-10207).
     */
    @Override
    public Optional<FormatException> kafkaSanityCheck() {
        if (slots() != 0) {
            int last = slots() - 1;
            long lastTs = timestamp(last);
            long firstTs = timestamp(0);
            if (lastTs < firstTs) {
                return Optional.of(error(Violation.INDEX_ORDER, slotPosition(last, ENTRY_SIZE)).field("timestamp")
                        .expected(">= first timestamp " + firstTs).actual(lastTs).build());
            }
            long lastOffset = offset(last);
            if (lastOffset < baseOffset()) {
                return Optional.of(error(Violation.INDEX_OFFSET_RANGE, slotPosition(last, ENTRY_SIZE) + RELATIVE_OFFSET)
                        .field("relativeOffset").expected(">= base offset " + baseOffset()).actual(lastOffset).build());
            }
        }
        return kafkaLengthCheck();
    }
}
