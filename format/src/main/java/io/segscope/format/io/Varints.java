package io.segscope.format.io;

import java.nio.ByteBuffer;

/**
 * Kafka's varints (docs/format.md 1.3): protobuf base-128, least significant group first, with
 * ZigZag for signed values; an int takes at most 5 bytes, a long at most 10. The one decoder of
 * them, allocation-free and with Kafka's bounds ({@link Cursor} and the coordinator readers use
 * it), and the helpers that size and encode values (tests, writers).
 */
public final class Varints {
    /** Longest legal encodings, as Kafka's ByteUtils enforces them. */
    public static final int MAX_VARINT_BYTES = 5;
    public static final int MAX_VARLONG_BYTES = 10;

    /** A decode result (below zero): the data ends inside the varint. */
    public static final long TRUNCATED = -1L;
    /** A decode result (below zero): longer than Kafka allows (the last allowed byte has its high bit set). */
    public static final long TOO_LONG = -2L;

    private Varints() {
    }

    /**
     * Reads Kafka's unsigned varint at {@code pos}, not past {@code limit}: at most 5 bytes, the
     * value may wrap to a negative int (Kafka's {@code ByteUtils.readUnsignedVarint}).
     *
     * @return {@code (bytesRead << 32) | (value & 0xffffffffL)}, which {@link #value} and
     *     {@link #size} take apart, or {@link #TRUNCATED} or {@link #TOO_LONG} (both below zero)
     */
    public static long unsignedVarint(ByteBuffer buf, int pos, int limit) {
        if (pos < limit) {
            byte first = buf.get(pos);
            if (first >= 0) { // one byte, the common case
                return (1L << 32) | first;
            }
        }
        int value = 0;
        int p = pos;
        for (int shift = 0; shift < 7 * MAX_VARINT_BYTES; shift += 7) {
            if (p >= limit) {
                return TRUNCATED;
            }
            byte b = buf.get(p++);
            value |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return ((long) (p - pos) << 32) | (value & 0xffffffffL);
            }
        }
        return TOO_LONG;
    }

    /** The value of a successful {@link #unsignedVarint} result. */
    public static int value(long packed) {
        return (int) packed;
    }

    /** The number of bytes read of a successful {@link #unsignedVarint} result. */
    public static int size(long packed) {
        return (int) (packed >>> 32);
    }

    /** ZigZag decoding of an int ({@code varint} is the unsigned varint of the ZigZag value). */
    public static int zigzag(int raw) {
        return (raw >>> 1) ^ -(raw & 1);
    }

    /**
     * The length of the varlong at {@code pos}, not past {@code limit}: 1 to 10 bytes, or
     * {@link #TRUNCATED} or {@link #TOO_LONG} (Kafka's {@code ByteUtils.readVarlong} bounds).
     */
    public static int varlongSize(ByteBuffer buf, int pos, int limit) {
        for (int i = 0; i < MAX_VARLONG_BYTES; i++) {
            if (pos + i >= limit) {
                return (int) TRUNCATED;
            }
            if ((buf.get(pos + i) & 0x80) == 0) {
                return i + 1;
            }
        }
        return (int) TOO_LONG;
    }

    /** The ZigZag varlong of {@code size} bytes (from {@link #varlongSize}) at {@code pos}. */
    public static long varlong(ByteBuffer buf, int pos, int size) {
        long value = 0L;
        for (int i = 0; i < size; i++) {
            value |= (long) (buf.get(pos + i) & 0x7f) << (7 * i);
        }
        return (value >>> 1) ^ -(value & 1);
    }

    /** Bytes taken by the ZigZag varint encoding of {@code value}. */
    public static int sizeOfVarint(int value) {
        return sizeOfUnsignedVarint((value << 1) ^ (value >> 31));
    }

    /** Bytes taken by the ZigZag varlong encoding of {@code value}. */
    public static int sizeOfVarlong(long value) {
        long v = (value << 1) ^ (value >> 63);
        int bytes = 1;
        while ((v & 0xffffffffffffff80L) != 0L) {
            bytes++;
            v >>>= 7;
        }
        return bytes;
    }

    /** Bytes taken by the unsigned varint encoding of {@code value}. */
    public static int sizeOfUnsignedVarint(int value) {
        int bytes = 1;
        while ((value & 0xffffff80) != 0) {
            bytes++;
            value >>>= 7;
        }
        return bytes;
    }

    /** Writes the ZigZag varint of {@code value} at {@code index}; returns the next index. */
    public static int putVarint(ByteBuffer buf, int index, int value) {
        return putUnsignedVarint(buf, index, (value << 1) ^ (value >> 31));
    }

    /** Writes the unsigned varint of {@code value} at {@code index}; returns the next index. */
    public static int putUnsignedVarint(ByteBuffer buf, int index, int value) {
        while ((value & 0xffffff80) != 0) {
            buf.put(index++, (byte) ((value & 0x7f) | 0x80));
            value >>>= 7;
        }
        buf.put(index++, (byte) value);
        return index;
    }

    /** Writes the ZigZag varlong of {@code value} at {@code index}; returns the next index. */
    public static int putVarlong(ByteBuffer buf, int index, long value) {
        long v = (value << 1) ^ (value >> 63);
        while ((v & 0xffffffffffffff80L) != 0L) {
            buf.put(index++, (byte) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        buf.put(index++, (byte) v);
        return index;
    }
}
