package io.segscope.format.io;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * CRC-32C (magic 2 batches, producer snapshots) and CRC-32 (magic 0/1 messages) over a range of
 * a buffer, using the JDK's intrinsified implementations. One instance per reader: the checksum
 * objects and the buffer duplicate are reused, so a computation allocates nothing unless the
 * buffer itself changes.
 */
public final class Checksums {
    private final CRC32C crc32c = new CRC32C();
    private final CRC32 crc32 = new CRC32();
    private ByteBuffer source;
    private ByteBuffer view;

    /** CRC-32C of {@code [from, to)} of {@code buf}, as an unsigned 32-bit value. */
    public long crc32c(ByteBuffer buf, int from, int to) {
        return compute(crc32c, buf, from, to);
    }

    /** CRC-32 of {@code [from, to)} of {@code buf}, as an unsigned 32-bit value. */
    public long crc32(ByteBuffer buf, int from, int to) {
        return compute(crc32, buf, from, to);
    }

    /**
     * CRC-32C ({@code castagnoli}) or CRC-32 of {@code [from, to)} of a source, read a chunk at a
     * time: a range of any size is checked with at most {@code chunk} bytes of it in memory.
     *
     * @return the unsigned value, or -1 when the source cannot give the bytes
     */
    public long crcOf(ByteSource source, long from, long to, boolean castagnoli, int chunk) {
        Checksum c = castagnoli ? crc32c : crc32;
        c.reset();
        for (long q = from; q < to; ) {
            int n = (int) Math.min(chunk, to - q);
            int idx = source.ensure(q, n);
            if (idx < 0) {
                return -1;
            }
            ByteBuffer buf = source.buffer();
            if (buf != this.source) {
                this.source = buf;
                view = buf.duplicate();
            }
            view.limit(view.capacity()).position(idx).limit(idx + n);
            c.update(view);
            q += n;
        }
        return c.getValue();
    }

    private long compute(Checksum c, ByteBuffer buf, int from, int to) {
        if (buf != source) {
            source = buf;
            view = buf.duplicate();
        }
        view.limit(view.capacity()).position(from).limit(to);
        c.reset();
        c.update(view);
        return c.getValue();
    }
}
