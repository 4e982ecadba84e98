package io.segscope.format.compact;

import java.util.Arrays;

/**
 * What the map build learnt about each record it put, so that the rewrite need not hash those keys
 * again: per offset of the round's dirty range, whether its record was put in the {@link KeyOffsetMap}
 * and whether a later put of the same key (the same MD5) replaced it. For a record that was put, the
 * map's answer in the rewrite is then known: its own offset (kept) or a later one (dropped), exactly
 * what Kafka's {@code offset >= map.get(key)} decides. Records that were not put (before the first
 * dirty offset, in an aborted transaction, after the map filled) are looked up in the map as before.
 *
 * <p>Two bits per offset from the first dirty offset, grown as puts arrive, at most {@code maxBytes}
 * (a fraction of the map's memory); beyond that, or if offsets ever fail to increase (a damaged
 * log), the round gives up on it and every record is looked up.
 */
final class LatestOffsets {
    private final long maxWords;
    private long base;
    private long lastPut;
    private boolean usable;
    private long[] put = new long[64];
    private long[] replaced = new long[64];
    private int words;

    LatestOffsets(long maxBytes) {
        this.maxWords = Math.max(64, maxBytes / 16);   // two arrays of 8-byte words
    }

    /** A new round whose dirty range starts at {@code firstDirty}. */
    void reset(long firstDirty) {
        Arrays.fill(put, 0, words, 0L);
        Arrays.fill(replaced, 0, words, 0L);
        words = 0;
        base = firstDirty;
        lastPut = firstDirty - 1;
        usable = true;
    }

    /** The map build put {@code offset}; {@code previous} is the offset it replaced for that key, or -1. */
    void onPut(long offset, long previous) {
        if (!usable) {
            return;
        }
        if (offset <= lastPut) {
            usable = false;   // offsets must increase for one bit per offset to mean one record
            return;
        }
        lastPut = offset;
        long i = offset - base;
        int w = (int) (i >>> 6);
        if (w >= words) {
            if (w >= maxWords) {
                usable = false;
                return;
            }
            if (w >= put.length) {
                int n = (int) Math.min(maxWords, Math.max(put.length * 2L, w + 1L));
                put = Arrays.copyOf(put, n);
                replaced = Arrays.copyOf(replaced, n);
            }
            words = w + 1;
        }
        put[w] |= 1L << i;
        if (previous >= base) {
            long p = previous - base;
            replaced[(int) (p >>> 6)] |= 1L << p;
        }
    }

    /**
     * True when {@code count} records with offsets in {@code [first, last]} were all put and all
     * replaced: the bits of that range count {@code count} replaced puts (one record per offset).
     */
    boolean allReplaced(long first, long last, int count) {
        if (!usable || first < base) {
            return false;
        }
        long from = first - base;
        long to = last - base;   // inclusive
        int fw = (int) (from >>> 6);
        int tw = (int) (to >>> 6);
        if (tw >= words) {
            return false;
        }
        int n = 0;
        for (int w = fw; w <= tw; w++) {
            long bits = put[w] & replaced[w];
            if (w == fw) {
                bits &= -1L << from;
            }
            if (w == tw) {
                bits &= -1L >>> (63 - (to & 63));
            }
            n += Long.bitCount(bits);
        }
        return n == count;
    }

    /** 1 when the record at {@code offset} is its key's latest, 0 when a later one replaced it, -1 when unknown (look it up). */
    int latest(long offset) {
        if (!usable || offset < base) {
            return -1;
        }
        long i = offset - base;
        int w = (int) (i >>> 6);
        if (w >= words || (put[w] & 1L << i) == 0) {
            return -1;
        }
        return (replaced[w] & 1L << i) == 0 ? 1 : 0;
    }
}
