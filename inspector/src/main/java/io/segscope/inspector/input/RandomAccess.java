package io.segscope.inspector.input;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileEntry;

import java.nio.ByteBuffer;

/**
 * Opens a small file (index, snapshot, checkpoint) so that it can be read at any position:
 * mapped files are that already; an archive entry is read into memory, up to a cap.
 */
public final class RandomAccess {
    /** Kafka's default index size is 10 MiB; anything far beyond that is not a side file. */
    public static final int MAX_SIDE_FILE = 64 * 1024 * 1024;

    private RandomAccess() {
    }

    public static ByteSource open(FileEntry file) {
        ByteSource s = file.open();
        if (s.isRandomAccess()) {
            return s;
        }
        try (s) {
            long len = s.available(0, MAX_SIDE_FILE + 1L);
            if (len > MAX_SIDE_FILE) {
                throw FormatException.at(Violation.IO_ERROR, file.path(), 0).field("size")
                        .expected("<= " + MAX_SIDE_FILE).actual("more").note("too large for a side file").build();
            }
            int at = s.ensure(0, (int) len);
            byte[] copy = new byte[(int) len];
            s.buffer().get(at, copy);
            return ByteSource.wrap(ByteBuffer.wrap(copy), file.path());
        }
    }
}
