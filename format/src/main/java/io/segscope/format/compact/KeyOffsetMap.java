package io.segscope.format.compact;

import java.nio.ByteBuffer;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The cleaner's key map (docs/format.md 4.1), slot for slot as Kafka 4.4.0's
 * {@code SkimpyOffsetMap}: one flat array of {@code slots} entries of 24 bytes, the MD5 of the key
 * (16 bytes) then the offset (8 bytes, big-endian); open addressing whose probe {@code a} reads a
 * big-endian int from the hash at byte {@code min(a, 12)} and adds {@code max(0, a - 12)}. A slot of
 * 24 zero bytes is empty. Keys are compared by their hash only, so two keys with one MD5 are one key,
 * as in Kafka. No object is kept per key: the memory is the array, whatever the number of keys.
 *
 * <pre>
 * entry layout (24 bytes)
 *   0  hash     16 bytes  MD5 of the key bytes
 *  16  offset   int64     latest offset of the key
 * </pre>
 */
final class KeyOffsetMap {
    static final int HASH_SIZE = 16;
    static final int ENTRY_SIZE = HASH_SIZE + 8;

    private final byte[] bytes;
    private final int slots;
    private final MessageDigest md5;
    private final byte[] hash = new byte[HASH_SIZE];
    private ByteBuffer view;
    private ByteBuffer viewOf;
    private int entries;
    private long latestOffset = -1L;

    /** A map in {@code memory} bytes: {@code memory / 24} slots. */
    KeyOffsetMap(int memory) {
        if (memory < ENTRY_SIZE) {
            throw new IllegalArgumentException("a key map needs at least " + ENTRY_SIZE + " bytes, not " + memory);
        }
        slots = memory / ENTRY_SIZE;
        bytes = new byte[slots * ENTRY_SIZE];
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required of every Java platform", e);
        }
    }

    int slots() {
        return slots;
    }

    int size() {
        return entries;
    }

    long latestOffset() {
        return latestOffset;
    }

    void updateLatestOffset(long offset) {
        latestOffset = offset;
    }

    double utilization() {
        return (double) entries / slots;
    }

    void clear() {
        Arrays.fill(bytes, (byte) 0);
        entries = 0;
        latestOffset = -1L;
    }

    /** Records {@code offset} as the latest of the key {@code buf[keyOffset, keyOffset + keyLength)}. */
    void put(ByteBuffer buf, int keyOffset, int keyLength, long offset) {
        if (entries >= slots) {
            throw new IllegalArgumentException("Attempted to add a new entry to a full offset map, entries: "
                    + entries + ", slots: " + slots);
        }
        hash(buf, keyOffset, keyLength);
        int attempt = 0;
        int pos = positionOf(attempt);
        while (!isEmpty(pos)) {
            if (sameHash(pos)) {
                putLong(pos + HASH_SIZE, offset);
                latestOffset = offset;
                return;
            }
            pos = positionOf(++attempt);
        }
        System.arraycopy(hash, 0, bytes, pos, HASH_SIZE);
        putLong(pos + HASH_SIZE, offset);
        latestOffset = offset;
        entries++;
    }

    /** The latest offset of the key, or -1 when it is not in the map. */
    long get(ByteBuffer buf, int keyOffset, int keyLength) {
        hash(buf, keyOffset, keyLength);
        int maxAttempts = slots + HASH_SIZE - 4;
        for (int attempt = 0; attempt < maxAttempts; attempt++) {
            int pos = positionOf(attempt);
            if (isEmpty(pos)) {
                return -1L;
            }
            if (sameHash(pos)) {
                return getLong(pos + HASH_SIZE);
            }
        }
        return -1L;
    }

    private void hash(ByteBuffer buf, int keyOffset, int keyLength) {
        if (viewOf != buf) {
            view = buf.duplicate();
            viewOf = buf;
        }
        view.limit(keyOffset + keyLength).position(keyOffset);
        md5.update(view);
        try {
            md5.digest(hash, 0, HASH_SIZE);
        } catch (DigestException e) {
            throw new IllegalStateException(e);
        }
    }

    private int positionOf(int attempt) {
        int at = Math.min(attempt, HASH_SIZE - 4);
        int probe = ((hash[at] & 0xFF) << 24) | ((hash[at + 1] & 0xFF) << 16) | ((hash[at + 2] & 0xFF) << 8)
                | (hash[at + 3] & 0xFF);
        probe += Math.max(0, attempt - HASH_SIZE + 4);
        int abs = probe == Integer.MIN_VALUE ? 0 : Math.abs(probe);   // Kafka's Utils.abs
        return (abs % slots) * ENTRY_SIZE;
    }

    private boolean isEmpty(int pos) {
        for (int i = pos, end = pos + ENTRY_SIZE; i < end; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private boolean sameHash(int pos) {
        return Arrays.equals(bytes, pos, pos + HASH_SIZE, hash, 0, HASH_SIZE);
    }

    private void putLong(int pos, long v) {
        for (int i = 7; i >= 0; i--) {
            bytes[pos + i] = (byte) v;
            v >>>= 8;
        }
    }

    private long getLong(int pos) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (bytes[pos + i] & 0xFFL);
        }
        return v;
    }
}
