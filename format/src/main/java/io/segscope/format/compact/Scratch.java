package io.segscope.format.compact;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A reused byte array that record slices (keys, values, header keys and values) are copied into
 * before {@code BatchBuilder} appends them, since it takes arrays and records live in mapped or
 * decompressed buffers. Grows when a record needs more; never shrinks.
 */
final class Scratch {
    private byte[] bytes = new byte[16 * 1024];

    /** The array; valid until the next {@link #copy} that grows it. */
    byte[] bytes() {
        return bytes;
    }

    /** Copies {@code buf[from, from + length)} to {@code at} (nothing for a null or empty slice); returns the next free index. */
    int copy(ByteBuffer buf, int from, int length, int at) {
        if (length <= 0) {
            return at;
        }
        if (at + length > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, at + length));
        }
        buf.get(from, bytes, at, length);
        return at + length;
    }
}
