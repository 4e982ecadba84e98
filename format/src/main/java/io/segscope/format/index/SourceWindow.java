package io.segscope.format.index;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The whole of an index file as one addressable buffer. A random-access source (a mapping, a heap
 * buffer) is used as it is; a stream (an archive entry) is copied once into a heap buffer that is
 * kept and reused by the next {@link #reset}, so a reader that is re-wrapped allocates nothing
 * once its buffer is large enough.
 */
final class SourceWindow {
    /** Kafka's index positions are int32; no index file is larger. */
    private static final long MAX_BYTES = Integer.MAX_VALUE - 8;
    private static final int CHUNK = 64 * 1024;

    private ByteBuffer buffer;
    private int base;
    private long size;
    private byte[] copy = new byte[0];

    void reset(ByteSource source) {
        if (source.isRandomAccess()) {
            long length = source.size();
            int at = length == 0 ? 0 : source.ensure(0, (int) Math.min(length, MAX_BYTES));
            if (at < 0 || length > MAX_BYTES) {
                throw FormatException.at(Violation.IO_ERROR, source.name(), 0).field("size").actual(length).build();
            }
            buffer = source.buffer();
            base = at;
            size = length;
            return;
        }
        long pos = 0;
        while (true) {
            long n = source.available(pos, CHUNK);
            if (n <= 0) {
                break;
            }
            if (pos + n > MAX_BYTES) {
                throw FormatException.at(Violation.IO_ERROR, source.name(), pos).field("size")
                        .expected("<= " + MAX_BYTES).note("too large for an index file").build();
            }
            int at = source.ensure(pos, (int) n);
            if (at < 0) {
                throw FormatException.at(Violation.IO_ERROR, source.name(), pos).field("size").build();
            }
            if (pos + n > copy.length) {
                copy = Arrays.copyOf(copy, (int) Math.min(MAX_BYTES, Math.max(pos + n, 2L * copy.length)));
            }
            source.buffer().get(at, copy, (int) pos, (int) n);
            pos += n;
        }
        buffer = ByteBuffer.wrap(copy);
        base = 0;
        size = pos;
    }

    ByteBuffer buffer() {
        return buffer;
    }

    /** Buffer index of file position 0. */
    int base() {
        return base;
    }

    long size() {
        return size;
    }
}
