package io.segscope.format.io;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

import java.util.Arrays;

/**
 * Copies the whole of a source into a heap array that is kept and reused by the next copy. Small
 * files (indexes, snapshots, checkpoints) read from a stream (an archive entry) go through here;
 * it reads forward in chunks no larger than a stream's window and refuses a file over a cap.
 */
public final class SourceCopy {
    private static final int CHUNK = 64 * 1024;

    private byte[] bytes = new byte[0];
    private int length;

    /**
     * @param maxBytes the largest file accepted
     * @param what what the file is, for the error message ("an index file")
     * @return the number of bytes copied, now at the start of {@link #bytes()}
     */
    public int copy(ByteSource source, long maxBytes, String what) {
        long pos = 0;
        while (true) {
            long n = source.available(pos, CHUNK);
            if (n <= 0) {
                break;
            }
            if (pos + n > maxBytes) {
                throw FormatException.at(Violation.IO_ERROR, source.name(), pos).field("size")
                        .expected("<= " + maxBytes).note("too large for " + what).build();
            }
            int at = source.ensure(pos, (int) n);
            if (at < 0) {
                throw FormatException.at(Violation.IO_ERROR, source.name(), pos).field("size").build();
            }
            if (pos + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, (int) Math.min(maxBytes, Math.max(pos + n, 2L * bytes.length)));
            }
            source.buffer().get(at, bytes, (int) pos, (int) n);
            pos += n;
        }
        length = (int) pos;
        return length;
    }

    /** The copied bytes: valid from 0 to the length the last copy returned. */
    public byte[] bytes() {
        return bytes;
    }

    /** The copied bytes as an array of exactly their length. */
    public byte[] toArray() {
        return Arrays.copyOf(bytes, length);
    }

    /** A copy of the whole source as an exact array. */
    public static byte[] readAll(ByteSource source, long maxBytes, String what) {
        SourceCopy c = new SourceCopy();
        c.copy(source, maxBytes, what);
        return c.toArray();
    }
}
