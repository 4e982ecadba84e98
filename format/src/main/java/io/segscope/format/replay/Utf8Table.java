package io.segscope.format.replay;

import io.segscope.format.coordinator.Utf8Slice;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Interns UTF-8 strings (group ids, topic names) by their bytes: {@link #find} looks a slice up
 * without allocating, {@link #intern} adds it once, with its {@code String}. Ids are dense from 0
 * and never reused. Not thread-safe.
 */
final class Utf8Table {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private byte[][] bytes = new byte[16][];
    private String[] strings = new String[16];
    private int[] hashes = new int[16];
    private int size;
    private int[] table = new int[32]; // id + 1, 0 = empty
    private int last = -1; // the id last found

    int size() {
        return size;
    }

    String string(int id) {
        return strings[id];
    }

    /** The id of the slice's bytes, or -1. */
    int find(Utf8Slice s) {
        // records come in runs of one group and topic (a commit's partitions): try the last hit first
        if (last >= 0 && equal(bytes[last], s)) {
            return last;
        }
        int h = hash(s.buffer(), s.offset(), s.length());
        int mask = table.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int e = table[i];
            if (e == 0) {
                return -1;
            }
            int id = e - 1;
            if (hashes[id] == h && equal(bytes[id], s)) {
                last = id;
                return id;
            }
        }
    }

    int intern(Utf8Slice s) {
        int id = find(s);
        if (id >= 0) {
            return id;
        }
        byte[] b = new byte[s.length()];
        s.buffer().get(s.offset(), b, 0, b.length);
        return add(b, new String(b, StandardCharsets.UTF_8));
    }

    int intern(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        int h = hash(ByteBuffer.wrap(b), 0, b.length);
        int mask = table.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int e = table[i];
            if (e == 0) {
                break;
            }
            if (hashes[e - 1] == h && Arrays.equals(bytes[e - 1], b)) {
                return e - 1;
            }
        }
        return add(b, s);
    }

    /** The id of a string, or -1. */
    int find(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return find(new Utf8Slice().wrap(ByteBuffer.wrap(b), 0, b.length));
    }

    private int add(byte[] b, String s) {
        if (size == bytes.length) {
            int n = size * 2;
            bytes = Arrays.copyOf(bytes, n);
            strings = Arrays.copyOf(strings, n);
            hashes = Arrays.copyOf(hashes, n);
        }
        int id = size++;
        bytes[id] = b;
        strings[id] = s;
        hashes[id] = hash(ByteBuffer.wrap(b), 0, b.length);
        if (size * 2 > table.length) {
            rehash(table.length * 2);
        } else {
            place(id);
        }
        return id;
    }

    private void rehash(int n) {
        table = new int[n];
        for (int id = 0; id < size; id++) {
            place(id);
        }
    }

    private void place(int id) {
        int mask = table.length - 1;
        int i = hashes[id] & mask;
        while (table[i] != 0) {
            i = (i + 1) & mask;
        }
        table[i] = id + 1;
    }

    private static boolean equal(byte[] b, Utf8Slice s) {
        if (b.length != s.length()) {
            return false;
        }
        ByteBuffer buf = s.buffer();
        int off = s.offset();
        int i = 0;
        for (; i + 8 <= b.length; i += 8) {
            if ((long) LONGS.get(b, i) != buf.getLong(off + i)) {
                return false;
            }
        }
        for (; i < b.length; i++) {
            if (b[i] != buf.get(off + i)) {
                return false;
            }
        }
        return true;
    }

    /** Eight bytes at a time (big-endian longs, as {@link ByteBuffer#getLong(int)} reads them), then byte by byte. */
    static int hash(ByteBuffer buf, int off, int len) {
        long h = 0x9747b28cL;
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            h = (h ^ buf.getLong(off + i)) * 0x9E3779B97F4A7C15L;
        }
        for (; i < len; i++) {
            h = (h ^ buf.get(off + i)) * 0x100000001B3L;
        }
        h ^= h >>> 32;
        return (int) (h ^ (h >>> 16));
    }
}
