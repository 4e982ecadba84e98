package io.segscope.format.io;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

import java.nio.ByteBuffer;

/**
 * A reusable read cursor over {@code [index, limit)} of a buffer: absolute gets, bounds checked
 * against the limit, varints decoded in place. It allocates nothing while reading; on bad input
 * it throws {@link FormatException} naming the file, the position to report (the batch or entry
 * holding the bytes), the base offset and the field being read.
 */
public final class Cursor {
    private ByteBuffer buf;
    private int index;
    private int limit;
    private String file;
    private long reportPosition;
    private long baseOffset;
    private Violation violation = Violation.INVALID_RECORD;

    /** Points the cursor at {@code [index, limit)} of {@code buf}. */
    public Cursor wrap(ByteBuffer buf, int index, int limit) {
        this.buf = buf;
        this.index = index;
        this.limit = limit;
        return this;
    }

    /** Context for error messages: file, file position of the enclosing batch, its base offset. */
    public Cursor context(String file, long reportPosition, long baseOffset, Violation violation) {
        this.file = file;
        this.reportPosition = reportPosition;
        this.baseOffset = baseOffset;
        this.violation = violation;
        return this;
    }

    public ByteBuffer buffer() { return buf; }
    public int index() { return index; }
    public int limit() { return limit; }
    public int remaining() { return limit - index; }

    public void index(int index) { this.index = index; }
    public void limit(int limit) { this.limit = limit; }

    /** Fails unless {@code n} bytes remain. */
    public void require(int n, String field) {
        if (n < 0 || limit - index < n) {
            throw fail(Violation.INVALID_RECORD, field, n < 0 ? ">= 0" : n + " bytes",
                    n < 0 ? String.valueOf(n) : (limit - index) + " bytes left");
        }
    }

    public void skip(int n, String field) {
        require(n, field);
        index += n;
    }

    public byte int8(String field) {
        require(1, field);
        return buf.get(index++);
    }

    public short int16(String field) {
        require(2, field);
        short v = buf.getShort(index);
        index += 2;
        return v;
    }

    public int int32(String field) {
        require(4, field);
        int v = buf.getInt(index);
        index += 4;
        return v;
    }

    public long int64(String field) {
        require(8, field);
        long v = buf.getLong(index);
        index += 8;
        return v;
    }

    /** An unsigned base-128 varint (at most 5 bytes), as Kafka's readUnsignedVarint ({@link Varints}). */
    public int unsignedVarint(String field) {
        if (index < limit) {
            byte b = buf.get(index);
            if (b >= 0) { // one byte: most lengths, deltas and counts in a record
                index++;
                return b;
            }
        }
        long packed = Varints.unsignedVarint(buf, index, limit);
        if (packed < 0) {
            throw varintFailure(packed, field, Varints.MAX_VARINT_BYTES);
        }
        index += Varints.size(packed);
        return Varints.value(packed);
    }

    /** A ZigZag varint (int32). */
    public int varint(String field) {
        return Varints.zigzag(unsignedVarint(field));
    }

    /** A ZigZag varlong (int64, at most 10 bytes). */
    public long varlong(String field) {
        if (index < limit) {
            byte b = buf.get(index);
            if (b >= 0) {
                index++;
                return (b >>> 1) ^ -(b & 1);
            }
        }
        int size = Varints.varlongSize(buf, index, limit);
        if (size < 0) {
            throw varintFailure(size, field, Varints.MAX_VARLONG_BYTES);
        }
        long v = Varints.varlong(buf, index, size);
        index += size;
        return v;
    }

    private FormatException varintFailure(long result, String field, int maxBytes) {
        return result == Varints.TRUNCATED
                ? fail(Violation.INVALID_RECORD, field, "varint byte", "end of data")
                : fail(Violation.VARINT_TOO_LONG, field, "<= " + maxBytes + " bytes", "more");
    }

    /** Builds (does not throw) an error with this cursor's context. */
    public FormatException fail(Violation v, String field, Object expected, Object actual) {
        return FormatException.at(v == Violation.INVALID_RECORD ? violation : v, file, reportPosition)
                .baseOffset(baseOffset).field(field).expected(expected).actual(actual).build();
    }
}
