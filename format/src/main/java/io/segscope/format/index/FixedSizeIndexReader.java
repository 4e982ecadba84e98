package io.segscope.format.index;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the offset index and the time index share (docs/format.md 1.8): fixed-size big-endian
 * entries, a file that may be preallocated with a zero-filled tail, Kafka's search for the
 * largest entry whose key is at most a target, and the sanity checks.
 *
 * <p>A reader is a flyweight: {@link #wrap} resets it onto another file, nothing is allocated per
 * entry, and every accessor is an absolute read from the source's buffer.
 *
 * <p><b>Real entries versus slots.</b> Kafka opens an existing index as if its length were exact
 * ({@code entries = length / entrySize}), which is wrong for the active segment of a broker that
 * did not shut down cleanly: its index keeps the preallocated zero tail. Kafka never writes an
 * all-zero entry (the first batch of a segment never gets an offset-index entry, and a time-index
 * entry of timestamp 0 at the base offset would need records stamped at the epoch), so the real
 * entries end at the first all-zero slot, slot 0 included. {@link #entries()} counts those;
 * {@link #slots()} counts every whole slot in the file.
 */
public abstract class FixedSizeIndexReader {
    /** Kafka binary-searches the last 8192 bytes of entries first ({@code AbstractIndex.warmEntries}). */
    private static final int WARM_SECTION_BYTES = 8192;

    private final int entrySize;
    private final int warmEntries;
    private final SourceWindow window = new SourceWindow();
    private ByteBuffer buf;
    private int base;
    private int slots;
    private int storedSlots;
    private int entries;

    protected FixedSizeIndexReader(int entrySize) {
        this.entrySize = entrySize;
        this.warmEntries = WARM_SECTION_BYTES / entrySize;
    }

    /**
     * Points this reader at an index file: a mapped or heap source is read in place; a stream (an
     * archive entry) is copied once into a buffer this reader keeps.
     */
    protected final void reset(ByteSource source, long baseOffset) {
        window.reset(source, baseOffset, true);
        this.buf = window.buffer();
        this.base = window.base();
        this.slots = (int) (window.size() / entrySize);
        this.storedSlots = (int) Math.min(slots, (window.stored() + entrySize - 1) / entrySize);
        int n = 0;
        while (n < slots && !isZeroSlot(n)) {
            n++;
        }
        this.entries = n;
    }

    /** The file name errors use. */
    public final String fileName() {
        return window.name();
    }

    /** The segment's base offset, from the file name. */
    public final long baseOffset() {
        return window.baseOffset();
    }

    /** Bytes per entry. */
    public final int entrySize() {
        return entrySize;
    }

    /** File length in bytes. */
    public final long sizeInBytes() {
        return window.size();
    }

    /** Real entries: those before the first all-zero slot. */
    public final int entries() {
        return entries;
    }

    /** Whole slots in the file, zero tail included: what Kafka counts when it opens the file. */
    public final int slots() {
        return slots;
    }

    /** Slots after the real entries (the zero tail of a preallocated, untrimmed index). */
    public final int zeroTailSlots() {
        return slots - entries;
    }

    /** True when the file holds slots past its real entries, as an active or crashed segment's index does. */
    public final boolean isPreallocated() {
        return slots > entries;
    }

    /** Bytes after the last whole slot; non-zero means the length is not a multiple of the entry size. */
    public final int partialBytes() {
        return (int) (window.size() - (long) slots * entrySize);
    }

    protected final ByteBuffer buffer() {
        return buf;
    }

    /** Buffer index of slot {@code slot}'s first byte. */
    protected final int slotIndex(int slot) {
        return base + slot * entrySize;
    }

    /** Byte position of slot {@code slot} in the file. */
    protected static long slotPosition(int slot, int entrySize) {
        return (long) slot * entrySize;
    }

    protected final void checkEntry(int i) {
        if (i < 0 || i >= slots) {
            throw new IndexOutOfBoundsException("entry " + i + " of " + fileName() + " which has " + slots + " slots");
        }
    }

    /**
     * True when slot {@code slot} lies in the buffer; a slot past a zero tail known by its length
     * ({@link ByteSource#zeroTailFrom()}) is all zero and not held: read it as zeros.
     */
    protected final boolean stored(int slot) {
        return slot < storedSlots;
    }

    /** The int at {@code offset} in slot {@code slot}, 0 in a zero tail not held. */
    protected final int slotInt(int slot, int offset) {
        int at = slotIndex(slot) + offset;
        return slot < storedSlots && at + 4 <= base + window.stored() ? buf.getInt(at) : (int) partial(at, 4);
    }

    /** The long at {@code offset} in slot {@code slot}, 0 in a zero tail not held. */
    protected final long slotLong(int slot, int offset) {
        int at = slotIndex(slot) + offset;
        return slot < storedSlots && at + 8 <= base + window.stored() ? buf.getLong(at) : partial(at, 8);
    }

    /** A big-endian value whose bytes end in (or lie in) the zero tail: the stored ones, then zeros. */
    private long partial(int at, int n) {
        long end = base + window.stored();
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = v << 8 | (at + i < end ? buf.get(at + i) & 0xFF : 0);
        }
        return v;
    }

    /** True when every byte of the slot is zero. */
    protected abstract boolean isZeroSlot(int slot);

    /** The search key of slot {@code slot}: the absolute offset, or the timestamp. */
    protected abstract long key(int slot);

    /**
     * Kafka's search for the largest entry whose key is at most {@code target}, over the first
     * {@code n} slots, with its warm section: if the target lies in the last 8 KiB of entries only
     * those are searched. Equal to a plain binary search on well-ordered entries, and, on
     * disordered ones, lands on the same slot as Kafka.
     *
     * @return the slot, or -1 when every key is larger than the target (or there are no entries)
     */
    protected final int largestLowerBoundSlot(long target, int n) {
        if (n == 0) {
            return -1;
        }
        int firstHot = Math.max(0, n - 1 - warmEntries);
        if (key(firstHot) < target) {
            return binarySearch(target, firstHot, n - 1);
        }
        if (key(0) > target) {
            return -1;
        }
        return binarySearch(target, 0, firstHot);
    }

    private int binarySearch(long target, int from, int to) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            long k = key(mid);
            if (k > target) {
                hi = mid - 1;
            } else if (k < target) {
                lo = mid;
            } else {
                return mid;
            }
        }
        return lo;
    }

    /**
     * The most findings {@link #sanityCheck()} lists (entry checks stop there, and one finding says
     * so): a garbage index of millions of entries must not be millions of findings in memory.
     */
    public static final int MAX_FINDINGS = 100;

    /**
     * Checks the real entries the way Kafka's {@code sanityCheck} and append rules would, and a
     * little more: the length is a multiple of the entry size, every entry lies at or above the
     * base offset, entries are ordered, and the preallocated tail is all zero. Each problem is
     * returned (not thrown) with the byte position of the bad entry and the field; an empty list
     * means the index is sound.
     */
    public final List<FormatException> sanityCheck() {
        List<FormatException> findings = new ArrayList<>();
        if (partialBytes() != 0) {
            findings.add(error(Violation.INDEX_SIZE, (long) slots * entrySize).field("length")
                    .expected("a multiple of " + entrySize).actual(window.size()).build());
        }
        checkEntries(findings);
        if (findings.size() >= MAX_FINDINGS) {
            FormatException last = findings.get(findings.size() - 1);
            findings.add(error(last.violation(), last.problem().position()).note("checking stopped after " + MAX_FINDINGS
                    + " findings: the entries after it were not checked").build());
        }
        for (int slot = entries; slot < slots; slot++) {
            if (!isZeroSlot(slot)) {
                findings.add(error(Violation.INDEX_TAIL_NOT_ZERO, slotPosition(slot, entrySize))
                        .field("slot " + slot).expected("all zero after the first zero slot " + entries)
                        .actual("non-zero entry").build());
                break;
            }
        }
        return findings;
    }

    /** Throws the first finding of {@link #sanityCheck()}, if any. */
    public final void ensureValid() {
        List<FormatException> findings = sanityCheck();
        if (!findings.isEmpty()) {
            throw findings.get(0);
        }
    }

    /**
     * What Kafka 4.4.0's own {@code sanityCheck} reports on this file when it opens it, i.e. with
     * every slot counted as an entry (zero tail included). Empty when Kafka would accept it.
     */
    public abstract Optional<FormatException> kafkaSanityCheck();

    /** Adds the per-entry findings (range, order) over the real entries. */
    protected abstract void checkEntries(List<FormatException> findings);

    protected final FormatException.Builder error(Violation v, long position) {
        return FormatException.at(v, fileName(), position).baseOffset(window.baseOffset());
    }

    /** The length check Kafka's sanityCheck ends with. */
    protected final Optional<FormatException> kafkaLengthCheck() {
        if (window.size() % entrySize != 0) {
            return Optional.of(error(Violation.INDEX_SIZE, (long) slots * entrySize).field("length")
                    .expected("a multiple of " + entrySize).actual(window.size()).build());
        }
        return Optional.empty();
    }
}
