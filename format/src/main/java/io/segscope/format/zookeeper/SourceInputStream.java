package io.segscope.format.zookeeper;

import io.segscope.format.io.ByteSource;

import java.io.InputStream;
import java.nio.ByteBuffer;

/** A {@link ByteSource} read front to back as an {@link InputStream} (closing it closes the source). */
final class SourceInputStream extends InputStream {
    private static final int STEP = 64 * 1024;
    private final ByteSource source;
    private long position;

    SourceInputStream(ByteSource source) {
        this.source = source;
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        int n = (int) source.available(position, Math.min(len, STEP));
        if (n <= 0) {
            return -1;
        }
        int at = source.ensure(position, n);
        if (at < 0) {
            return -1;
        }
        ByteBuffer buf = source.buffer();
        buf.get(at, b, off, n);
        position += n;
        return n;
    }

    @Override
    public void close() {
        source.close();
    }
}
