package io.segscope.testdata.generator;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Directory trees the generators copy into the corpus or clear before writing. */
public final class Trees {
    private Trees() {
    }

    /**
     * Copies {@code from} to {@code to} with real files, replacing any there: a plain byte copy
     * (no links, no sparse tricks), so preallocated index tails become real zeros, not holes.
     */
    public static void copyTree(Path from, Path to) throws IOException {
        List<Path> all;
        try (Stream<Path> s = Files.walk(from)) {
            all = s.sorted().collect(Collectors.toList());
        }
        for (Path src : all) {
            Path dst = to.resolve(from.relativize(src).toString());
            if (Files.isDirectory(src)) {
                Files.createDirectories(dst);
            } else {
                Files.write(dst, Files.readAllBytes(src));
            }
        }
    }

    /** Deletes {@code dir} and everything below it; nothing when it does not exist. */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
