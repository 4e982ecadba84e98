package io.segscope.format.write;

import java.io.IOException;
import java.io.OutputStream;

/**
 * {@code java.io.BufferedOutputStream}'s rules over a reused buffer: Kafka puts a 16 KiB
 * {@code BufferedOutputStream} in front of its gzip and zstd streams, so the codec sees the same
 * chunks here (a write at least as large as the buffer goes straight through). Capacity 0 passes
 * every write through (lz4, snappy).
 */
final class Chunker extends OutputStream {
    private final byte[] buf;
    private int count;
    private OutputStream out;

    Chunker(int capacity) {
        buf = new byte[capacity];
    }

    void target(OutputStream out) {
        this.out = out;
        this.count = 0;
    }

    private void flushBuffer() throws IOException {
        if (count > 0) {
            out.write(buf, 0, count);
            count = 0;
        }
    }

    @Override
    public void write(int b) throws IOException {
        if (buf.length == 0) {
            out.write(b);
            return;
        }
        if (count >= buf.length) {
            flushBuffer();
        }
        buf[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (len >= buf.length) {
            flushBuffer();
            out.write(b, off, len);
            return;
        }
        if (len > buf.length - count) {
            flushBuffer();
        }
        System.arraycopy(b, off, buf, count, len);
        count += len;
    }

    @Override
    public void flush() throws IOException {
        flushBuffer();
        out.flush();
    }

    /**
     * Kafka's {@code DataOutputStream.close()}: flush, then the inner stream's close; a
     * {@code BufferedOutputStream} flushes once more before closing the codec.
     */
    @Override
    public void close() throws IOException {
        flush();
        if (buf.length > 0) {
            flush();
        }
        out.close();
        out = null;
    }
}
