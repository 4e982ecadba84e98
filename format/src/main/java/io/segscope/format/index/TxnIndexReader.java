package io.segscope.format.index;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a {@code .txnindex} file (docs/format.md 1.8): one 34-byte entry per aborted transaction
 * whose ABORT marker lies in the segment, each the generated message {@code AbortedTxn} written
 * version-prefixed.
 *
 * <pre>
 * entry byte  size  field
 *   0          2    version          int16 (0)
 *   2          8    producerId       int64
 *  10          8    firstOffset      int64 (may lie in an earlier segment)
 *  18          8    lastOffset       int64 (the ABORT marker)
 *  26          8    lastStableOffset int64
 * </pre>
 *
 * <p>The file is appended through a channel, never preallocated. A length that is not a multiple
 * of 34 means the last append was torn; Kafka's iterator silently stops before the partial entry,
 * and so does {@link #entries()}, while {@link #sanityCheck()} reports it.
 */
public final class TxnIndexReader {
    public static final int ENTRY_SIZE = 34;
    public static final int VERSION = 0;
    public static final int PRODUCER_ID = 2;
    public static final int FIRST_OFFSET = 10;
    public static final int LAST_OFFSET = 18;
    public static final int LAST_STABLE_OFFSET = 26;
    /** The only AbortedTxn version Kafka 4.4.0 reads. */
    public static final short CURRENT_VERSION = 0;

    private final SourceWindow window = new SourceWindow();
    private ByteBuffer buf;
    private int base;
    private int entries;

    /** Resets this reader onto {@code source}, the txn index of the segment starting at {@code baseOffset}. */
    public TxnIndexReader wrap(ByteSource source, long baseOffset) {
        window.reset(source, baseOffset);
        this.buf = window.buffer();
        this.base = window.base();
        this.entries = (int) (window.size() / ENTRY_SIZE);
        return this;
    }

    public String fileName() {
        return window.name();
    }

    public long baseOffset() {
        return window.baseOffset();
    }

    public long sizeInBytes() {
        return window.size();
    }

    /** Whole entries in the file (a torn partial entry at the end is not counted). */
    public int entries() {
        return entries;
    }

    /** Bytes of a torn partial entry at the end of the file, 0 when the file is whole. */
    public int partialBytes() {
        return (int) (window.size() - (long) entries * ENTRY_SIZE);
    }

    public short version(int i) {
        return buf.getShort(at(i) + VERSION);
    }

    public long producerId(int i) {
        return buf.getLong(at(i) + PRODUCER_ID);
    }

    public long firstOffset(int i) {
        return buf.getLong(at(i) + FIRST_OFFSET);
    }

    public long lastOffset(int i) {
        return buf.getLong(at(i) + LAST_OFFSET);
    }

    public long lastStableOffset(int i) {
        return buf.getLong(at(i) + LAST_STABLE_OFFSET);
    }

    private int at(int i) {
        if (i < 0 || i >= entries) {
            throw new IndexOutOfBoundsException("entry " + i + " of " + fileName() + " which has " + entries + " entries");
        }
        return base + i * ENTRY_SIZE;
    }

    /**
     * Kafka's {@code TransactionIndex.collectAbortedTxns}: the slots of the transactions that
     * overlap [fetchOffset, upperBoundOffset), scanning in file order and stopping after the first
     * entry whose last stable offset reaches the upper bound.
     *
     * @return the matching slots; {@link #searchComplete} tells whether the scan stopped early
     */
    public int[] collectAbortedTxns(long fetchOffset, long upperBoundOffset) {
        int[] out = new int[entries];
        int n = 0;
        for (int i = 0; i < entries; i++) {
            if (lastOffset(i) >= fetchOffset && firstOffset(i) < upperBoundOffset) {
                out[n++] = i;
            }
            if (lastStableOffset(i) >= upperBoundOffset) {
                break;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** True when some entry's last stable offset reaches {@code upperBoundOffset} (Kafka's {@code isComplete}). */
    public boolean searchComplete(long upperBoundOffset) {
        for (int i = 0; i < entries; i++) {
            if (lastStableOffset(i) >= upperBoundOffset) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every problem, each with the byte position of its entry and the field: a version other than
     * 0 (Kafka 4.4.0 throws on it when it iterates), lastOffset not strictly increasing (Kafka
     * refuses such an append), lastOffset below the base offset (Kafka's {@code sanityCheck}), and
     * a torn partial entry at the end.
     */
    public List<FormatException> sanityCheck() {
        List<FormatException> findings = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            long pos = (long) i * ENTRY_SIZE;
            if (findings.size() >= FixedSizeIndexReader.MAX_FINDINGS) {
                // a garbage file of many entries: bounded, as the fixed-size indexes are
                findings.add(error(findings.get(findings.size() - 1).violation(), pos).note("checking stopped after "
                        + FixedSizeIndexReader.MAX_FINDINGS + " findings: the entries from here on were not checked").build());
                break;
            }
            short version = version(i);
            if (version != CURRENT_VERSION) {
                findings.add(error(Violation.INDEX_VERSION, pos + VERSION).field("version")
                        .expected(CURRENT_VERSION).actual(version).build());
            }
            long last = lastOffset(i);
            if (last < window.baseOffset()) {
                findings.add(error(Violation.INDEX_OFFSET_RANGE, pos + LAST_OFFSET).field("lastOffset")
                        .expected(">= base offset " + window.baseOffset()).actual(last).build());
            }
            if (i > 0 && last <= lastOffset(i - 1)) {
                findings.add(error(Violation.INDEX_ORDER, pos + LAST_OFFSET).field("lastOffset")
                        .expected("> " + lastOffset(i - 1) + " (entry " + (i - 1) + ")").actual(last).build());
            }
        }
        if (partialBytes() != 0) {
            findings.add(error(Violation.TRUNCATED, (long) entries * ENTRY_SIZE).field("entry " + entries)
                    .expected(ENTRY_SIZE + " bytes").actual(partialBytes() + " bytes")
                    .note("torn append; Kafka ignores the partial entry").build());
        }
        return findings;
    }

    /** Throws the first finding of {@link #sanityCheck()}, if any. */
    public void ensureValid() {
        List<FormatException> findings = sanityCheck();
        if (!findings.isEmpty()) {
            throw findings.get(0);
        }
    }

    private FormatException.Builder error(Violation v, long position) {
        return FormatException.at(v, fileName(), position).baseOffset(window.baseOffset());
    }
}
