package io.segscope.format.io;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * A forward-only source over an {@link InputStream} (an archive entry, a pipe). It keeps one
 * buffer holding at least the range last asked for; bytes before that range are dropped when
 * room is needed, so memory is bounded by the largest range a reader asks for (one batch), which
 * is capped by {@code maxWindow}: a hostile size field cannot make it allocate more.
 */
public final class StreamSource implements ByteSource {
    private static final int INITIAL = 64 * 1024;

    private final InputStream in;
    private final String name;
    private final int maxWindow;
    private ByteBuffer buffer;
    /** File position of buffer index 0. */
    private long bufferStart;
    /** Valid bytes in the buffer. */
    private int filled;
    private boolean eof;
    /** The stream's length when known in advance (an archive entry header says it), else -1. */
    private final long knownSize;

    public StreamSource(InputStream in, String name, int maxWindow) {
        this(in, name, maxWindow, -1);
    }

    /**
     * @param knownSize the length of the stream when known (e.g. from an archive entry header), so
     *     that a size field pointing past the end is recognised without reading up to it; -1 if unknown
     */
    public StreamSource(InputStream in, String name, int maxWindow, long knownSize) {
        this.in = in;
        this.name = name;
        this.maxWindow = maxWindow;
        this.knownSize = knownSize;
        this.buffer = ByteBuffer.allocate(Math.min(INITIAL, Math.max(maxWindow, 64)));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long size() {
        return eof ? bufferStart + filled : knownSize;
    }

    @Override
    public int ensure(long position, int length) {
        if (position < bufferStart) {
            throw new IllegalStateException("stream source " + name + " cannot go back to " + position
                    + " (at " + bufferStart + ")");
        }
        if (length < 0) {
            return -1;
        }
        if (length > maxWindow) {
            throw FormatException.at(Violation.BATCH_TOO_LARGE, name, position).field("size")
                    .expected("<= " + maxWindow).actual(length)
                    .note("raise the read window to read a batch this large from a stream").build();
        }
        if (position + length > bufferStart + buffer.capacity()) {
            moveTo(position, length);
        }
        int need = (int) (position - bufferStart) + length;
        while (filled < need && !eof) {
            readMore();
        }
        return filled >= need ? (int) (position - bufferStart) : -1;
    }

    /** Drops everything before {@code position} and makes room for {@code length} bytes after it. */
    private void moveTo(long position, int length) {
        long shift = position - bufferStart;
        if (shift >= filled) {
            skip(shift - filled);
            filled = 0;
        } else {
            System.arraycopy(buffer.array(), (int) shift, buffer.array(), 0, filled - (int) shift);
            filled -= (int) shift;
        }
        bufferStart = position;
        if (length > buffer.capacity()) {
            ByteBuffer bigger = ByteBuffer.allocate(Math.max(length, Math.min(maxWindow, 2 * buffer.capacity())));
            System.arraycopy(buffer.array(), 0, bigger.array(), 0, filled);
            buffer = bigger;
        }
    }

    private void skip(long n) {
        try {
            while (n > 0 && !eof) {
                long skipped = in.skip(n);
                if (skipped <= 0) {
                    if (in.read() < 0) {
                        eof = true;
                        return;
                    }
                    skipped = 1;
                }
                n -= skipped;
            }
        } catch (IOException e) {
            throw FormatException.at(Violation.IO_ERROR, name, bufferStart).note(IoReasons.of(e)).build(e);
        }
    }

    private void readMore() {
        try {
            int n = in.read(buffer.array(), filled, buffer.capacity() - filled);
            if (n < 0) {
                eof = true;
            } else {
                filled += n;
            }
        } catch (IOException e) {
            throw FormatException.at(Violation.IO_ERROR, name, bufferStart + filled)
                    .note(IoReasons.of(e)).build(e);
        }
    }

    @Override
    public long available(long position, long max) {
        if (knownSize >= 0 && !eof && position + max > knownSize) {
            // the entry header says how long the stream is: never read ahead for bytes that cannot exist
            max = Math.max(0, knownSize - position);
        }
        int want = (int) Math.min(max, maxWindow);
        if (ensure(position, want) >= 0) {
            return want;
        }
        return Math.max(0, Math.min(max, bufferStart + filled - position));
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
            in.close();
        } catch (IOException e) {
            // nothing was written; a failed close of a read-only stream loses nothing
        }
    }
}
