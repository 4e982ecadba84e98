package io.segscope.format.io;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A random-access source over one buffer whose index 0 is file position 0. */
class BufferSource implements ByteSource {
    private final ByteBuffer buffer;
    private final String name;
    private final Runnable onClose;

    BufferSource(ByteBuffer bytes, String name, Runnable onClose) {
        ByteBuffer b = bytes.slice();
        b.order(ByteOrder.BIG_ENDIAN);
        this.buffer = b;
        this.name = name;
        this.onClose = onClose;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long size() {
        return buffer.limit();
    }

    @Override
    public int ensure(long position, int length) {
        if (position < 0 || length < 0 || position + length > buffer.limit()) {
            return -1;
        }
        return (int) position;
    }

    @Override
    public long available(long position, long max) {
        long left = buffer.limit() - position;
        return left <= 0 ? 0 : Math.min(left, max);
    }

    @Override
    public ByteBuffer buffer() {
        return buffer;
    }

    @Override
    public boolean isRandomAccess() {
        return true;
    }

    @Override
    public void close() {
        if (onClose != null) {
            onClose.run();
        }
    }
}
