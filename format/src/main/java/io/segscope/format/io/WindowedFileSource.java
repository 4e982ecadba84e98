package io.segscope.format.io;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A large file read through one window of memory: positional reads of the file channel (opened
 * READ only) into a heap buffer that holds at least the range last asked for, re-read wherever a
 * reader goes, forwards or back. The resident set holds the window, not the file, whatever its
 * size (a mapped file's pages count in it as they are read). Readers see a non-random-access
 * source: they ask for each range with {@link #ensure}, and a range larger than {@link #MAX_RANGE}
 * (the readers' default batch cap: no Kafka batch is larger) is refused as from a stream, so that a
 * hostile size field cannot make it allocate the file.
 */
public final class WindowedFileSource implements ByteSource {
    /** Bytes read at a time when the reader moves out of the window. */
    static final int WINDOW = 8 << 20;
    /** The largest range read at once. */
    public static final int MAX_RANGE = 128 << 20;

    private final FileChannel channel;
    private final String name;
    private final long size;
    private final int window;
    private ByteBuffer buffer;
    /** File position of buffer index 0, and the bytes read there. */
    private long start;
    private int filled;

    /** Opens {@code file} read-only. */
    public WindowedFileSource(Path file, String name) {
        this(file, name, WINDOW);
    }

    WindowedFileSource(Path file, String name, int window) {
        this.name = name;
        this.window = window;
        try {
            this.channel = FileChannel.open(file, StandardOpenOption.READ);
            this.size = channel.size();
        } catch (IOException e) {
            throw FormatException.at(Violation.IO_ERROR, name, 0).note(IoReasons.of(e)).build(e);
        }
        this.buffer = ByteBuffer.allocate((int) Math.min(window, Math.max(size, 64)));
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
    public int ensure(long position, int length) {
        if (length < 0 || position < 0 || position + length > size) {
            return -1;
        }
        if (position >= start && position + length <= start + filled) {
            return (int) (position - start);
        }
        if (length > MAX_RANGE) {
            throw FormatException.at(Violation.BATCH_TOO_LARGE, name, position).field("size")
                    .expected("<= " + MAX_RANGE).actual(length)
                    .note("no Kafka batch is this large; read through a window of memory, the file is not loaded for it").build();
        }
        int want = (int) Math.min(Math.max(length, window), size - position);
        if (buffer.capacity() < want) {
            buffer = ByteBuffer.allocate(want);
        }
        start = position;
        filled = 0;
        try {
            while (filled < want) {
                int n = channel.read(buffer.clear().position(filled).limit(want), position + filled);
                if (n < 0) {
                    break; // the file shrank while read
                }
                filled += n;
            }
        } catch (IOException e) {
            throw FormatException.at(Violation.IO_ERROR, name, position).note(IoReasons.of(e)).build(e);
        }
        buffer.clear();
        return filled >= length ? 0 : -1;
    }

    @Override
    public long available(long position, long max) {
        return Math.max(0, Math.min(max, size - position));
    }

    @Override
    public ByteBuffer buffer() {
        return buffer;
    }

    @Override
    public boolean isRandomAccess() {
        return false;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // read-only: nothing was written that closing could lose
        }
    }
}
