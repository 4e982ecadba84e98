package io.segscope.format.io;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * A forward-only source over an {@link InputStream} (an archive entry, a pipe). It keeps one
 * buffer that holds at least the range last asked for; older bytes are dropped when more room
 * is needed, so memory is bounded by the largest single range a reader asks for (one batch),
 * which the readers cap.
 */
public final class StreamSource implements ByteSource {
    private final InputStream in;
    private final String name;
    private final int maxWindow;
    private ByteBuffer buffer;
    /** File position of buffer index 0. */
    private long bufferStart;
    /** Number of valid bytes in buffer. */
    private int filled;
    private boolean eof;

    /**
     * @param maxWindow the largest range a caller may ensure at once; larger requests are an error
     *     (a hostile size field must not make us allocate gigabytes)
     */
    public StreamSource(InputStream in, String name, int maxWindow) {
        this.in = in;
        this.name = name;
        this.maxWindow = maxWindow;
        this.buffer = ByteBuffer.allocate(Math.min(64 * 1024, Math.max(maxWindow, 64)));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long size() {
        return eof ? bufferStart + filled : -1;
    }

    @Override
    public int ensure(long position, int length) {
        if (position < bufferStart || length < 0) {
            throw new IllegalStateException("stream source " + name + " cannot go back to " + position);
        }
        if (length > maxWindow) {
            return fill(position, 0) >= 0 && available(position, length) >= length ? tooLarge(position, length) : -1;
        }
        return fill(position, length);
    }

    private int tooLarge(long position, int length) {
        throw FormatException.at(Violation.BATCH_TOO_LARGE, name, position).field("size")
                .expected("<= " + maxWindow).actual(length)
                .note("raise the read window to read a batch this large from a stream").build();
    }

    private int fill(long position, int length) {
        long end = position + length;
        if (end > bufferStart + buffer.capacity()) {
            // Slide the window so that position is at index 0, growing the buffer if needed.
            int keepFrom = (int) Math.min(position - bufferStart, filled);
            int keep = filled - keepFrom;
            ByteBuffer target = buffer;
            if (length > buffer.capacity()) {
                target = ByteBuffer.allocate(Math.max(length, Math.min(maxWindow, buffer.capacity() * 2)));
            }
            System.arraycopy(buffer.array(), keepFrom, target.array(), 0, keep);
            buffer = target;
            bufferStart += keepFrom;
            filled = keep;
            if (bufferStart < position) { // the stream must be skipped forward
                skipTo(position);
            }
        }
        int need = (int) (end - bufferStart);
        while (filled < need && !eof) {
            readMore();
        }
        if (filled < need) {
            return -1;
        }
        return (int) (position - bufferStart);
    }

    private void skipTo(long position) {
        while (bufferStart + filled < position && !eof) {
            filled = 0;
            bufferStart = bufferStart + filled;
            readMore();
            if (bufferStart + filled > position) {
                int drop = (int) (position - bufferStart);
                System.arraycopy(buffer.array(), drop, buffer.array(), 0, filled - drop);
                filled -= drop;
                bufferStart = position;
                return;
            }
            bufferStart += filled;
            filled = 0;
        }
        if (bufferStart + filled < position) {
            bufferStart = position;
            filled = 0;
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
                    .note(String.valueOf(e.getMessage())).build(e);
        }
    }

    @Override
    public long available(long position, long max) {
        if (position < bufferStart) {
            throw new IllegalStateException("stream source " + name + " cannot go back to " + position);
        }
        int want = (int) Math.min(max, maxWindow);
        fill(position, 0);
        long have = bufferStart + filled - position;
        while (have < want && !eof) {
            if (fill(position, (int) Math.min(want, have + 1)) < 0) {
                break;
            }
            have = bufferStart + filled - position;
        }
        have = bufferStart + filled - position;
        return Math.max(0, Math.min(have, max));
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
