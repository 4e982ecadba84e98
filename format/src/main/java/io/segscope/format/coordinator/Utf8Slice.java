package io.segscope.format.coordinator;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A flyweight over UTF-8 bytes in a buffer: a group id, topic or transactional id read in place.
 * It compares and hashes without decoding: {@link #javaHashCode()} is Java's
 * {@code String.hashCode()} of the decoded string (over UTF-16 code units), which is what Kafka's
 * partition rule ({@link CoordinatorPartition}) needs.
 * Malformed UTF-8 (which Java decodes to U+FFFD) falls back to decoding. Reusable:
 * {@link #wrap} resets it.
 */
public final class Utf8Slice {
    private ByteBuffer buf;
    private int offset;
    private int length;
    // the bytes of a string being decoded from a buffer without an array (a mapped file), reused
    private byte[] scratch;
    private static final int MAX_SCRATCH = 4096;

    public Utf8Slice wrap(ByteBuffer buffer, int offset, int length) {
        this.buf = buffer;
        this.offset = offset;
        this.length = length;
        return this;
    }

    public ByteBuffer buffer() { return buf; }
    public int offset() { return offset; }
    /** Length in bytes. */
    public int length() { return length; }

    /** Java's {@code String.hashCode()} of these bytes decoded as UTF-8, without allocating for valid UTF-8. */
    public int javaHashCode() {
        int h = 0;
        int i = offset;
        int end = offset + length;
        while (i < end) {
            int b0 = buf.get(i) & 0xff;
            if (b0 < 0x80) {
                h = 31 * h + b0;
                i++;
                continue;
            }
            int cp = decodeMultiByte(i, end, b0);
            if (cp < 0) {
                return toString().hashCode();
            }
            if (cp >= 0x10000) {
                h = 31 * h + Character.highSurrogate(cp);
                h = 31 * h + Character.lowSurrogate(cp);
                i += 4;
            } else {
                h = 31 * h + cp;
                i += cp >= 0x800 ? 3 : 2;
            }
        }
        return h;
    }

    /** The code point of the 2-4 byte sequence at {@code i}, or -1 when it is not well-formed UTF-8. */
    private int decodeMultiByte(int i, int end, int b0) {
        if (b0 >= 0xc2 && b0 <= 0xdf) {
            if (i + 1 >= end) {
                return -1;
            }
            int b1 = buf.get(i + 1) & 0xff;
            return (b1 & 0xc0) == 0x80 ? ((b0 & 0x1f) << 6) | (b1 & 0x3f) : -1;
        }
        if (b0 >= 0xe0 && b0 <= 0xef) {
            if (i + 2 >= end) {
                return -1;
            }
            int b1 = buf.get(i + 1) & 0xff;
            int b2 = buf.get(i + 2) & 0xff;
            if ((b1 & 0xc0) != 0x80 || (b2 & 0xc0) != 0x80) {
                return -1;
            }
            int cp = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
            // overlong forms and UTF-16 surrogates are malformed
            return cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff) ? -1 : cp;
        }
        if (b0 >= 0xf0 && b0 <= 0xf4) {
            if (i + 3 >= end) {
                return -1;
            }
            int b1 = buf.get(i + 1) & 0xff;
            int b2 = buf.get(i + 2) & 0xff;
            int b3 = buf.get(i + 3) & 0xff;
            if ((b1 & 0xc0) != 0x80 || (b2 & 0xc0) != 0x80 || (b3 & 0xc0) != 0x80) {
                return -1;
            }
            int cp = ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
            return cp < 0x10000 || cp > 0x10ffff ? -1 : cp;
        }
        return -1;
    }

    /** Whether these bytes are the UTF-8 encoding of {@code s}; no allocation for valid UTF-8. */
    public boolean contentEquals(String s) {
        int i = offset;
        int end = offset + length;
        int k = 0;
        int n = s.length();
        while (i < end) {
            int b0 = buf.get(i) & 0xff;
            if (b0 < 0x80) {
                if (k >= n || s.charAt(k) != b0) {
                    return false;
                }
                i++;
                k++;
                continue;
            }
            int cp = decodeMultiByte(i, end, b0);
            if (cp < 0) {
                return toString().equals(s);
            }
            if (cp >= 0x10000) {
                if (k + 1 >= n || s.charAt(k) != Character.highSurrogate(cp) || s.charAt(k + 1) != Character.lowSurrogate(cp)) {
                    return false;
                }
                k += 2;
                i += 4;
            } else {
                if (k >= n || s.charAt(k) != cp) {
                    return false;
                }
                k++;
                i += cp >= 0x800 ? 3 : 2;
            }
        }
        return k == n;
    }

    /** Byte-wise equality with another slice. */
    public boolean contentEquals(Utf8Slice other) {
        if (other.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (buf.get(offset + i) != other.buf.get(other.offset + i)) {
                return false;
            }
        }
        return true;
    }

    /** Decodes (allocates). */
    @Override
    public String toString() {
        if (buf == null) {
            return "";
        }
        if (buf.hasArray()) {
            return new String(buf.array(), buf.arrayOffset() + offset, length, StandardCharsets.UTF_8);
        }
        byte[] tmp = length <= MAX_SCRATCH ? scratch(length) : new byte[length];
        buf.get(offset, tmp, 0, length);
        return new String(tmp, 0, length, StandardCharsets.UTF_8);
    }

    private byte[] scratch(int n) {
        if (scratch == null || scratch.length < n) {
            scratch = new byte[Math.max(n, 64)];
        }
        return scratch;
    }
}
