package io.segscope.format.io;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A file held in memory as its stored bytes and the length of the all-zero tail after them: a
 * preallocated index read from an archive (10 MiB on disk, a few entries of data) costs its data,
 * not its length. {@link ByteSource#zeroTailFrom()} tells readers that know (the index readers)
 * where the zeros start; any other reader sees the whole file through {@link #ensure}, which
 * builds the requested range in a scratch buffer when it reaches into the tail.
 */
final class ZeroTailSource implements ByteSource {
    private final ByteBuffer data;
    private final long size;
    private final String name;
    private ByteBuffer current;
    private ByteBuffer scratch = ByteBuffer.allocate(0);

    ZeroTailSource(ByteBuffer data, long size, String name) {
        ByteBuffer d = data.slice();
        d.order(ByteOrder.BIG_ENDIAN);
        if (size < d.limit()) {
            throw new IllegalArgumentException("size " + size + " < data " + d.limit());
        }
        this.data = d;
        this.size = size;
        this.name = name;
        this.current = d;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public long zeroTailFrom() {
        return data.limit();
    }

    @Override
    public int ensure(long position, int length) {
        if (position < 0 || length < 0 || position + length > size) {
            return -1;
        }
        if (position + length <= data.limit()) {
            current = data;
            return (int) position;
        }
        if (scratch.capacity() < length) {
            scratch = ByteBuffer.allocate(length);
        }
        ByteBuffer s = scratch;
        java.util.Arrays.fill(s.array(), 0, length, (byte) 0);
        int stored = (int) Math.max(0, Math.min(length, data.limit() - position));
        if (stored > 0) {
            data.get((int) position, s.array(), 0, stored);
        }
        current = s;
        return 0;
    }

    @Override
    public long available(long position, long max) {
        long left = size - position;
        return left <= 0 ? 0 : Math.min(left, max);
    }

    @Override
    public ByteBuffer buffer() {
        return current;
    }

    @Override
    public boolean isRandomAccess() {
        return false;
    }
}
