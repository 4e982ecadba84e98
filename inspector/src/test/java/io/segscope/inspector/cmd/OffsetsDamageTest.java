package io.segscope.inspector.cmd;

import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A damaged {@code __consumer_offsets} partition through {@code offsets}, {@code groups} and
 * {@code history}: exit 0 or 1, stderr only segscope's own messages (no escaped exception).
 */
class OffsetsDamageTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void damageNeverCrashesTheCommands(long seed, @TempDir Path tmp) throws IOException {
        Path src = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir/__consumer_offsets-40");
        Path dir = tmp.resolve("__consumer_offsets-40");
        Files.createDirectories(dir);
        Random random = new Random(seed);
        try (Stream<Path> s = Files.list(src)) {
            for (Path f : s.toList()) {
                byte[] bytes = Files.readAllBytes(f);
                if (f.getFileName().toString().endsWith(".log") && bytes.length > 0) {
                    for (int i = 0; i < 1 + random.nextInt(4); i++) {
                        bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
                    }
                    if (random.nextBoolean()) {
                        bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length));
                    }
                }
                Files.write(dir.resolve(f.getFileName()), bytes);
            }
        }
        for (String[] args : new String[][] {
            {"offsets", dir.toString()}, {"offsets", "--format", "jsonl", dir.toString()},
            {"groups", "--members", dir.toString()}, {"history", "--group", "busy-é,\"q\"-23", dir.toString()}}) {
            Run r = Run.of(args);
            assertThat(r.exit()).as(String.join(" ", args) + "\n" + r.err()).isIn(0, 1);
            assertThat(r.err()).as(String.join(" ", args)).doesNotContain("java.").doesNotContain("Exception");
        }
    }
}
