package io.segscope.inspector.report;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes the page atomically: into a temporary file beside the target, synced, then renamed over
 * it. A target that exists and is not a regular file (a directory, {@code /dev/full}, a pipe) is
 * refused: renaming over it would replace a device node or fail half way.
 */
public final class ReportFile {
    private ReportFile() {
    }

    /** Why {@code out} cannot take the page, or null when it can be tried. */
    public static String refusal(Path out) {
        if (Files.exists(out) && !Files.isRegularFile(out, LinkOption.NOFOLLOW_LINKS)) {
            return out + " exists and is not a regular file: give a file name for --out";
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            return "the directory of " + out + " does not exist";
        }
        return null;
    }

    /** Writes {@code html} to {@code out} through a temporary file in the same directory. */
    public static void write(Path out, String html) throws IOException {
        Path target = out.toAbsolutePath();
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
        boolean done = false;
        try {
            try {
                // a page to share: readable by others, as a file the shell creates (createTempFile makes it 0600)
                Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: its default
            }
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(html.getBytes(StandardCharsets.UTF_8));
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            done = true;
        } finally {
            if (!done) {
                Files.deleteIfExists(tmp);
            }
        }
    }
}
