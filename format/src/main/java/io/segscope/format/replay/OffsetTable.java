package io.segscope.format.replay;

import java.util.Arrays;

/**
 * Committed offsets by (group id, topic id, partition) as parallel primitive columns: one slot per
 * live key, no object per key except its metadata string, and that one only when it differs from
 * the previous commit's. Removed slots go to a free list. The columns grow by chunks of
 * {@value #CHUNK} slots, so that growing copies no slot and allocates no humongous array. Not
 * thread-safe.
 */
final class OffsetTable {
    static final String EMPTY = "";
    private static final int CHUNK_BITS = 12;
    static final int CHUNK = 1 << CHUNK_BITS;
    private static final int IN_CHUNK = CHUNK - 1;

    private int capacity;
    final Ints group = new Ints();
    final Ints topic = new Ints();
    final Ints partition = new Ints();
    final Longs offset = new Longs();
    final Ints leaderEpoch = new Ints();
    /** Null for a free slot. */
    final Strings metadata = new Strings();
    final Longs commitTimestamp = new Longs();
    final Longs expireTimestamp = new Longs();
    final Longs topicIdMsb = new Longs();
    final Longs topicIdLsb = new Longs();
    final Longs recordOffset = new Longs();
    final Longs position = new Longs();
    final Longs batchTimestamp = new Longs();
    final Ints file = new Ints();
    private final Column[] columns = {group, topic, partition, offset, leaderEpoch, metadata, commitTimestamp,
        expireTimestamp, topicIdMsb, topicIdLsb, recordOffset, position, batchTimestamp, file};

    private int used; // slots handed out, live or free
    private int count;
    private int[] free = new int[16];
    private int freeCount;
    private int[] table = new int[128]; // slot + 1; 0 = empty; -1 = deleted

    int count() {
        return count;
    }

    /** Slots [0, limit) may be live. */
    int limit() {
        return used;
    }

    boolean live(int s) {
        return metadata.get(s) != null;
    }

    int find(int g, int t, int p) {
        int mask = table.length - 1;
        for (int i = hash(g, t, p) & mask; ; i = (i + 1) & mask) {
            int e = table[i];
            if (e == 0) {
                return -1;
            }
            if (e > 0) {
                int s = e - 1;
                if (group.get(s) == g && topic.get(s) == t && partition.get(s) == p) {
                    return s;
                }
            }
        }
    }

    /** A new slot for a key that {@link #find} did not find. */
    int add(int g, int t, int p) {
        int s;
        if (freeCount > 0) {
            s = free[--freeCount];
        } else {
            if (used == capacity) {
                grow();
            }
            s = used++;
        }
        group.set(s, g);
        topic.set(s, t);
        partition.set(s, p);
        metadata.set(s, EMPTY);
        count++;
        if ((count + tombstones) * 2 > table.length) {
            rehash(count * 4 > table.length ? table.length * 2 : table.length);
        }
        insert(s);
        return s;
    }

    private int tombstones;

    /** Sets everything of a slot but its key and metadata. */
    void set(int s, long committedOffset, int epoch, long commitTs, long expireTs, long idMsb, long idLsb,
             long logOffset, long batchPosition, long batchTs, int fileIdx) {
        offset.set(s, committedOffset);
        leaderEpoch.set(s, epoch);
        commitTimestamp.set(s, commitTs);
        expireTimestamp.set(s, expireTs);
        topicIdMsb.set(s, idMsb);
        topicIdLsb.set(s, idLsb);
        recordOffset.set(s, logOffset);
        position.set(s, batchPosition);
        batchTimestamp.set(s, batchTs);
        file.set(s, fileIdx);
    }

    void remove(int s) {
        int mask = table.length - 1;
        for (int i = hash(group.get(s), topic.get(s), partition.get(s)) & mask; ; i = (i + 1) & mask) {
            if (table[i] == s + 1) {
                table[i] = -1;
                tombstones++;
                break;
            }
        }
        metadata.set(s, null);
        count--;
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, freeCount * 2);
        }
        free[freeCount++] = s;
    }

    private void insert(int s) {
        int mask = table.length - 1;
        int i = hash(group.get(s), topic.get(s), partition.get(s)) & mask;
        while (table[i] > 0) {
            i = (i + 1) & mask;
        }
        if (table[i] < 0) {
            tombstones--;
        }
        table[i] = s + 1;
    }

    private void rehash(int n) {
        table = new int[n];
        tombstones = 0;
        for (int s = 0; s < used; s++) {
            if (live(s)) {
                insert(s);
            }
        }
    }

    private void grow() {
        for (Column c : columns) {
            c.addChunk();
        }
        capacity += CHUNK;
    }

    /** Murmur3's finalizer over the three ids: every bit of the key reaches the low bits the table uses. */
    private static int hash(int g, int t, int p) {
        int h = g * 0x9E3779B1 + t * 0x85EBCA6B + p * 0xC2B2AE35;
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        return h ^ (h >>> 16);
    }

    /** A column of slots, in chunks of {@link #CHUNK}. */
    private abstract static class Column {
        abstract void addChunk();
    }

    static final class Ints extends Column {
        private int[][] chunks = new int[0][];

        int get(int s) {
            return chunks[s >>> CHUNK_BITS][s & IN_CHUNK];
        }

        void set(int s, int v) {
            chunks[s >>> CHUNK_BITS][s & IN_CHUNK] = v;
        }

        @Override
        void addChunk() {
            chunks = Arrays.copyOf(chunks, chunks.length + 1);
            chunks[chunks.length - 1] = new int[CHUNK];
        }
    }

    static final class Longs extends Column {
        private long[][] chunks = new long[0][];

        long get(int s) {
            return chunks[s >>> CHUNK_BITS][s & IN_CHUNK];
        }

        void set(int s, long v) {
            chunks[s >>> CHUNK_BITS][s & IN_CHUNK] = v;
        }

        @Override
        void addChunk() {
            chunks = Arrays.copyOf(chunks, chunks.length + 1);
            chunks[chunks.length - 1] = new long[CHUNK];
        }
    }

    static final class Strings extends Column {
        private String[][] chunks = new String[0][];

        String get(int s) {
            return chunks[s >>> CHUNK_BITS][s & IN_CHUNK];
        }

        void set(int s, String v) {
            chunks[s >>> CHUNK_BITS][s & IN_CHUNK] = v;
        }

        @Override
        void addChunk() {
            chunks = Arrays.copyOf(chunks, chunks.length + 1);
            chunks[chunks.length - 1] = new String[CHUNK];
        }
    }
}
