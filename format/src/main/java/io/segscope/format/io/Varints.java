package io.segscope.format.io;

import java.nio.ByteBuffer;

/**
 * Kafka's varints (docs/format.md 1.3): protobuf base-128, least significant group first, with
 * ZigZag for signed values; an int takes at most 5 bytes, a long at most 10. Decoding is done by
 * {@link Cursor}; these helpers size and encode values (tests, writers).
 */
public final class Varints {
    /** Longest legal encodings, as Kafka's ByteUtils enforces them. */
    public static final int MAX_VARINT_BYTES = 5;
    public static final int MAX_VARLONG_BYTES = 10;

    private Varints() {
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
