package io.segscope.format.state;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads a producer-state {@code .snapshot} file (docs/format.md 1.9): the generated message
 * {@code ProducerSnapshot} v1, version-prefixed, with a CRC-32C over everything after the CRC.
 *
 * <pre>
 * byte  size     field
 *   0    2       version  int16 (1)
 *   2    4       crc      uint32, CRC-32C over [6, end of file)
 *   6    4       count    int32
 *  10    46 * n  entries:
 *                  +0 producerId int64, +8 epoch int16, +10 lastSequence int32, +14 lastOffset int64,
 *                  +22 offsetDelta int32, +26 timestamp int64, +34 coordinatorEpoch int32,
 *                  +38 currentTxnFirstOffset int64
 * </pre>
 *
 * <p>{@link #wrap} checks what Kafka's schema parse checks (version, count, that the entries are
 * all there) in Kafka's order, and throws a typed error; the CRC is checked on demand by
 * {@link #verifyCrc()}, since Kafka checks it after the parse. Bytes after the last entry are
 * covered by the CRC and ignored by Kafka's parse; {@link #trailingBytes()} tells how many.
 */
public final class ProducerSnapshotReader {
    public static final int VERSION_OFFSET = 0;
    public static final int CRC_OFFSET = 2;
    public static final int COUNT_OFFSET = 6;
    public static final int ENTRIES_OFFSET = 10;
    public static final int ENTRY_SIZE = 46;
    public static final short CURRENT_VERSION = 1;

    public static final int PRODUCER_ID = 0;
    public static final int EPOCH = 8;
    public static final int LAST_SEQUENCE = 10;
    public static final int LAST_OFFSET = 14;
    public static final int OFFSET_DELTA = 22;
    public static final int TIMESTAMP = 26;
    public static final int COORDINATOR_EPOCH = 34;
    public static final int CURRENT_TXN_FIRST_OFFSET = 38;

    private String file;
    private ByteBuffer buf;
    private int base;
    private long size;
    private int count;

    /**
     * Resets this reader onto a snapshot file and checks its structure.
     *
     * @throws FormatException {@code truncated} when the header or an entry is cut short,
     *     {@code snapshot-version} for a version other than 1, {@code snapshot-size} for a
     *     negative count
     */
    public ProducerSnapshotReader wrap(ByteSource source) {
        this.file = source.name();
        byte[] bytes = SmallFiles.readAll(source);
        this.buf = ByteBuffer.wrap(bytes);
        this.base = 0;
        this.size = bytes.length;
        if (size < CRC_OFFSET) {
            throw truncated(VERSION_OFFSET, "version", 2);
        }
        short version = buf.getShort(base + VERSION_OFFSET);
        if (version != CURRENT_VERSION) {
            throw FormatException.at(Violation.SNAPSHOT_VERSION, file, VERSION_OFFSET).field("version")
                    .expected(CURRENT_VERSION).actual(version).build();
        }
        if (size < COUNT_OFFSET) {
            throw truncated(CRC_OFFSET, "crc", 4);
        }
        if (size < ENTRIES_OFFSET) {
            throw truncated(COUNT_OFFSET, "count", 4);
        }
        int n = buf.getInt(base + COUNT_OFFSET);
        if (n < 0) {
            throw FormatException.at(Violation.SNAPSHOT_SIZE, file, COUNT_OFFSET).field("count")
                    .expected(">= 0").actual(n).build();
        }
        long whole = (size - ENTRIES_OFFSET) / ENTRY_SIZE;
        if (n > whole) {
            long at = ENTRIES_OFFSET + whole * ENTRY_SIZE;
            throw FormatException.at(Violation.TRUNCATED, file, at).field("producerEntries[" + whole + "]")
                    .expected(n + " entries (" + (ENTRIES_OFFSET + (long) n * ENTRY_SIZE) + " bytes)")
                    .actual(size + " bytes").build();
        }
        this.count = n;
        return this;
    }

    private FormatException truncated(long position, String field, int bytes) {
        return FormatException.at(Violation.TRUNCATED, file, position).field(field)
                .expected(bytes + " bytes").actual((size - position) + " bytes").build();
    }

    public String fileName() {
        return file;
    }

    public short version() {
        return buf.getShort(base + VERSION_OFFSET);
    }

    /** The stored CRC, unsigned. */
    public long storedCrc() {
        return Integer.toUnsignedLong(buf.getInt(base + CRC_OFFSET));
    }

    /** CRC-32C over [6, end of file), as Kafka computes it. */
    public long computedCrc() {
        CRC32C crc = new CRC32C();
        ByteBuffer range = buf.duplicate();
        range.limit(base + (int) size).position(base + COUNT_OFFSET);
        crc.update(range);
        return crc.getValue();
    }

    public boolean isCrcValid() {
        return storedCrc() == computedCrc();
    }

    /** Throws {@code crc-mismatch} (position 2, field crc) when the stored CRC is wrong. */
    public void verifyCrc() {
        long computed = computedCrc();
        if (storedCrc() != computed) {
            throw crcMismatch(computed);
        }
    }

    private FormatException crcMismatch(long computed) {
        return FormatException.at(Violation.CRC_MISMATCH, file, CRC_OFFSET).field("crc")
                .expected(String.format("0x%08x", computed)).actual(String.format("0x%08x", storedCrc()))
                .note("Kafka deletes such a snapshot and rebuilds producer state from the log").build();
    }

    /** Number of producer entries. */
    public int count() {
        return count;
    }

    /** Bytes after the last entry (0 in every file Kafka writes). */
    public long trailingBytes() {
        return size - ENTRIES_OFFSET - (long) count * ENTRY_SIZE;
    }

    private int at(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("entry " + i + " of " + file + " which has " + count);
        }
        return base + ENTRIES_OFFSET + i * ENTRY_SIZE;
    }

    public long producerId(int i) {
        return buf.getLong(at(i) + PRODUCER_ID);
    }

    public short epoch(int i) {
        return buf.getShort(at(i) + EPOCH);
    }

    public int lastSequence(int i) {
        return buf.getInt(at(i) + LAST_SEQUENCE);
    }

    public long lastOffset(int i) {
        return buf.getLong(at(i) + LAST_OFFSET);
    }

    public int offsetDelta(int i) {
        return buf.getInt(at(i) + OFFSET_DELTA);
    }

    public long timestamp(int i) {
        return buf.getLong(at(i) + TIMESTAMP);
    }

    public int coordinatorEpoch(int i) {
        return buf.getInt(at(i) + COORDINATOR_EPOCH);
    }

    public long currentTxnFirstOffset(int i) {
        return buf.getLong(at(i) + CURRENT_TXN_FIRST_OFFSET);
    }

    public ProducerSnapshotEntry entry(int i) {
        return new ProducerSnapshotEntry(producerId(i), epoch(i), lastSequence(i), lastOffset(i), offsetDelta(i),
                timestamp(i), coordinatorEpoch(i), currentTxnFirstOffset(i));
    }

    /** Every entry as a record, in file order. */
    public List<ProducerSnapshotEntry> entries() {
        List<ProducerSnapshotEntry> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(entry(i));
        }
        return out;
    }

    /** Problems that do not stop reading: a CRC mismatch and bytes after the last entry. */
    public List<FormatException> findings() {
        List<FormatException> out = new ArrayList<>();
        long computed = computedCrc();
        if (storedCrc() != computed) {
            out.add(crcMismatch(computed));
        }
        if (trailingBytes() != 0) {
            out.add(FormatException.at(Violation.SNAPSHOT_SIZE, file, ENTRIES_OFFSET + (long) count * ENTRY_SIZE)
                    .field("size").expected((ENTRIES_OFFSET + (long) count * ENTRY_SIZE) + " bytes")
                    .actual(size + " bytes").note("bytes after the last entry; Kafka's parse ignores them").build());
        }
        return out;
    }
}
