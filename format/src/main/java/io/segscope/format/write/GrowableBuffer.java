package io.segscope.format.write;

import java.io.OutputStream;
import java.nio.ByteBuffer;

/** A reused heap buffer that doubles when full, with an {@link OutputStream} face for the codecs. */
final class GrowableBuffer extends OutputStream {
    ByteBuffer buf;

    GrowableBuffer(int initialCapacity) {
        buf = ByteBuffer.allocate(Math.max(64, initialCapacity));
    }

    void ensure(int more) {
        if (buf.remaining() < more) {
            long need = (long) buf.position() + more;
            long cap = Math.max(need, (long) buf.capacity() * 2);
            if (cap > Integer.MAX_VALUE - 8) {
                if (need > Integer.MAX_VALUE - 8) {
                    throw new IllegalStateException("batch larger than 2 GiB");
                }
                cap = Integer.MAX_VALUE - 8;
            }
            ByteBuffer bigger = ByteBuffer.allocate((int) cap);
            buf.flip();
            bigger.put(buf);
            buf = bigger;
        }
    }

    @Override
    public void write(int b) {
        ensure(1);
        buf.put((byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        ensure(len);
        buf.put(b, off, len);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
