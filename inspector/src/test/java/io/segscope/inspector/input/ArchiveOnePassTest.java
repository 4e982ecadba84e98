package io.segscope.inspector.input;

import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.Include;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.verify.Verifier;
import io.segscope.format.walk.DecoderChoice;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordFilter;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;
import io.segscope.format.walk.TransactionOutcome;
import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A compressed tar is read in one forward pass, whatever order it stores its files in: here
 * every directory lists its entries in reverse name order (segments by descending base offset,
 * each {@code .log} after its indexes and snapshot, partitions and log dirs reversed), which the
 * reader asks for in another order. Nothing starts the stream over, and {@code verify} and
 * {@code dump} print what they print for the directory, but for the path prefix and the order of
 * the partitions (archive order).
 */
class ArchiveOnePassTest {
    /**
     * Transactions (committed, aborted, open), partitions of several segments, and a crashed
     * broker's preallocated 10 MiB indexes (their zero tails are findings).
     */
    private static final List<Path> RUNS = List.of(Corpus.corpus().resolve("kraft-3.9.1-plain"),
            Corpus.corpus().resolve("legacy-3.9.1-ibp0.10.0-none"), Corpus.corpus().resolve("kraft-4.4.0-crashed"));

    @TempDir
    static Path tmp;
    private static Path dir;
    private static Path archive;

    @BeforeAll
    static void build() throws IOException {
        dir = tmp.resolve("logs");
        for (Path run : RUNS) {
            Path logdir = run.resolve("logdir");
            try (Stream<Path> s = Files.walk(logdir)) {
                for (Path f : s.filter(Files::isRegularFile).toList()) {
                    Path to = dir.resolve(run.getFileName().toString()).resolve(logdir.relativize(f).toString());
                    Files.createDirectories(to.getParent());
                    Files.copy(f, to);
                }
            }
        }
        archive = tmp.resolve("logs.tar.gz");
        try (OutputStream os = new GzipCompressorOutputStream(Files.newOutputStream(archive));
             TarArchiveOutputStream tar = new TarArchiveOutputStream(os)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            add(tar, dir, "logs");
        }
    }

    /** A directory entry, then its children in reverse name order, depth first (as tar does, in another order). */
    private static void add(TarArchiveOutputStream tar, Path f, String name) throws IOException {
        if (Files.isDirectory(f)) {
            tar.putArchiveEntry(new TarArchiveEntry(f.toFile(), name + "/"));
            tar.closeArchiveEntry();
            List<Path> children;
            try (Stream<Path> s = Files.list(f)) {
                children = s.sorted(Comparator.reverseOrder()).toList();
            }
            for (Path c : children) {
                add(tar, c, name + "/" + c.getFileName());
            }
            return;
        }
        tar.putArchiveEntry(new TarArchiveEntry(f.toFile(), name));
        Files.copy(f, tar);
        tar.closeArchiveEntry();
    }

    /** Output lines with the archive's path prefix made the directory's, sorted: partitions come in archive order. */
    private static List<String> normalized(String out, String prefix) {
        return out.lines().map(l -> l.replace(prefix, dir.toString())).sorted().collect(Collectors.toList());
    }

    @Test
    void verifyReadsTheStreamOnceAndFindsWhatTheDirectoryHas() {
        List<String> fromArchive = new ArrayList<>();
        try (PathArgument arg = PathArgument.open(archive)) {
            Verifier v = new Verifier(ReaderOptions.defaults(), f -> fromArchive.add(f.toString()))
                    .readOrder(arg.archiveOrder());
            assertThat(v.verify(arg.entry())).isTrue();
            assertThat(arg.tree().restarts()).isZero();
        }
        List<String> fromDir = new ArrayList<>();
        new Verifier(ReaderOptions.defaults(), f -> fromDir.add(f.toString())).verify(dir);
        assertThat(normalized(String.join("\n", fromArchive), archive + "!/logs"))
                .isEqualTo(normalized(String.join("\n", fromDir), dir.toString()))
                .anySatisfy(f -> assertThat(f).contains("index-preallocated"));

        Run d = Run.of("verify", "--format", "jsonl", dir.toString());
        Run a = Run.of("verify", "--format", "jsonl", archive.toString());
        assertThat(a.exit()).as(a.err()).isEqualTo(d.exit());
        assertThat(a.err()).isEqualTo(d.err());
        assertThat(normalized(a.out(), archive + "!/logs")).isEqualTo(normalized(d.out(), dir.toString())).isNotEmpty();
    }

    @Test
    void dumpReadsTheStreamOnceAndPrintsWhatTheDirectoryHas() {
        long[] seen = new long[3];
        try (Inputs inputs = Inputs.resolve(List.of(archive), EnumSet.noneOf(Include.class), EnumSet.of(FileKind.LOG), null,
                ReaderOptions.defaults())) {
            RecordWalk walk = new RecordWalk(ReaderOptions.defaults(), DecoderChoice.AUTO, RecordFilter.ALL, Long.MAX_VALUE)
                    .tellTransactions(inputs::transactionOutcomes);
            walk.walk(inputs.files(), new RecordSink() {
                @Override
                public void batch(LogFile file, Batch batch, TransactionOutcome transaction) {
                    if (transaction == TransactionOutcome.COMMITTED) {
                        seen[0]++;
                    } else if (transaction == TransactionOutcome.ABORTED) {
                        seen[1]++;
                    }
                }

                @Override
                public void record(LogFile file, Batch batch, LogRecord record, RecordContent content) {
                    seen[2]++;
                }
            });
            assertThat(inputs.archiveRestarts()).isZero();
        }
        assertThat(seen[0]).isPositive();
        assertThat(seen[1]).isPositive();
        assertThat(seen[2]).isPositive();

        for (String format : List.of("jsonl", "text", "kafka")) {
            // every kind of file: the indexes (preallocated ones too) are read from the listing pass's cache
            Run d = Run.of("dump", "--format", format, "--files", "all", dir.toString());
            Run a = Run.of("dump", "--format", format, "--files", "all", archive.toString());
            assertThat(a.exit()).as(a.err()).isEqualTo(d.exit());
            assertThat(normalized(a.out(), archive + "!/logs")).as(format)
                    .isEqualTo(normalized(d.out(), dir.toString())).hasSizeGreaterThan(100);
        }
    }
}
