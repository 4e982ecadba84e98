package io.segscope.format.record;

import io.segscope.format.error.Violation;
import io.segscope.format.io.Cursor;

import java.nio.ByteBuffer;

/**
 * A magic-2 record, read in place (docs/format.md 1.3):
 *
 * <pre>
 * length          varint   bytes of the body that follows
 * attributes      int8     unused
 * timestampDelta  varlong  timestamp = batch baseTimestamp + delta (LogAppendTime: batch maxTimestamp)
 * offsetDelta     varint   offset = batch baseOffset + delta
 * keyLength       varint   -1 = null
 * key             bytes
 * valueLength     varint   -1 = null (tombstone)
 * value           bytes
 * headersCount    varint
 * headers         [keyLength varint, key, valueLength varint (-1 = null), value]
 * </pre>
 *
 * Parsing validates exactly what Kafka's {@code DefaultRecord.readFrom} validates, and the whole
 * record, headers included, so that later accessors cannot fail.
 */
public final class RecordView implements LogRecord {
    private final HeaderIterator headers = new HeaderIterator();
    private BatchView batch;
    private ByteBuffer buf;
    private int start;
    private int end;
    private byte attributes;
    private long timestampDelta;
    private int offsetDelta;
    private int keyOffset;
    private int keyLength;
    private int valueOffset;
    private int valueLength;
    private int headerCount;
    private int headersStart;

    /** Parses the record at the cursor and moves the cursor past it. */
    void parse(Cursor c, BatchView batch) {
        this.batch = batch;
        this.buf = c.buffer();
        this.start = c.index();
        int length = c.varint("length");
        if (length < 0 || length > c.remaining()) {
            throw c.fail(Violation.INVALID_RECORD, "length", "0.." + c.remaining(), length);
        }
        end = c.index() + length;
        int outerLimit = c.limit();
        c.limit(end);
        attributes = c.int8("attributes");
        timestampDelta = c.varlong("timestampDelta");
        offsetDelta = c.varint("offsetDelta");
        keyLength = c.varint("keyLength");
        if (keyLength >= 0) {
            keyOffset = c.index();
            c.skip(keyLength, "key");
        } else {
            keyLength = -1;
            keyOffset = c.index();
        }
        valueLength = c.varint("valueLength");
        if (valueLength >= 0) {
            valueOffset = c.index();
            c.skip(valueLength, "value");
        } else {
            valueLength = -1;
            valueOffset = c.index();
        }
        headerCount = c.varint("headersCount");
        if (headerCount < 0 || headerCount > c.remaining()) {
            throw c.fail(Violation.INVALID_RECORD, "headersCount", "0.." + c.remaining(), headerCount);
        }
        headersStart = c.index();
        for (int i = 0; i < headerCount; i++) {
            int k = c.varint("headerKeyLength");
            if (k < 0) {
                throw c.fail(Violation.INVALID_RECORD, "headerKeyLength", ">= 0", k);
            }
            c.skip(k, "headerKey");
            int v = c.varint("headerValueLength");
            if (v >= 0) {
                c.skip(v, "headerValue");
            }
        }
        if (c.index() != end) {
            throw c.fail(Violation.INVALID_RECORD, "length", length, c.index() - (end - length));
        }
        c.limit(outerLimit);
    }

    public byte attributesByte() { return attributes; }
    public long timestampDelta() { return timestampDelta; }
    public int offsetDelta() { return offsetDelta; }

    @Override
    public long offset() {
        return batch.baseOffset() + offsetDelta;
    }

    @Override
    public long timestamp() {
        return batch.timestampType() == TimestampType.LOG_APPEND_TIME
                ? batch.maxTimestamp() : batch.baseTimestamp() + timestampDelta;
    }

    @Override
    public TimestampType timestampType() {
        return batch.timestampType();
    }

    @Override
    public int sequence() {
        int base = batch.baseSequence();
        return base < 0 ? -1 : Sequences.increment(base, offsetDelta);
    }

    @Override
    public int sizeInBytes() { return end - start; }
    @Override
    public ByteBuffer buffer() { return buf; }
    @Override
    public boolean hasKey() { return keyLength >= 0; }
    @Override
    public int keyOffset() { return keyOffset; }
    @Override
    public int keyLength() { return keyLength; }
    @Override
    public boolean hasValue() { return valueLength >= 0; }
    @Override
    public int valueOffset() { return valueOffset; }
    @Override
    public int valueLength() { return valueLength; }
    @Override
    public int headerCount() { return headerCount; }

    @Override
    public HeaderIterator headers() {
        return headers.reset(buf, headersStart, end, headerCount);
    }

    @Override
    public long checksumOrMinusOne() { return -1; }

    @Override
    public boolean isValid() { return true; }
}
