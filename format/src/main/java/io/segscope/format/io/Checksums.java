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
