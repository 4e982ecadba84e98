package io.segscope.inspector;

import io.segscope.format.io.MappedSource;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Files larger than {@link MappedSource#windowedAbove()} are read through a window of memory, not
 * mapped: every command prints the same, byte for byte, whichever way a file is read. The threshold
 * is set to 0 here, so that every file of every corpus run (and of damaged copies) is read through
 * a window.
 */
class WindowedReadTest {
    private static Run windowed(String... args) {
        String before = System.getProperty(MappedSource.WINDOWED_ABOVE_PROPERTY);
        System.setProperty(MappedSource.WINDOWED_ABOVE_PROPERTY, "0");
        try {
            return Run.of(args);
        } finally {
            if (before == null) {
                System.clearProperty(MappedSource.WINDOWED_ABOVE_PROPERTY);
            } else {
                System.setProperty(MappedSource.WINDOWED_ABOVE_PROPERTY, before);
            }
        }
    }

    private static void same(String... args) {
        Run mapped = Run.of(args);
        Run window = windowed(args);
        assertThat(window.exit()).as("exit of %s", List.of(args)).isEqualTo(mapped.exit());
        if (!window.out().equals(mapped.out())) {
            assertThat(window.out()).as("stdout of %s", List.of(args)).isEqualTo(mapped.out());
        }
        assertThat(window.err()).as("stderr of %s", List.of(args)).isEqualTo(mapped.err());
    }

    private static void everyCommand(String dir) {
        same("dump", "--files", "log,index,timeindex,txnindex,snapshot", dir);
        same("dump", "--format", "kafka", "--threads", "2", dir);
        same("dump", "--format", "jsonl", dir);
        same("verify", dir);
        same("offsets", "--format", "jsonl", dir);
        same("groups", "--members", dir);
    }

    @Test
    void everyCorpusRunReadsTheSameThroughAWindow() throws IOException {
        int runs = 0;
        try (Stream<Path> s = Files.list(Corpus.corpus())) {
            for (Path run : s.sorted().toList()) {
                if (Files.isDirectory(run.resolve("logdir"))) {
                    everyCommand(run.resolve("logdir").toString());
                    runs++;
                }
            }
        }
        assertThat(runs).isGreaterThanOrEqualTo(8);
    }

    @Test
    void damagedSegmentsReadTheSameThroughAWindow(@TempDir Path tmp) throws IOException {
        Path log = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir/__consumer_offsets-18/00000000000000000000.log");
        byte[] bytes = Files.readAllBytes(log);
        SplittableRandom random = new SplittableRandom(21);
        List<Path> dirs = new ArrayList<>();
        for (int k = 0; k < 6; k++) {
            byte[] bad = bytes.clone();
            for (int i = 0; i < 1 + k; i++) {
                bad[random.nextInt(bad.length)] ^= (byte) (1 + random.nextInt(255));
            }
            if (k % 2 == 1) {
                bad = java.util.Arrays.copyOf(bad, bad.length - 1 - random.nextInt(bad.length / 4));
            }
            Path dir = tmp.resolve("case" + k).resolve("__consumer_offsets-18");
            Files.createDirectories(dir);
            Files.write(dir.resolve("00000000000000000000.log"), bad);
            dirs.add(dir);
        }
        for (Path dir : dirs) {
            everyCommand(dir.toString());
        }
    }
}
