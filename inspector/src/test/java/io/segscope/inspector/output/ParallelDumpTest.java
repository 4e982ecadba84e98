package io.segscope.inspector.output;

import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code dump --threads N} gives exactly the output, diagnostics and exit code of one thread:
 * every corpus run's log dir (segments and side files, every format), and damaged copies of
 * coordinator partitions (flipped bytes, cut files, zeroed stretches: resynchronisation, torn
 * tails and problems inside the chunks of different workers), with chunks of a few KiB so that
 * every file is cut into many chunks owned by different threads.
 */
class ParallelDumpTest {
    private static final String[] FORMATS = {"text", "kafka", "jsonl"};

    @BeforeAll
    static void smallChunks() {
        ParallelDump.chunkBytes = 3000;
    }

    @AfterAll
    static void defaultChunks() {
        ParallelDump.chunkBytes = ParallelDump.CHUNK_BYTES;
    }

    static Stream<Path> logDirs() throws IOException {
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> runs = Files.list(Corpus.corpus())) {
            for (Path run : runs.sorted().toList()) {
                Path logdir = run.resolve("logdir");
                if (Files.isDirectory(logdir)) {
                    dirs.add(logdir);
                }
            }
        }
        assertThat(dirs).hasSizeGreaterThanOrEqualTo(8);
        return dirs.stream();
    }

    private static void assertSameAsOneThread(String... args) {
        List<String> one = new ArrayList<>(List.of(args));
        one.add(1, "--threads");
        one.add(2, "1");
        Run single = Run.of(one.toArray(String[]::new));
        assertThat(single.out()).as("one thread printed something for %s", List.of(args)).isNotEmpty();
        for (String n : new String[]{"2", "3"}) {
            List<String> many = new ArrayList<>(List.of(args));
            many.add(1, "--threads");
            many.add(2, n);
            Run parallel = Run.of(many.toArray(String[]::new));
            assertThat(parallel.exit()).as("exit, %s threads, %s", n, List.of(args)).isEqualTo(single.exit());
            if (!parallel.out().equals(single.out())) {
                assertThat(parallel.out()).as("stdout, %s threads, %s", n, List.of(args)).isEqualTo(single.out());
            }
            assertThat(parallel.err()).as("stderr, %s threads, %s", n, List.of(args)).isEqualTo(single.err());
        }
    }

    @ParameterizedTest
    @MethodSource("logDirs")
    void everyCorpusLogDirPrintsTheSameOnSeveralThreads(Path logdir) {
        for (String format : FORMATS) {
            assertSameAsOneThread("dump", "--format", format, "--files", "log,index,timeindex,txnindex,snapshot",
                    logdir.toString());
        }
    }

    @Test
    void filtersGiveTheSameOnSeveralThreads() {
        String plain = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir").toString();
        assertSameAsOneThread("dump", "--format", "kafka", "--type", "OffsetCommit", plain);
        assertSameAsOneThread("dump", "--format", "jsonl", "--from-offset", "3", "--to-offset", "40", plain);
        assertSameAsOneThread("dump", "--format", "text", "--type", "GroupMetadata", plain);
    }

    @Test
    void damagedPartitionsPrintTheSameOnSeveralThreads(@TempDir Path tmp) throws IOException {
        Path plain = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
        List<Path> partitions;
        try (Stream<Path> s = Files.list(plain)) {
            partitions = s.filter(p -> p.getFileName().toString().startsWith("__consumer_offsets-"))
                    .filter(p -> {
                        try {
                            return Files.size(p.resolve("00000000000000000000.log")) > 20_000;
                        } catch (IOException e) {
                            return false;
                        }
                    })
                    .sorted().limit(3).toList();
        }
        assertThat(partitions).isNotEmpty();
        SplittableRandom random = new SplittableRandom(16);
        int cases = 0;
        for (Path partition : partitions) {
            byte[] log = Files.readAllBytes(partition.resolve("00000000000000000000.log"));
            for (int k = 0; k < 4; k++) {
                byte[] bad = log.clone();
                switch (k) {
                    case 0 -> { // flipped bytes here and there
                        for (int i = 0; i < 5; i++) {
                            bad[random.nextInt(bad.length)] ^= (byte) (1 + random.nextInt(255));
                        }
                    }
                    case 1 -> bad = java.util.Arrays.copyOf(bad, bad.length - 1 - random.nextInt(bad.length / 3));
                    case 2 -> { // a zeroed stretch in the middle
                        int from = bad.length / 3 + random.nextInt(bad.length / 3);
                        java.util.Arrays.fill(bad, from, Math.min(bad.length, from + 2000), (byte) 0);
                    }
                    default -> { // a zero-filled tail, as a crash leaves it
                        int from = bad.length / 2 + random.nextInt(bad.length / 4);
                        java.util.Arrays.fill(bad, from, bad.length, (byte) 0);
                    }
                }
                Path dir = tmp.resolve("case" + cases++).resolve(partition.getFileName().toString());
                Files.createDirectories(dir);
                Files.write(dir.resolve("00000000000000000000.log"), bad);
                for (String format : FORMATS) {
                    assertSameAsOneThread("dump", "--format", format, dir.toString());
                }
            }
        }
    }
}
