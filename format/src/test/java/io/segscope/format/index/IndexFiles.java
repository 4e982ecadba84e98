package io.segscope.format.index;

import io.segscope.format.io.ByteSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Small helpers for index tests: raw files, heap sources, temp dirs inside properties. */
final class IndexFiles {
    private IndexFiles() {
    }

    static Path write(Path file, ByteBuffer bytes) {
        try {
            Files.write(file, java.util.Arrays.copyOf(bytes.array(), bytes.limit()));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ByteSource heap(ByteBuffer bytes, String name) {
        ByteBuffer b = bytes.duplicate();
        b.position(0);
        return ByteSource.wrap(b, name);
    }

    static Path tempDir() {
        try {
            return Files.createTempDirectory("segscope-index");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
