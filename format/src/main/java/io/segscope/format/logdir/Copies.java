package io.segscope.format.logdir;

import io.segscope.format.io.ByteSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;

/** Copies of input files into an output (never over an existing file), and removal of temporary output trees. */
public final class Copies {
    private Copies() {
    }

    /**
     * Copies a file (of the file system or an archive) to {@code to}, which must not exist, and syncs it.
     *
     * @param sparseZeroTail leave a zero tail the source knows of (a preallocated index) as a hole
     */
    public static void copy(FileEntry from, Path to, boolean sparseZeroTail) throws IOException {
        try (ByteSource source = from.open();
             FileChannel ch = FileChannel.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long zeros = sparseZeroTail ? source.zeroTailFrom() : -1;
            long end = zeros >= 0 ? zeros : Long.MAX_VALUE;
            long pos = 0;
            while (pos < end) {
                long n = source.available(pos, Math.min(1 << 20, end - pos));
                if (n <= 0) {
                    break;
                }
                int at = source.ensure(pos, (int) n);
                ByteBuffer b = source.buffer().duplicate();
                b.limit(at + (int) n).position(at);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                pos += n;
            }
            if (zeros >= 0 && source.size() > pos) {
                ch.write(ByteBuffer.allocate(1), source.size() - 1); // the zero tail, as a sparse file
            }
            ch.force(true);
        }
    }

    /** Deletes a tree of files (an output's temporary dir), deepest first; nothing when it is not there. */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
