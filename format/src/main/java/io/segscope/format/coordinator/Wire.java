package io.segscope.format.coordinator;

import java.nio.ByteBuffer;

/** Allocation-free primitives shared by {@link StructReader} and the offset-commit flyweight. */
public final class Wire {
    private Wire() {
    }

    /** Returned by {@link #unsignedVarint} when the varint is truncated or longer than 5 bytes. */
    public static final long BAD_VARINT = -1L;

    /**
     * Reads Kafka's unsigned varint (at most 5 bytes; the value may wrap to a negative int) at
     * {@code pos}, not past {@code limit}.
     *
     * @return {@code (bytesRead << 32) | (value & 0xffffffffL)}, or {@link #BAD_VARINT}
     */
    public static long unsignedVarint(ByteBuffer buf, int pos, int limit) {
        int value = 0;
        int shift = 0;
        int p = pos;
        int b;
        do {
            if (p >= limit) {
                return BAD_VARINT;
            }
            b = buf.get(p++);
            if (shift == 28 && (b & 0x80) != 0) {
                // Kafka: "Varint is too long, the most significant bit in the 5th byte is set"
                return BAD_VARINT;
            }
            value |= (b & 0x7f) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        return ((long) (p - pos) << 32) | (value & 0xffffffffL);
    }

    public static int varintValue(long packed) {
        return (int) packed;
    }

    public static int varintSize(long packed) {
        return (int) (packed >>> 32);
    }
}
