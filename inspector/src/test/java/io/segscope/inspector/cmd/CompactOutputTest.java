package io.segscope.inspector.cmd;

import io.segscope.inspector.InputsUnchangedTest;
import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code compact}'s output directories: written under a temporary name and renamed when complete,
 * so that a run killed at any moment (SIGKILL, SIGINT) leaves under the final names only complete
 * partitions, byte for byte those of an uninterrupted run; an existing output is refused unless
 * {@code --force}, which replaces it only once the new one is complete.
 */
class CompactOutputTest {
    private static final String LOGDIR = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir").toString();
    private static final String NOW = "2026-12-01T00:00:00Z";

    /** The partitions under {@code out} by their final names (hidden temporary dirs left out). */
    private static Map<String, String> finals(Path out) throws IOException {
        Map<String, String> all = InputsUnchangedTest.state(out);
        all.keySet().removeIf(k -> k.startsWith(".") || k.isEmpty());
        all.replaceAll((k, v) -> v.substring(0, v.lastIndexOf(' '))); // contents, not times
        return all;
    }

    @Test
    void aKilledRunLeavesOnlyCompletePartitionsUnderTheirNames(@TempDir Path tmp) throws Exception {
        Path reference = tmp.resolve("reference");
        Run ok = Run.of("compact", "--roll", "--now", NOW, "--out", reference.toString(), LOGDIR);
        assertThat(ok.exit()).as(ok.err()).isBetween(0, 1);
        Map<String, String> complete = finals(reference);
        assertThat(complete).isNotEmpty();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        int interrupted = 0;
        long[] delays = {150, 400, 700, 1000, 1400, 2000};
        for (int i = 0; i < delays.length; i++) {
            Path out = tmp.resolve("killed" + i);
            Files.createDirectories(out);
            Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.segscope.inspector.Segscope",
                    "compact", "--roll", "--now", NOW, "--out", out.toString(), LOGDIR)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(delays[i], TimeUnit.MILLISECONDS)) {
                interrupted++;
                if (i % 2 == 0) {
                    p.destroyForcibly(); // SIGKILL
                } else {
                    new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
                }
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            // every partition under its final name is complete: exactly the uninterrupted run's files
            Map<String, String> left = finals(out);
            for (Map.Entry<String, String> e : left.entrySet()) {
                assertThat(complete).as("%s after a run stopped at %d ms", e.getKey(), delays[i])
                        .containsEntry(e.getKey(), e.getValue());
            }
            for (String name : partitionsIn(out)) {
                for (String file : complete.keySet()) {
                    if (file.startsWith(name + File.separator)) {
                        assertThat(left).as("%s of %s, stopped at %d ms", file, name, delays[i]).containsKey(file);
                    }
                }
            }
        }
        assertThat(interrupted).as("runs stopped before they finished").isPositive();
    }

    private static List<String> partitionsIn(Path out) throws IOException {
        try (Stream<Path> s = Files.list(out)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).toList();
        }
    }

    @Test
    void anExistingOutputIsRefusedUnlessForced(@TempDir Path tmp) throws IOException {
        String partition = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir/__consumer_offsets-40").toString();
        Path out = tmp.resolve("out");
        Run first = Run.of("compact", "--roll", "--now", NOW, "--out", out.toString(), partition);
        assertThat(first.exit()).as(first.err()).isZero();
        Map<String, String> written = finals(out);
        Files.writeString(out.resolve("__consumer_offsets-40/stale-file"), "from an earlier run");

        Run again = Run.of("compact", "--roll", "--now", NOW, "--out", out.toString(), partition);
        assertThat(again.exit()).isEqualTo(3);
        assertThat(again.err()).contains("exists already").contains("--force");
        assertThat(out.resolve("__consumer_offsets-40/stale-file")).exists();

        Run forced = Run.of("compact", "--roll", "--now", NOW, "--force", "--out", out.toString(), partition);
        assertThat(forced.exit()).as(forced.err()).isZero();
        assertThat(finals(out)).isEqualTo(written); // replaced whole: the stale file is gone
        assertThat(partitionsIn(out)).containsExactly("__consumer_offsets-40");
        try (Stream<Path> s = Files.list(out)) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).as("no temporary dir left").containsExactly("__consumer_offsets-40");
        }

        Run dry = Run.of("compact", "--dry-run", "--force", partition);
        assertThat(dry.exit()).isEqualTo(2);
        assertThat(dry.err()).contains("--force replaces an output");
    }
}
