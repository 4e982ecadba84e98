package io.segscope.format.compact;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The cleaner's key map (docs/format.md 4.1), as Kafka 4.4.0's {@code SkimpyOffsetMap} behaves: keys
 * are known by the MD5 of their bytes only (two keys with one MD5 are one key, as in Kafka), each
 * with its latest offset; the map has Kafka's {@code slots = memory / 24} and is full at the same
 * number of keys, so the passes are Kafka's. No object is kept per key.
 *
 * <p>The memory is not Kafka's one array of {@code slots} entries allocated up front: the table
 * starts small and doubles while it is more than half full, up to {@code slots} entries of 24 bytes
 * (never more than Kafka's array), so a map holding far fewer keys than it could (206,000 keys in
 * the 5.6 million slots of the default 128 MiB) stays small, cache- and TLB-friendly, and is not
 * paid for in zeroing and resident pages. Open addressing with linear probing from the top bits of
 * the hash.
 *
 * <pre>
 * entry layout (three longs)
 *   0  hash bytes 0-7    big-endian, MD5 of the key bytes
 *   1  hash bytes 8-15
 *   2  offset            latest offset of the key
 * </pre>
 *
 * A slot of three zeros is empty (as a slot of 24 zero bytes is in Kafka). Keys are hashed by
 * {@link Md5} (one reused digest, no allocation per key).
 */
final class KeyOffsetMap {
    static final int HASH_SIZE = 16;
    static final int ENTRY_SIZE = HASH_SIZE + 8;
    private static final int INITIAL_CAPACITY = 1 << 10;

    /** Kafka's slots: how many keys the map can hold (it is full at {@code slots * loadFactor}). */
    private final int slots;
    /** Per physical slot: hash bytes 0-7, hash bytes 8-15 (big-endian), offset. */
    private long[] table;
    /** Physical slots: a power of two, or {@link #slots} once grown to it. */
    private int capacity;
    private int growAt;
    private final Md5 md5 = new Md5();
    private long hashHi;
    private long hashLo;
    private int entries;
    private long latestOffset = -1L;
    private boolean dirty;

    /** A map of {@code memory / 24} slots, in at most {@code memory} bytes. */
    KeyOffsetMap(int memory) {
        if (memory < ENTRY_SIZE) {
            throw new IllegalArgumentException("a key map needs at least " + ENTRY_SIZE + " bytes, not " + memory);
        }
        slots = memory / ENTRY_SIZE;
        allocate(Math.min(slots, INITIAL_CAPACITY));
    }

    private void allocate(int physical) {
        capacity = physical;
        table = new long[3 * physical];
        growAt = physical == slots ? Integer.MAX_VALUE : physical / 2;
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

    /** Physical slots now (for tests). */
    int capacity() {
        return capacity;
    }

    void clear() {
        if (dirty) {
            Arrays.fill(table, 0L);
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
        long[] t = table;
        long h0 = hashHi;
        long h1 = hashLo;
        int i = home(h0);
        while (t[i] != 0 || t[i + 1] != 0 || t[i + 2] != 0) {
            if (t[i] == h0 && t[i + 1] == h1) {
                long previous = t[i + 2];
                t[i + 2] = offset;
                latestOffset = offset;
                return previous;
            }
            i = next(i);
        }
        t[i] = h0;
        t[i + 1] = h1;
        t[i + 2] = offset;
        latestOffset = offset;
        entries++;
        if (entries > growAt) {
            grow();
        }
        return -1L;
    }

    /** The latest offset of the key, or -1 when it is not in the map. */
    long get(ByteBuffer buf, int keyOffset, int keyLength) {
        hash(buf, keyOffset, keyLength);
        long[] t = table;
        long h0 = hashHi;
        long h1 = hashLo;
        int i = home(h0);
        for (int n = 0; n < capacity; n++) {
            if (t[i] == h0 && t[i + 1] == h1) {
                // a slot of all zeros is empty, even for a key whose hash is zero (as in Kafka)
                return h0 == 0 && h1 == 0 && t[i + 2] == 0 ? -1L : t[i + 2];
            }
            if (t[i] == 0 && t[i + 1] == 0 && t[i + 2] == 0) {
                return -1L;
            }
            i = next(i);
        }
        return -1L;
    }

    /** The first index of the key's home slot: the top 32 bits of the hash scaled to the capacity. */
    private int home(long h0) {
        return (int) (((h0 >>> 32) * capacity) >>> 32) * 3;
    }

    private int next(int i) {
        i += 3;
        return i == 3 * capacity ? 0 : i;
    }

    /** Doubles the table (or grows it to {@link #slots}), putting every entry again. */
    private void grow() {
        long[] old = table;
        allocate((int) Math.min(slots, 2L * capacity));
        long[] t = table;
        for (int j = 0; j < old.length; j += 3) {
            if (old[j] != 0 || old[j + 1] != 0 || old[j + 2] != 0) {
                int i = home(old[j]);
                while (t[i] != 0 || t[i + 1] != 0 || t[i + 2] != 0) {
                    i = next(i);
                }
                t[i] = old[j];
                t[i + 1] = old[j + 1];
                t[i + 2] = old[j + 2];
            }
        }
    }

    private void hash(ByteBuffer buf, int keyOffset, int keyLength) {
        md5.digest(buf, keyOffset, keyLength);
        hashHi = md5.hi();
        hashLo = md5.lo();
    }
}
