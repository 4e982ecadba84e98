package io.segscope.inspector.input;

import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import org.apache.commons.compress.archivers.ArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.apache.commons.compress.compressors.zstandard.ZstdCompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Archives of a log dir are read in place: dumping the archive prints exactly what dumping the
 * directory prints, for every archive kind, with files in archive order or not.
 */
class ArchiveInputTest {
    private static final Path LOGDIR = Corpus.synthetic().resolve("logdir");

    private static List<Path> files(boolean reverse) throws IOException {
        try (Stream<Path> s = Files.walk(LOGDIR)) {
            List<Path> list = s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
            if (reverse) {
                java.util.Collections.reverse(list);
            }
            return list;
        }
    }

    private static void tar(OutputStream os, boolean reverse) throws IOException {
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(os)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Path f : files(reverse)) {
                TarArchiveEntry e = new TarArchiveEntry(f.toFile(), "kafka-logs/" + LOGDIR.relativize(f));
                add(tar, e, f);
            }
        }
    }

    private static <E extends org.apache.commons.compress.archivers.ArchiveEntry> void add(ArchiveOutputStream<E> out, E e, Path f)
            throws IOException {
        out.putArchiveEntry(e);
        Files.copy(f, out);
        out.closeArchiveEntry();
    }

    private static String normalize(String out) {
        return out.lines().map(l -> l.startsWith("Dumping ") ? "Dumping " + l.substring(l.lastIndexOf('/') + 1)
                        : l.endsWith(" is empty.") ? l.substring(l.lastIndexOf('/') + 1) : l)
                .collect(Collectors.joining("\n"));
    }

    /** The output cut into one block per file ("Dumping ..." and what follows), sorted. */
    private static List<String> fileBlocks(String out) {
        List<String> blocks = new java.util.ArrayList<>();
        StringBuilder b = new StringBuilder();
        for (String l : out.split("\n")) {
            if (l.startsWith("Dumping ") && b.length() > 0) {
                blocks.add(b.toString());
                b.setLength(0);
            }
            b.append(l).append('\n');
        }
        blocks.add(b.toString());
        java.util.Collections.sort(blocks);
        return blocks;
    }

    private static void assertSameAsDirectory(Path archive) {
        assertSameAsDirectory(archive, false);
    }

    /**
     * @param archiveOrder a compressed tar stored in another order than the directory's: its
     *     partitions come in archive order (README), each file's output is the directory's
     */
    private static void assertSameAsDirectory(Path archive, boolean archiveOrder) {
        Run dir = Run.of("dump", "--format", "kafka", "--print-data-log", LOGDIR.toString());
        Run arc = Run.of("dump", "--format", "kafka", "--print-data-log", archive.toString());
        assertThat(arc.exit()).as(arc.err()).isZero();
        assertThat(dir.out().lines().filter(l -> l.startsWith("Dumping ")).count()).isGreaterThan(5);
        if (archiveOrder) {
            assertThat(fileBlocks(normalize(arc.out()))).isEqualTo(fileBlocks(normalize(dir.out())));
        } else {
            assertThat(normalize(arc.out())).isEqualTo(normalize(dir.out()));
        }
        assertThat(arc.out()).contains("Dumping " + archive + "!/kafka-logs/synthetic-magic2-0/00000000000000000000.log");
    }

    @Test
    void tar(@TempDir Path dir) throws IOException {
        Path a = dir.resolve("logs.tar");
        try (OutputStream os = Files.newOutputStream(a)) {
            tar(os, false);
        }
        assertSameAsDirectory(a);
    }

    @Test
    void tarGzInReverseOrder(@TempDir Path dir) throws IOException {
        Path a = dir.resolve("logs.tgz");
        try (OutputStream os = new GzipCompressorOutputStream(Files.newOutputStream(a))) {
            tar(os, true);
        }
        assertSameAsDirectory(a, true);
    }

    @Test
    void tarBz2AndZst(@TempDir Path dir) throws IOException {
        Path bz = dir.resolve("logs.tar.bz2");
        try (OutputStream os = new BZip2CompressorOutputStream(Files.newOutputStream(bz))) {
            tar(os, false);
        }
        assertSameAsDirectory(bz);
        Path zst = dir.resolve("logs.tar.zst");
        try (OutputStream os = new ZstdCompressorOutputStream(Files.newOutputStream(zst))) {
            tar(os, false);
        }
        assertSameAsDirectory(zst);
    }

    @Test
    void zip(@TempDir Path dir) throws IOException {
        Path a = dir.resolve("logs.zip");
        try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(a)) {
            for (Path f : files(false)) {
                add(zip, new ZipArchiveEntry(f.toFile(), "kafka-logs/" + LOGDIR.relativize(f)), f);
            }
        }
        assertSameAsDirectory(a);
    }

    @Test
    void archiveWithoutKafkaDataIsAnIoError(@TempDir Path dir) throws IOException {
        Path a = dir.resolve("empty.zip");
        try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(a)) {
            Path f = Files.writeString(dir.resolve("readme.txt"), "nothing here");
            add(zip, new ZipArchiveEntry(f.toFile(), "readme.txt"), f);
        }
        Run run = Run.of("dump", a.toString());
        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.err()).contains("no Kafka segment, partition dir or log dir found there");
    }
}
