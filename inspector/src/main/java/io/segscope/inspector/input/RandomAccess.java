package io.segscope.inspector.input;

import io.segscope.format.io.ByteSource;
import io.segscope.format.io.SourceCopy;
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
            return ByteSource.wrap(ByteBuffer.wrap(SourceCopy.readAll(s, MAX_SIDE_FILE, "a side file")), file.path());
        }
    }
}
