package io.segscope.format.index;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.SourceCopy;

import java.nio.ByteBuffer;

/**
 * The whole of an index file as one addressable buffer, with its name and its segment's base
 * offset. A random-access source (a mapping, a heap
 * buffer) is used as it is; a stream (an archive entry) is copied once into a heap buffer that is
 * kept and reused by the next {@link #reset}, so a reader that is re-wrapped allocates nothing
 * once its buffer is large enough.
 */
final class SourceWindow {
    /** Kafka's index positions are int32; no index file is larger. */
    private static final long MAX_BYTES = Integer.MAX_VALUE - 8;

    private ByteSource source;
    private long baseOffset;
    private ByteBuffer buffer;
    private int base;
    private long size;
    private long stored;
    private final SourceCopy copy = new SourceCopy();

    /** Points the window at {@code source}, the index file of the segment starting at {@code baseOffset}. */
    void reset(ByteSource source, long baseOffset) {
        reset(source, baseOffset, false);
    }

    /**
     * Points the window at {@code source}; with {@code zeroTail}, a source that knows its all-zero
     * tail ({@link ByteSource#zeroTailFrom()}) is used for its stored bytes only, and the reader
     * treats every byte from {@link #stored()} on as zero without its being in the buffer.
     */
    void reset(ByteSource source, long baseOffset, boolean zeroTail) {
        this.source = source;
        this.baseOffset = baseOffset;
        long zeroFrom = zeroTail ? source.zeroTailFrom() : -1;
        if (zeroFrom >= 0 && zeroFrom < source.size()) {
            long length = source.size();
            int at = zeroFrom == 0 ? 0 : source.ensure(0, (int) Math.min(zeroFrom, MAX_BYTES));
            if (at < 0 || length > MAX_BYTES) {
                throw FormatException.at(Violation.IO_ERROR, source.name(), 0).field("size").actual(length).build();
            }
            buffer = source.buffer();
            base = at;
            size = length;
            stored = zeroFrom;
            return;
        }
        if (source.isRandomAccess()) {
            long length = source.size();
            int at = length == 0 ? 0 : source.ensure(0, (int) Math.min(length, MAX_BYTES));
            if (at < 0 || length > MAX_BYTES) {
                throw FormatException.at(Violation.IO_ERROR, source.name(), 0).field("size").actual(length).build();
            }
            buffer = source.buffer();
            base = at;
            size = length;
            stored = length;
            return;
        }
        size = copy.copy(source, MAX_BYTES, "an index file");
        stored = size;
        buffer = ByteBuffer.wrap(copy.bytes());
        base = 0;
    }

    /** The file name errors use. */
    String name() {
        return source.name();
    }

    /** The segment's base offset, from the file name. */
    long baseOffset() {
        return baseOffset;
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

    /** Bytes held in the buffer from position 0; those after, up to {@link #size()}, are zero. */
    long stored() {
        return stored;
    }
}
