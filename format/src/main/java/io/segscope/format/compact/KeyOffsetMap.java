package io.segscope.format.compact;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The cleaner's key map (docs/format.md 4.1), slot for slot as Kafka 4.4.0's
 * {@code SkimpyOffsetMap}: one flat array of {@code slots} entries of 24 bytes, the MD5 of the key
 * (16 bytes) then the offset (8 bytes, big-endian); open addressing whose probe {@code a} reads a
 * big-endian int from the hash at byte {@code min(a, 12)} and adds {@code max(0, a - 12)}. A slot of
 * 24 zero bytes is empty. Keys are compared by their hash only, so two keys with one MD5 are one key,
 * as in Kafka. No object is kept per key: the memory is the array, whatever the number of keys.
 *
 * <p>The slots are held as three longs each (hash bytes 0-7 and 8-15, big-endian, then the offset),
 * so that a probe compares two longs rather than 16 bytes; {@link #slotBytes} gives Kafka's byte
 * image of them. Keys are hashed by {@link Md5} (one reused digest, no allocation per key).
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

    /** Per slot: hash bytes 0-7, hash bytes 8-15 (big-endian), offset. */
    private final long[] entriesArray;
    private final int slots;
    private final Md5 md5 = new Md5();
    private long hashHi;
    private long hashLo;
    private int entries;
    private long latestOffset = -1L;
    /** False until the first put: a new array is zero already, so the first {@link #clear} has nothing to do. */
    private boolean dirty;

    /** A map in {@code memory} bytes: {@code memory / 24} slots. */
    KeyOffsetMap(int memory) {
        if (memory < ENTRY_SIZE) {
            throw new IllegalArgumentException("a key map needs at least " + ENTRY_SIZE + " bytes, not " + memory);
        }
        slots = memory / ENTRY_SIZE;
        entriesArray = new long[3 * slots];
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
        if (dirty) {
            Arrays.fill(entriesArray, 0L);
            dirty = false;
        }
        entries = 0;
        latestOffset = -1L;
    }

    /**
     * Records {@code offset} as the latest of the key {@code buf[keyOffset, keyOffset + keyLength)};
     * returns the key's previous offset, or -1 when the key is new.
     */
    long put(ByteBuffer buf, int keyOffset, int keyLength, long offset) {
        if (entries >= slots) {
            throw new IllegalArgumentException("Attempted to add a new entry to a full offset map, entries: "
                    + entries + ", slots: " + slots);
        }
        hash(buf, keyOffset, keyLength);
        dirty = true;
        long[] e = entriesArray;
        long h0 = hashHi;
        long h1 = hashLo;
        int attempt = 0;
        int at = slotOf(attempt);
        while (e[at] != 0 || e[at + 1] != 0 || e[at + 2] != 0) {
            if (e[at] == h0 && e[at + 1] == h1) {
                long previous = e[at + 2];
                e[at + 2] = offset;
                latestOffset = offset;
                return previous;
            }
            at = slotOf(++attempt);
        }
        e[at] = h0;
        e[at + 1] = h1;
        e[at + 2] = offset;
        latestOffset = offset;
        entries++;
        return -1L;
    }

    /** The latest offset of the key, or -1 when it is not in the map. */
    long get(ByteBuffer buf, int keyOffset, int keyLength) {
        hash(buf, keyOffset, keyLength);
        long[] e = entriesArray;
        long h0 = hashHi;
        long h1 = hashLo;
        int maxAttempts = slots + HASH_SIZE - 4;
        for (int attempt = 0; attempt < maxAttempts; attempt++) {
            int at = slotOf(attempt);
            if (e[at] == h0 && e[at + 1] == h1) {
                // a slot of all zeros is empty, even for a key whose hash is zero (as in Kafka)
                return h0 == 0 && h1 == 0 && e[at + 2] == 0 ? -1L : e[at + 2];
            }
            if (e[at] == 0 && e[at + 1] == 0 && e[at + 2] == 0) {
                return -1L;
            }
        }
        return -1L;
    }

    private void hash(ByteBuffer buf, int keyOffset, int keyLength) {
        md5.digest(buf, keyOffset, keyLength);
        hashHi = md5.hi();
        hashLo = md5.lo();
    }

    /**
     * Kafka's probe: attempt {@code a} reads the big-endian int at hash byte {@code min(a, 12)} and
     * adds {@code max(0, a - 12)}; the slot is that modulo the slots. Returns the slot's first index.
     */
    private int slotOf(int attempt) {
        int probe;
        if (attempt == 0) {
            probe = (int) (hashHi >>> 32);
        } else if (attempt < 8) {
            int shift = 8 * attempt;
            probe = (int) ((hashHi << shift | hashLo >>> (64 - shift)) >>> 32);
        } else if (attempt <= HASH_SIZE - 4) {
            probe = (int) (hashLo >>> (32 - 8 * (attempt - 8)));
        } else {
            probe = (int) hashLo + attempt - (HASH_SIZE - 4);
        }
        int abs = probe == Integer.MIN_VALUE ? 0 : Math.abs(probe);   // Kafka's Utils.abs
        return (abs % slots) * 3;
    }

    /** The slots as Kafka's {@code SkimpyOffsetMap} holds them: 24 bytes each, hash then big-endian offset. */
    byte[] slotBytes() {
        ByteBuffer out = ByteBuffer.allocate(slots * ENTRY_SIZE);
        for (long v : entriesArray) {
            out.putLong(v);
        }
        return out.array();
    }
}
