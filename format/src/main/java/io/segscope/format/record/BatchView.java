package io.segscope.format.record;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.Checksums;
import io.segscope.format.io.Cursor;

import java.nio.ByteBuffer;

/**
 * A magic-2 record batch, read in place (docs/format.md 1.2):
 *
 * <pre>
 * off size field
 *   0   8  baseOffset
 *   8   4  batchLength            bytes after this field; batch size = batchLength + 12
 *  12   4  partitionLeaderEpoch   not covered by the CRC
 *  16   1  magic                  2
 *  17   4  crc                    CRC-32C of [21, end)
 *  21   2  attributes             codec 0-2, timestampType 3, transactional 4, control 5, deleteHorizon 6
 *  23   4  lastOffsetDelta
 *  27   8  baseTimestamp          the delete horizon when attribute bit 6 is set
 *  35   8  maxTimestamp
 *  43   8  producerId
 *  51   2  producerEpoch
 *  53   4  baseSequence
 *  57   4  recordsCount
 *  61      records                compressed as one stream when codec != 0
 * </pre>
 */
public final class BatchView implements Batch {
    public static final int BASE_OFFSET_OFFSET = 0;
    public static final int LENGTH_OFFSET = 8;
    public static final int PARTITION_LEADER_EPOCH_OFFSET = 12;
    public static final int MAGIC_OFFSET = 16;
    public static final int CRC_OFFSET = 17;
    public static final int ATTRIBUTES_OFFSET = 21;
    public static final int LAST_OFFSET_DELTA_OFFSET = 23;
    public static final int BASE_TIMESTAMP_OFFSET = 27;
    public static final int MAX_TIMESTAMP_OFFSET = 35;
    public static final int PRODUCER_ID_OFFSET = 43;
    public static final int PRODUCER_EPOCH_OFFSET = 51;
    public static final int BASE_SEQUENCE_OFFSET = 53;
    public static final int RECORDS_COUNT_OFFSET = 57;
    public static final int RECORDS_OFFSET = 61;
    /** Smallest legal batch: the header with no records. */
    public static final int RECORD_BATCH_OVERHEAD = RECORDS_OFFSET;
    /** offset (8) + length (4). */
    public static final int LOG_OVERHEAD = 12;

    static final int COMPRESSION_MASK = 0x07;
    static final int TIMESTAMP_TYPE_MASK = 0x08;
    static final int TRANSACTIONAL_MASK = 0x10;
    static final int CONTROL_MASK = 0x20;
    static final int DELETE_HORIZON_MASK = 0x40;

    private final Checksums checksums;
    private final Decompressor decompressor;
    private final Records records = new Records();
    private String file;
    private ByteBuffer buf;
    private int base;
    private long position;
    private int size;
    // the computed CRC, or -1 until asked for
    private long crc;

    BatchView(Checksums checksums, Decompressor decompressor) {
        this.checksums = checksums;
        this.decompressor = decompressor;
    }

    /** Points the view at a batch of {@code size} bytes at {@code index} of {@code buf}. */
    BatchView wrap(String file, ByteBuffer buf, int index, long position, int size) {
        this.file = file;
        this.buf = buf;
        this.base = index;
        this.position = position;
        this.size = size;
        this.crc = -1;
        return this;
    }

    /** The buffer and index where this batch's bytes start (for copying or hashing). */
    public ByteBuffer buffer() { return buf; }
    public int index() { return base; }

    @Override public String file() { return file; }
    @Override public long position() { return position; }
    @Override public int sizeInBytes() { return size; }
    @Override public byte magic() { return buf.get(base + MAGIC_OFFSET); }
    @Override public long baseOffset() { return buf.getLong(base + BASE_OFFSET_OFFSET); }
    public int batchLength() { return buf.getInt(base + LENGTH_OFFSET); }
    public int lastOffsetDelta() { return buf.getInt(base + LAST_OFFSET_DELTA_OFFSET); }
    @Override public long lastOffset() { return baseOffset() + lastOffsetDelta(); }

    /** Kafka reads the attributes as int16 and uses the low byte. */
    @Override public int attributes() { return buf.getShort(base + ATTRIBUTES_OFFSET); }

    @Override
    public CompressionType compression() {
        return CompressionType.forId(attributes() & COMPRESSION_MASK);
    }

    /** The raw codec id (0..7): ids 5-7 are not Kafka codecs. */
    public int compressionId() {
        return attributes() & COMPRESSION_MASK;
    }

    @Override
    public TimestampType timestampType() {
        return (attributes() & TIMESTAMP_TYPE_MASK) == 0 ? TimestampType.CREATE_TIME : TimestampType.LOG_APPEND_TIME;
    }

    @Override public long baseTimestamp() { return buf.getLong(base + BASE_TIMESTAMP_OFFSET); }
    @Override public long maxTimestamp() { return buf.getLong(base + MAX_TIMESTAMP_OFFSET); }
    @Override public long producerId() { return buf.getLong(base + PRODUCER_ID_OFFSET); }
    @Override public short producerEpoch() { return buf.getShort(base + PRODUCER_EPOCH_OFFSET); }
    @Override public int baseSequence() { return buf.getInt(base + BASE_SEQUENCE_OFFSET); }

    @Override
    public int lastSequence() {
        int baseSequence = baseSequence();
        return baseSequence == -1 ? -1 : Sequences.increment(baseSequence, lastOffsetDelta());
    }

    @Override public int partitionLeaderEpoch() { return buf.getInt(base + PARTITION_LEADER_EPOCH_OFFSET); }
    @Override public boolean isTransactional() { return (attributes() & TRANSACTIONAL_MASK) != 0; }
    @Override public boolean isControl() { return (attributes() & CONTROL_MASK) != 0; }
    @Override public boolean hasDeleteHorizon() { return (attributes() & DELETE_HORIZON_MASK) != 0; }
    @Override public long deleteHorizonMs() { return hasDeleteHorizon() ? baseTimestamp() : -1L; }
    public int recordsCount() { return buf.getInt(base + RECORDS_COUNT_OFFSET); }
    @Override public int countOrMinusOne() { return recordsCount(); }
    @Override public long storedCrc() { return Integer.toUnsignedLong(buf.getInt(base + CRC_OFFSET)); }

    @Override
    public long computedCrc() {
        // computed once per batch: writers ask per record (jsonl's crcValid), the walk once more
        if (crc < 0) {
            crc = checksums.crc32c(buf, base + ATTRIBUTES_OFFSET, base + size);
        }
        return crc;
    }

    @Override
    public boolean isValid() {
        return size >= RECORD_BATCH_OVERHEAD && storedCrc() == computedCrc();
    }

    @Override
    public void ensureValid() {
        long stored = storedCrc();
        long computed = computedCrc();
        if (stored != computed) {
            throw FormatException.at(Violation.CRC_MISMATCH, file, position).baseOffset(baseOffset()).field("crc")
                    .expected(String.format("0x%08x", computed)).actual(String.format("0x%08x", stored))
                    .note("stored CRC-32C differs from the one computed over attributes..end").build();
        }
    }

    @Override
    public RecordIterator records() {
        return records.reset();
    }

    /** Walks the records of this batch, decompressing into the reader's reused buffer first. */
    private final class Records implements RecordIterator {
        private final Cursor cursor = new Cursor();
        private final RecordView record = new RecordView();
        private int count;
        private int read;

        Records reset() {
            long baseOffset = baseOffset();
            count = recordsCount();
            read = 0;
            if (count < 0) {
                throw FormatException.at(Violation.INVALID_RECORD_COUNT, file, position).baseOffset(baseOffset)
                        .field("recordsCount").expected(">= 0").actual(count).build();
            }
            int codecId = compressionId();
            CompressionType codec = CompressionType.forId(codecId);
            if (codec == null) {
                throw FormatException.at(Violation.UNSUPPORTED_COMPRESSION, file, position).baseOffset(baseOffset)
                        .field("attributes.compression").expected("0..4").actual(codecId).build();
            }
            if (codec == CompressionType.NONE) {
                cursor.wrap(buf, base + RECORDS_OFFSET, base + size);
            } else {
                int n = decompressor.decompress(codec, (byte) 2, buf, base + RECORDS_OFFSET, base + size,
                        file, position, baseOffset);
                cursor.wrap(decompressor.output(), 0, n);
            }
            cursor.context(file, position, baseOffset, Violation.INVALID_RECORD);
            return this;
        }

        @Override
        public boolean next() {
            if (read == count) {
                if (cursor.remaining() != 0) {
                    throw FormatException.at(Violation.RECORDS_REMAINING, file, position).baseOffset(baseOffset())
                            .field("recordsCount").expected(count).actual("more bytes after " + count + " records ("
                                    + cursor.remaining() + " left)").build();
                }
                return false;
            }
            if (cursor.remaining() == 0) {
                throw FormatException.at(Violation.INVALID_RECORD_COUNT, file, position).baseOffset(baseOffset())
                        .field("recordsCount").expected(count).actual(read)
                        .note("premature end of records").build();
            }
            record.parse(cursor, BatchView.this);
            read++;
            return true;
        }

        @Override
        public LogRecord record() {
            return record;
        }
    }
}
