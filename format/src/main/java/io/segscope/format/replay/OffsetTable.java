package io.segscope.format.replay;

import java.util.Arrays;

/**
 * Committed offsets by (group id, topic id, partition) as parallel primitive arrays: one slot per
 * live key, no object per key except its metadata string, and that one only when it differs from
 * the previous commit's. Removed slots go to a free list. Not thread-safe.
 */
final class OffsetTable {
    static final String EMPTY = "";

    private int capacity = 64;
    int[] group = new int[capacity];
    int[] topic = new int[capacity];
    int[] partition = new int[capacity];
    long[] offset = new long[capacity];
    int[] leaderEpoch = new int[capacity];
    String[] metadata = new String[capacity];
    long[] commitTimestamp = new long[capacity];
    long[] expireTimestamp = new long[capacity];
    long[] topicIdMsb = new long[capacity];
    long[] topicIdLsb = new long[capacity];
    long[] recordOffset = new long[capacity];
    long[] position = new long[capacity];
    long[] batchTimestamp = new long[capacity];
    int[] file = new int[capacity];
    boolean[] live = new boolean[capacity];

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

    int find(int g, int t, int p) {
        int mask = table.length - 1;
        for (int i = hash(g, t, p) & mask; ; i = (i + 1) & mask) {
            int e = table[i];
            if (e == 0) {
                return -1;
            }
            if (e > 0) {
                int s = e - 1;
                if (group[s] == g && topic[s] == t && partition[s] == p) {
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
        group[s] = g;
        topic[s] = t;
        partition[s] = p;
        metadata[s] = EMPTY;
        live[s] = true;
        count++;
        if ((count + tombstones) * 2 > table.length) {
            rehash(count * 4 > table.length ? table.length * 2 : table.length);
        }
        insert(s);
        return s;
    }

    private int tombstones;

    void remove(int s) {
        int mask = table.length - 1;
        for (int i = hash(group[s], topic[s], partition[s]) & mask; ; i = (i + 1) & mask) {
            if (table[i] == s + 1) {
                table[i] = -1;
                tombstones++;
                break;
            }
        }
        live[s] = false;
        metadata[s] = null;
        count--;
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, freeCount * 2);
        }
        free[freeCount++] = s;
    }

    private void insert(int s) {
        int mask = table.length - 1;
        int i = hash(group[s], topic[s], partition[s]) & mask;
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
            if (live[s]) {
                insert(s);
            }
        }
    }

    private void grow() {
        capacity *= 2;
        group = Arrays.copyOf(group, capacity);
        topic = Arrays.copyOf(topic, capacity);
        partition = Arrays.copyOf(partition, capacity);
        offset = Arrays.copyOf(offset, capacity);
        leaderEpoch = Arrays.copyOf(leaderEpoch, capacity);
        metadata = Arrays.copyOf(metadata, capacity);
        commitTimestamp = Arrays.copyOf(commitTimestamp, capacity);
        expireTimestamp = Arrays.copyOf(expireTimestamp, capacity);
        topicIdMsb = Arrays.copyOf(topicIdMsb, capacity);
        topicIdLsb = Arrays.copyOf(topicIdLsb, capacity);
        recordOffset = Arrays.copyOf(recordOffset, capacity);
        position = Arrays.copyOf(position, capacity);
        batchTimestamp = Arrays.copyOf(batchTimestamp, capacity);
        file = Arrays.copyOf(file, capacity);
        live = Arrays.copyOf(live, capacity);
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
}
