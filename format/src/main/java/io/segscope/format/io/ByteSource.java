package io.segscope.format.io;

import java.io.Closeable;
import java.nio.ByteBuffer;

/**
 * A readable window onto the bytes of one file. Readers never open files themselves: they get a
 * source and its name (for error messages), so that mapped files, heap buffers and archive
 * entries all go through the same code.
 *
 * <p>Access is by absolute file position. {@link #ensure(long, int)} makes a range readable and
 * says where it lies in {@link #buffer()}; for a mapped file that is the identity and costs
 * nothing, for a stream it reads ahead into a reused buffer. Buffers are big-endian and must be
 * read with absolute gets ({@code buf.getInt(index)}); nobody moves their position.
 *
 * <p>A stream source only moves forward: after {@code ensure(p, n)}, bytes before {@code p} may be
 * gone. Sequential readers (the batch walker) need nothing more.
 */
public interface ByteSource extends Closeable {

    /** The file name used in error messages (a relative path or an archive entry name). */
    String name();

    /** Total size in bytes, or -1 while it is not known (a stream not yet read to its end). */
    long size();

    /**
     * Makes {@code [position, position + length)} readable in {@link #buffer()}.
     *
     * @return the index in {@link #buffer()} that holds the byte at {@code position}, or -1 when
     *     the source ends before {@code position + length} (use {@link #available} to learn how
     *     many bytes are left)
     */
    int ensure(long position, int length);

    /** How many bytes exist from {@code position} on, counting at most {@code max}. */
    long available(long position, long max);

    /** The current backing buffer; may change after {@link #ensure} for stream sources. */
    ByteBuffer buffer();

    /** True when the whole file is addressable at once (mapped or heap), i.e. index == position. */
    boolean isRandomAccess();

    /**
     * Where a known all-zero tail starts (a preallocated index held as its stored bytes and the
     * length of its zeros), or -1 when none is known. Bytes from there to {@link #size()} are zero;
     * the bytes before it can be read with {@code ensure(0, zeroTailFrom())}.
     */
    default long zeroTailFrom() {
        return -1;
    }

    @Override
    default void close() {
    }

    /** A source over bytes already in memory (tests, decompressed data, small files). */
    static ByteSource wrap(ByteBuffer bytes, String name) {
        return new BufferSource(bytes, name, null);
    }

    /**
     * A source of {@code size} bytes: {@code data}, then zeros up to {@code size}, which are not
     * held in memory (see {@link #zeroTailFrom()}).
     */
    static ByteSource withZeroTail(ByteBuffer data, long size, String name) {
        return new ZeroTailSource(data, size, name);
    }
}
