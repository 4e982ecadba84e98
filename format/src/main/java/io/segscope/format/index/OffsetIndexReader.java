package io.segscope.format.index;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;

import java.util.List;
import java.util.Optional;

/**
 * Reads a {@code .index} file (docs/format.md 1.8): 8-byte entries mapping an offset to the byte
 * position of the batch that contains it.
 *
 * <pre>
 * entry byte  size  field
 *   0          4    relativeOffset int32  (offset - segment base offset)
 *   4          4    position       int32  (byte position of a batch in the .log)
 * </pre>
 *
 * <p>Flyweight: {@link #wrap} and then read entries by slot; nothing is allocated except by
 * {@link #lookup(long)}, whose zero-allocation twin is {@link #lookupSlot(long)}. Entries end at
 * the first all-zero slot (see {@link FixedSizeIndexReader}).
 */
public final class OffsetIndexReader extends FixedSizeIndexReader {
    public static final int ENTRY_SIZE = 8;
    public static final int RELATIVE_OFFSET = 0;
    public static final int POSITION = 4;

    public OffsetIndexReader() {
        super(ENTRY_SIZE);
    }

    /** Resets this reader onto {@code source}, the index of the segment starting at {@code baseOffset}. */
    public OffsetIndexReader wrap(ByteSource source, long baseOffset) {
        reset(source, baseOffset);
        return this;
    }

    /** The stored relative offset of slot {@code i}. */
    public int relativeOffset(int i) {
        checkEntry(i);
        return slotInt(i, RELATIVE_OFFSET);
    }

    /** The absolute offset of slot {@code i}: base offset + relative offset. */
    public long offset(int i) {
        return baseOffset() + relativeOffset(i);
    }

    /** The .log byte position of slot {@code i}. */
    public int position(int i) {
        checkEntry(i);
        return slotInt(i, POSITION);
    }

    /** The last real entry's offset, or the base offset when there is none (as Kafka's {@code lastOffset}). */
    public long lastOffset() {
        return entries() == 0 ? baseOffset() : offset(entries() - 1);
    }

    /**
     * The slot of the largest entry whose offset is at most {@code targetOffset}, or -1 when there
     * is none (Kafka then starts at the segment's first byte).
     */
    public int lookupSlot(long targetOffset) {
        return largestLowerBoundSlot(targetOffset, entries());
    }

    /**
     * Kafka's {@code OffsetIndex.lookup}: the largest entry whose offset is at most
     * {@code targetOffset}, else (base offset, 0). A reader then scans batches from that position.
     */
    public OffsetPosition lookup(long targetOffset) {
        int slot = lookupSlot(targetOffset);
        return slot < 0 ? new OffsetPosition(baseOffset(), 0) : new OffsetPosition(offset(slot), position(slot));
    }

    @Override
    protected boolean isZeroSlot(int slot) {
        return slotLong(slot, 0) == 0L;
    }

    @Override
    protected long key(int slot) {
        return baseOffset() + slotInt(slot, RELATIVE_OFFSET);
    }

    @Override
    protected void checkEntries(List<FormatException> findings) {
        for (int i = 0; i < entries() && findings.size() < MAX_FINDINGS; i++) {
            long pos = slotPosition(i, ENTRY_SIZE);
            int rel = relativeOffset(i);
            int position = position(i);
            if (rel < 0) {
                findings.add(error(Violation.INDEX_OFFSET_RANGE, pos).field("relativeOffset")
                        .expected(">= 0 (offset >= base offset " + baseOffset() + ")").actual(rel).build());
            }
            if (position < 0) {
                findings.add(error(Violation.INDEX_OFFSET_RANGE, pos + POSITION).field("position")
                        .expected(">= 0").actual(position).build());
            }
            if (i > 0) {
                int prevRel = relativeOffset(i - 1);
                if (rel <= prevRel) {
                    findings.add(error(Violation.INDEX_ORDER, pos).field("relativeOffset")
                            .expected("> " + prevRel + " (entry " + (i - 1) + ")").actual(rel).build());
                }
                int prevPosition = position(i - 1);
                if (position <= prevPosition) {
                    findings.add(error(Violation.INDEX_ORDER, pos + POSITION).field("position")
                            .expected("> " + prevPosition + " (entry " + (i - 1) + ")").actual(position).build());
                }
            }
        }
    }

    /**
     * Kafka's {@code OffsetIndex.sanityCheck} as it runs on a freshly opened file: last slot's
     * offset below the base offset, then the length. A zero tail passes (its last offset equals
     * the base offset).
     */
    @Override
    public Optional<FormatException> kafkaSanityCheck() {
        if (slots() != 0) {
            int last = slots() - 1;
            long lastOffset = offset(last);
            if (lastOffset < baseOffset()) {
                return Optional.of(error(Violation.INDEX_OFFSET_RANGE, slotPosition(last, ENTRY_SIZE))
                        .field("relativeOffset").expected(">= base offset " + baseOffset()).actual(lastOffset).build());
            }
        }
        return kafkaLengthCheck();
    }
}
