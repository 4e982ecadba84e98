package io.segscope.format.replay;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Committed offsets by (group id, topic id, partition), laid out so that a commit touches as few
 * cache lines as possible: the hash table holds the key inline ({@link #find} reads one line), and
 * each slot's values are one row of {@value #ROW} longs ({@link #set} writes two lines). No object
 * per key: a commit's metadata is kept as its UTF-8 bytes, in the row when it has at most 16 bytes
 * (most do), else in a byte arena where the slot keeps its space for the next commits; it becomes a
 * {@code String} only when read. Removed slots go to a free list. Rows grow by chunks of
 * {@value #CHUNK} slots, so that growing copies no row and allocates no humongous array. Not
 * thread-safe.
 */
final class OffsetTable {
    static final String EMPTY = "";
    private static final int CHUNK_BITS = 12;
    static final int CHUNK = 1 << CHUNK_BITS;
    private static final int IN_CHUNK = CHUNK - 1;

    // a row: the values of one slot
    static final int ROW = 13;
    private static final int KEY = 0; // group << 32 | topic
    private static final int PARTITION_EPOCH = 1; // partition << 32 | leader epoch
    private static final int OFFSET = 2;
    private static final int COMMIT_TS = 3;
    private static final int EXPIRE_TS = 4;
    private static final int ID_MSB = 5;
    private static final int ID_LSB = 6;
    private static final int RECORD_OFFSET = 7;
    private static final int FILE_POSITION = 8; // file index << 32 | batch position
    private static final int BATCH_TS = 9;
    private static final int MD_LENGTH = 10; // metadata length << 32 | 1 when in the arena; -1 << 32 = free slot
    private static final int MD_A = 11; // bytes 0-7 (big-endian, zero padded) or the arena position
    private static final int MD_B = 12; // bytes 8-15
    private static final int INLINE = 16;
    private static final int ARENA_CHUNK_BITS = 20;
    private static final int ARENA_CHUNK = 1 << ARENA_CHUNK_BITS;

    // the hash table: 4 ints an entry (group, topic, partition, slot + 1; slot 0 = empty, -1 = deleted)
    private static final int ENTRY = 4;

    private long[][] rows = new long[0][];
    // metadata longer than INLINE: chunks of ARENA_CHUNK bytes (or one chunk of a longer metadata's size)
    private byte[][] arena = new byte[0][];
    private int arenaUsed = ARENA_CHUNK; // in the last chunk
    private long arenaBytes; // of every chunk
    // the arena's bytes in use after the last compaction: it is compacted again when it has grown to twice that
    private long arenaKept;
    // per slot, read only for metadata longer than INLINE: its space in the arena (kept for the slot's
    // next long metadata) and where
    private int[][] arenaSpace = new int[0][];
    private long[][] arenaAt = new long[0][];
    private int capacity;
    private int used; // slots handed out, live or free
    private int count;
    private int[] free = new int[16];
    private int freeCount;
    private int[] table = new int[128 * ENTRY];
    private int tombstones;

    int count() {
        return count;
    }

    /** Slots [0, limit) may be live. */
    int limit() {
        return used;
    }

    boolean live(int s) {
        return (int) (at(s, MD_LENGTH) >>> 32) != -1;
    }

    int find(int g, int t, int p) {
        int[] tb = table;
        int mask = tb.length / ENTRY - 1;
        for (int i = hash(g, t, p) & mask; ; i = (i + 1) & mask) {
            int e = i * ENTRY;
            int slot = tb[e + 3];
            if (slot == 0) {
                return -1;
            }
            if (slot > 0 && tb[e] == g && tb[e + 1] == t && tb[e + 2] == p) {
                return slot - 1;
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
        count++;
        int entries = table.length / ENTRY;
        // at most half full (deleted entries included), live keys at most a quarter of the new table
        if ((long) (count + tombstones) * 2 > (long) entries) {
            rehash(count * 4 > entries ? entries * 2 : entries, s); // before s is live: it is inserted once, below
        }
        // stores only: a commit reads nothing of its row (a row is rarely in the cache)
        long[] row = rows[s >>> CHUNK_BITS];
        int r = (s & IN_CHUNK) * ROW;
        Arrays.fill(row, r, r + ROW, 0L);
        row[r + KEY] = (long) g << 32 | (t & 0xffffffffL);
        row[r + PARTITION_EPOCH] = (long) p << 32;
        insert(g, t, p, s);
        return s;
    }

    /** Sets everything of a slot but its key and metadata; {@code p} is its partition. */
    void set(int s, int p, long committedOffset, int epoch, long commitTs, long expireTs, long idMsb, long idLsb,
             long logOffset, long batchPosition, long batchTs, int fileIdx) {
        long[] row = rows[s >>> CHUNK_BITS];
        int r = (s & IN_CHUNK) * ROW;
        row[r + PARTITION_EPOCH] = (long) p << 32 | (epoch & 0xffffffffL);
        row[r + OFFSET] = committedOffset;
        row[r + COMMIT_TS] = commitTs;
        row[r + EXPIRE_TS] = expireTs;
        row[r + ID_MSB] = idMsb;
        row[r + ID_LSB] = idLsb;
        row[r + RECORD_OFFSET] = logOffset;
        // a segment is at most 2 GiB (Kafka's segment.bytes is an int): the position fits 32 bits
        row[r + FILE_POSITION] = (long) fileIdx << 32 | (batchPosition & 0xffffffffL);
        row[r + BATCH_TS] = batchTs;
    }

    /** Sets a slot's metadata to the {@code length} UTF-8 bytes at {@code offset} of {@code buf}. */
    void setMetadata(int s, ByteBuffer buf, int offset, int length) {
        long[] row = rows[s >>> CHUNK_BITS];
        int r = (s & IN_CHUNK) * ROW;
        if (length <= INLINE) {
            long a = 0;
            long b = 0;
            if (length == INLINE) {
                a = buf.getLong(offset);
                b = buf.getLong(offset + 8);
            } else {
                for (int i = 0; i < length; i++) {
                    long v = buf.get(offset + i) & 0xffL;
                    if (i < 8) {
                        a |= v << (56 - 8 * i);
                    } else {
                        b |= v << (120 - 8 * i);
                    }
                }
            }
            row[r + MD_LENGTH] = (long) length << 32;
            row[r + MD_A] = a;
            row[r + MD_B] = b;
            return;
        }
        int c = s >>> CHUNK_BITS;
        int i = s & IN_CHUNK;
        if (arenaSpace[c] == null) {
            arenaSpace[c] = new int[CHUNK];
            arenaAt[c] = new long[CHUNK];
        }
        int space = arenaSpace[c][i];
        if (space < length) {
            // a slot keeps its arena space for its next long metadata; the space it leaves, and that of
            // slots whose metadata went back to their row, is reclaimed when the arena has doubled since
            // it was last compacted: the arena grows with the live keys' metadata, not with commits
            arenaSpace[c][i] = 0;
            if (arenaBytes > 2 * arenaKept + ARENA_CHUNK) {
                compactArena();
            }
            arenaSpace[c][i] = length;
            arenaAt[c][i] = allocate(length);
        }
        long at = arenaAt[c][i];
        buf.get(offset, arena[(int) (at >>> 32)], (int) at, length);
        row[r + MD_LENGTH] = (long) length << 32 | 1;
        row[r + MD_A] = at;
    }

    /** Sets a slot's metadata from a string (a pending transactional commit's). */
    void setMetadata(int s, String metadata) {
        byte[] b = metadata.getBytes(StandardCharsets.UTF_8);
        setMetadata(s, ByteBuffer.wrap(b), 0, b.length);
    }

    private long allocate(int n) {
        if (n > ARENA_CHUNK - arenaUsed || arena.length == 0) {
            arena = Arrays.copyOf(arena, arena.length + 1);
            arena[arena.length - 1] = new byte[Math.max(n, ARENA_CHUNK)];
            arenaBytes += arena[arena.length - 1].length;
            arenaUsed = 0;
        }
        long at = (long) (arena.length - 1) << 32 | arenaUsed;
        arenaUsed = n >= ARENA_CHUNK ? ARENA_CHUNK : arenaUsed + n;
        return at;
    }

    /**
     * A new arena holding only the metadata live slots keep there (each in exactly its length); the
     * space of free slots and of slots whose metadata is now in their row is let go.
     */
    private void compactArena() {
        byte[][] old = arena;
        arena = new byte[0][];
        arenaUsed = ARENA_CHUNK;
        arenaBytes = 0;
        for (int s = 0; s < used; s++) {
            int c = s >>> CHUNK_BITS;
            int i = s & IN_CHUNK;
            if (arenaSpace[c] == null || arenaSpace[c][i] == 0) {
                continue;
            }
            long[] row = rows[c];
            int r = i * ROW;
            long info = row[r + MD_LENGTH];
            if ((int) (info >>> 32) == -1 || (int) info == 0) {
                arenaSpace[c][i] = 0; // free, or its metadata is in its row
                continue;
            }
            int length = (int) (info >>> 32);
            long from = row[r + MD_A];
            long to = allocate(length);
            System.arraycopy(old[(int) (from >>> 32)], (int) from, arena[(int) (to >>> 32)], (int) to, length);
            arenaSpace[c][i] = length;
            arenaAt[c][i] = to;
            row[r + MD_A] = to;
        }
        arenaKept = arenaBytes;
    }

    void remove(int s) {
        int g = group(s);
        int t = topic(s);
        int p = partition(s);
        int mask = table.length / ENTRY - 1;
        for (int i = hash(g, t, p) & mask; ; i = (i + 1) & mask) {
            int e = i * ENTRY;
            if (table[e + 3] == s + 1) {
                table[e + 3] = -1;
                tombstones++;
                break;
            }
        }
        long[] row = rows[s >>> CHUNK_BITS];
        int r = (s & IN_CHUNK) * ROW;
        row[r + MD_LENGTH] = -1L << 32; // free; the arena space stays the slot's
        count--;
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, freeCount * 2);
        }
        free[freeCount++] = s;
    }

    private void insert(int g, int t, int p, int s) {
        int mask = table.length / ENTRY - 1;
        int i = hash(g, t, p) & mask;
        while (table[i * ENTRY + 3] > 0) {
            i = (i + 1) & mask;
        }
        int e = i * ENTRY;
        if (table[e + 3] < 0) {
            tombstones--;
        }
        table[e] = g;
        table[e + 1] = t;
        table[e + 2] = p;
        table[e + 3] = s + 1;
    }

    /** A new table of {@code entries} with every live slot but {@code skip}. */
    private void rehash(int entries, int skip) {
        table = new int[entries * ENTRY];
        tombstones = 0;
        for (int s = 0; s < used; s++) {
            if (s != skip && live(s)) {
                insert(group(s), topic(s), partition(s), s);
            }
        }
    }

    private void grow() {
        int n = rows.length;
        rows = Arrays.copyOf(rows, n + 1);
        rows[n] = new long[CHUNK * ROW];
        arenaSpace = Arrays.copyOf(arenaSpace, n + 1); // a chunk's arena columns come with its first long metadata
        arenaAt = Arrays.copyOf(arenaAt, n + 1);
        capacity += CHUNK;
    }

    private long at(int s, int field) {
        return rows[s >>> CHUNK_BITS][(s & IN_CHUNK) * ROW + field];
    }

    int group(int s) {
        return (int) (at(s, KEY) >>> 32);
    }

    int topic(int s) {
        return (int) at(s, KEY);
    }

    int partition(int s) {
        return (int) (at(s, PARTITION_EPOCH) >>> 32);
    }

    int leaderEpoch(int s) {
        return (int) at(s, PARTITION_EPOCH);
    }

    long offset(int s) {
        return at(s, OFFSET);
    }

    long commitTimestamp(int s) {
        return at(s, COMMIT_TS);
    }

    long expireTimestamp(int s) {
        return at(s, EXPIRE_TS);
    }

    long topicIdMsb(int s) {
        return at(s, ID_MSB);
    }

    long topicIdLsb(int s) {
        return at(s, ID_LSB);
    }

    long recordOffset(int s) {
        return at(s, RECORD_OFFSET);
    }

    long position(int s) {
        return at(s, FILE_POSITION) & 0xffffffffL;
    }

    int file(int s) {
        return (int) (at(s, FILE_POSITION) >>> 32);
    }

    long batchTimestamp(int s) {
        return at(s, BATCH_TS);
    }

    /** The metadata of a live slot, decoded as Kafka decodes it (malformed UTF-8 becomes U+FFFD). */
    String metadata(int s) {
        long info = at(s, MD_LENGTH);
        int length = (int) (info >>> 32);
        if (length == 0) {
            return EMPTY;
        }
        if ((int) info != 0) {
            long a = at(s, MD_A);
            return new String(arena[(int) (a >>> 32)], (int) a, length, StandardCharsets.UTF_8);
        }
        byte[] b = new byte[INLINE];
        long a = at(s, MD_A);
        long c = at(s, MD_B);
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (a >>> (56 - 8 * i));
            b[i + 8] = (byte) (c >>> (56 - 8 * i));
        }
        return new String(b, 0, length, StandardCharsets.UTF_8);
    }

    /**
     * Murmur3's finalizer over the group and topic ids, plus the partition: the partitions of one
     * group and topic (which a commit writes together) are neighbours in the table, so that a
     * commit of 20 partitions reads a few cache lines of it rather than 20.
     */
    static int hash(int g, int t, int p) {
        int h = g * 0x9E3779B1 + t * 0x85EBCA6B;
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        return (h ^ (h >>> 16)) + p;
    }
}
