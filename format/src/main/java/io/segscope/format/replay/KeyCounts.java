package io.segscope.format.replay;

/**
 * A count per (group id, topic id, partition), in one int array (no object per key): how many
 * producers hold a pending transactional offset for the key, so that a tombstone looks at the
 * pending offsets only when there is one to cancel. Keys stay when their count falls to 0, so the
 * table grows with the keys ever pending, not with records. Not thread-safe.
 */
final class KeyCounts {
    private static final int ENTRY = 4; // group, topic, partition, count + 1 (0 = empty)
    private int[] table = new int[64 * ENTRY];
    private int size;

    int get(int g, int t, int p) {
        int e = entry(g, t, p);
        return table[e + 3] == 0 ? 0 : table[e + 3] - 1;
    }

    void add(int g, int t, int p, int delta) {
        int e = entry(g, t, p);
        if (table[e + 3] == 0) {
            table[e] = g;
            table[e + 1] = t;
            table[e + 2] = p;
            table[e + 3] = 1;
            if (++size * 2 > table.length / ENTRY) {
                int[] old = table;
                table = new int[old.length * 2];
                for (int i = 0; i < old.length; i += ENTRY) {
                    if (old[i + 3] != 0) {
                        int n = entry(old[i], old[i + 1], old[i + 2]);
                        System.arraycopy(old, i, table, n, ENTRY);
                    }
                }
                e = entry(g, t, p);
            }
        }
        table[e + 3] += delta;
    }

    private int entry(int g, int t, int p) {
        int mask = table.length / ENTRY - 1;
        for (int i = OffsetTable.hash(g, t, p) & mask; ; i = (i + 1) & mask) {
            int e = i * ENTRY;
            if (table[e + 3] == 0 || table[e] == g && table[e + 1] == t && table[e + 2] == p) {
                return e;
            }
        }
    }
}
