package io.segscope.format.compact;

import java.nio.ByteBuffer;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * MD5 of a slice of a buffer, as the cleaner's key map hashes keys ({@code SkimpyOffsetMap} uses
 * {@code MessageDigest} MD5), returned as two big-endian longs ({@link #hi()} = digest bytes 0-7,
 * {@link #lo()} = bytes 8-15). One {@code MessageDigest} (the JDK's compression loop is an
 * intrinsic, faster than MD5 in Java), fed from a reused array: no allocation per key.
 */
final class Md5 {
    private final MessageDigest md5;
    private final byte[] digest = new byte[16];
    private byte[] key = new byte[256];
    private long hi;
    private long lo;

    Md5() {
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required of every Java platform", e);
        }
    }

    /** Digest bytes 0-7, big-endian, of the last {@link #digest}. */
    long hi() {
        return hi;
    }

    /** Digest bytes 8-15, big-endian. */
    long lo() {
        return lo;
    }

    /** Hashes {@code buf[offset, offset + length)}. */
    void digest(ByteBuffer buf, int offset, int length) {
        if (length > key.length) {
            key = new byte[Math.max(length, key.length * 2)];
        }
        buf.get(offset, key, 0, length);
        md5.update(key, 0, length);
        try {
            md5.digest(digest, 0, 16);
        } catch (DigestException e) {
            throw new IllegalStateException(e);
        }
        hi = bigEndianLong(digest, 0);
        lo = bigEndianLong(digest, 8);
    }

    private static long bigEndianLong(byte[] b, int at) {
        long v = 0;
        for (int i = at; i < at + 8; i++) {
            v = v << 8 | b[i] & 0xFFL;
        }
        return v;
    }
}
