package io.segscope.format.record;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.Checksums;

import java.nio.ByteBuffer;

/**
 * A magic 0 or 1 message, read in place (docs/format.md 1.4). Offsets are relative to the
 * message start, which follows the 12-byte entry header (offset int64, size int32):
 *
 * <pre>
 * off    size field
 *   0      4  crc          CRC-32 (not 32C) of [4, end)
 *   4      1  magic        0 or 1
 *   5      1  attributes   codec 0-2, timestampType 3 (v1 only)
 *   6      8  timestamp    v1 only
 *   6/14   4  keyLength    -1 = null
 *          k  key
 *          4  valueLength  -1 = null
 *          v  value        for a compressed wrapper: a whole compressed message set
 * </pre>
 *
 * Serves both as a plain message and, inside a compressed wrapper, as an inner message; the
 * offset and timestamp it reports are set by whoever wraps it, following Kafka's rules for
 * inner messages (absolute offsets in v0 wrappers, relative in v1; LogAppendTime wrappers
 * stamp every inner message with their own time).
 */
public final class LegacyMessageView implements LogRecord {
    public static final int CRC_OFFSET = 0;
    public static final int MAGIC_OFFSET = 4;
    public static final int ATTRIBUTES_OFFSET = 5;
    public static final int TIMESTAMP_OFFSET = 6;
    public static final int KEY_SIZE_OFFSET_V0 = 6;
    public static final int KEY_SIZE_OFFSET_V1 = 14;
    /** Smallest v0 message: crc, magic, attributes, key and value lengths. */
    public static final int RECORD_OVERHEAD_V0 = 14;
    public static final int RECORD_OVERHEAD_V1 = 22;

    private final HeaderIterator noHeaders = new HeaderIterator();

    private final Checksums checksums;
    private ByteBuffer buf;
    private int msg;
    private int size;
    private long offset;
    private long timestamp;
    private TimestampType timestampType;
    private int keyLength;
    private int keyOffset;
    private int valueLength;
    private int valueOffset;
    /** Structural damage found by a lenient wrap, thrown when the contents are asked for. */
    private FormatException problem;

    LegacyMessageView(Checksums checksums) {
        this.checksums = checksums;
    }

    /**
     * Points at the message of {@code size} bytes at {@code msg} and checks that its key and
     * value fit. {@code wrapperType} is null for a message that stands alone.
     */
    LegacyMessageView wrap(ByteBuffer buf, int msg, int size, long offset, TimestampType wrapperType,
                           long wrapperTimestamp, String file, long position) {
        wrapLenient(buf, msg, size, offset, wrapperType, wrapperTimestamp, file, position);
        check();
        return this;
    }

    /** Throws the damage a lenient wrap found, if any. */
    void check() {
        if (problem != null) {
            throw problem;
        }
    }

    /**
     * Like {@link #wrap} but keeps structural damage for {@link #check()}: a shallow walk, like
     * Kafka's, does not look inside a message until its contents are asked for.
     */
    LegacyMessageView wrapLenient(ByteBuffer buf, int msg, int size, long offset, TimestampType wrapperType,
                                  long wrapperTimestamp, String file, long position) {
        this.problem = null;
        this.buf = buf;
        this.msg = msg;
        this.size = size;
        this.offset = offset;
        byte magic = magic();
        int keySizeOffset = magic == 0 ? KEY_SIZE_OFFSET_V0 : KEY_SIZE_OFFSET_V1;
        int overhead = magic == 0 ? RECORD_OVERHEAD_V0 : RECORD_OVERHEAD_V1;
        if (size < overhead) {
            keyLength = -1;
            valueLength = -1;
            keyOffset = valueOffset = msg;
            timestamp = -1L;
            timestampType = magic == 0 ? TimestampType.NO_TIMESTAMP_TYPE : TimestampType.CREATE_TIME;
            problem = FormatException.at(Violation.BATCH_TOO_SMALL, file, position).baseOffset(offset)
                    .field("size").expected(">= " + overhead + " for magic " + magic).actual(size).build();
            return this;
        }
        int end = msg + size;
        int p = msg + keySizeOffset;
        keyLength = buf.getInt(p);
        keyOffset = p + 4;
        if (keyLength > end - keyOffset - 4) {
            problem = FormatException.at(Violation.INVALID_RECORD, file, position).baseOffset(offset)
                    .field("keyLength").expected("<= " + (end - keyOffset - 4)).actual(keyLength).build();
            keyLength = -1;
            valueLength = -1;
        }
        if (keyLength < 0) {
            keyLength = -1;
        }
        if (problem == null) {
            p = keyOffset + Math.max(keyLength, 0);
            valueLength = buf.getInt(p);
            valueOffset = p + 4;
            if (valueLength > end - valueOffset) {
                problem = FormatException.at(Violation.INVALID_RECORD, file, position).baseOffset(offset)
                        .field("valueLength").expected("<= " + (end - valueOffset)).actual(valueLength).build();
                valueLength = -1;
            }
        }
        if (valueLength < 0) {
            valueLength = -1;
        }
        if (magic == 0) {
            timestamp = -1L;
            timestampType = TimestampType.NO_TIMESTAMP_TYPE;
        } else if (wrapperType != null) {
            timestampType = wrapperType;
            timestamp = wrapperType == TimestampType.LOG_APPEND_TIME ? wrapperTimestamp : ownTimestamp();
        } else {
            timestampType = (attributesByte() & BatchView.TIMESTAMP_TYPE_MASK) == 0
                    ? TimestampType.CREATE_TIME : TimestampType.LOG_APPEND_TIME;
            timestamp = ownTimestamp();
        }
        return this;
    }

    /** The timestamp field itself (v1), ignoring any wrapper. */
    public long ownTimestamp() {
        return magic() == 0 ? -1L : buf.getLong(msg + TIMESTAMP_OFFSET);
    }

    public byte magic() { return buf.get(msg + MAGIC_OFFSET); }
    public byte attributesByte() { return buf.get(msg + ATTRIBUTES_OFFSET); }
    public int compressionId() { return attributesByte() & BatchView.COMPRESSION_MASK; }
    public long storedCrc() { return Integer.toUnsignedLong(buf.getInt(msg + CRC_OFFSET)); }

    public long computedCrc() {
        return checksums.crc32(buf, msg + MAGIC_OFFSET, msg + size);
    }

    @Override public long offset() { return offset; }
    @Override public long timestamp() { return timestamp; }
    @Override public TimestampType timestampType() { return timestampType; }
    @Override public int sequence() { return -1; }
    /** Size of the entry: 12 header bytes plus the message. */
    @Override public int sizeInBytes() { return size + BatchView.LOG_OVERHEAD; }
    /** Size of the message alone (Kafka's LegacyRecord.sizeInBytes). */
    public int messageSize() { return size; }
    @Override public ByteBuffer buffer() { return buf; }
    @Override public boolean hasKey() { return keyLength >= 0; }
    @Override public int keyOffset() { return keyOffset; }
    @Override public int keyLength() { return keyLength; }
    @Override public boolean hasValue() { return valueLength >= 0; }
    @Override public int valueOffset() { return valueOffset; }
    @Override public int valueLength() { return valueLength; }
    @Override public int headerCount() { return 0; }
    @Override public HeaderIterator headers() { return noHeaders.reset(buf, 0, 0, 0); }
    @Override public long checksumOrMinusOne() { return storedCrc(); }
    @Override public boolean isValid() { return size >= RECORD_OVERHEAD_V0 && storedCrc() == computedCrc(); }
}
