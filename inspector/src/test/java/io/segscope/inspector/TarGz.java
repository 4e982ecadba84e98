package io.segscope.inspector;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Writes a directory as a {@code .tar.gz} (entries under the directory's name, in name order), as an operator's archive holds it. */
public final class TarGz {
    private TarGz() {
    }

    public static Path of(Path out, Path dir) throws IOException {
        try (OutputStream os = Files.newOutputStream(out);
             GzipCompressorOutputStream gz = new GzipCompressorOutputStream(os);
             TarArchiveOutputStream tar = new TarArchiveOutputStream(gz);
             Stream<Path> files = Files.walk(dir)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Path p : files.sorted().toList()) {
                String name = dir.getFileName() + "/" + dir.relativize(p).toString().replace('\\', '/');
                if (Files.isDirectory(p)) {
                    tar.putArchiveEntry(new TarArchiveEntry(p.toFile(), name.endsWith("/") ? name : name + "/"));
                } else {
                    tar.putArchiveEntry(new TarArchiveEntry(p.toFile(), name));
                    Files.copy(p, tar);
                }
                tar.closeArchiveEntry();
            }
        }
        return out;
    }
}
