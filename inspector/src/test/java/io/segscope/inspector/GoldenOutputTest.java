package io.segscope.inspector;

import io.segscope.testdata.Corpus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * {@code dump} (every format) and {@code verify} print exactly what they printed when the golden
 * files were written, on the whole corpus, the synthetic legacy segments and the corruption set.
 * A change of output is a decision: regenerate with
 *
 * <pre>
 * mvn -B -pl inspector -am test -Dtest=GoldenOutputTest -Dsurefire.failIfNoSpecifiedTests=false -Dgolden.update=true
 * </pre>
 *
 * and review the diff of {@code testdata/golden/} ({@code zdiff}) before committing it. The
 * {@code dump} cases leave out the corpus run {@value #KILLED}: its burst is megabytes of random
 * base64 values that would make up most of the goldens, and each of its files is checked line for
 * line against Kafka's own dump by {@link DumpKafkaGoldenTest}; {@code verify} reads it.
 */
class GoldenOutputTest {
    private static final String[] INPUTS = {"testdata/corpus", "testdata/synthetic", "testdata/corrupt"};
    static final String KILLED = "kraft-4.4.0-killed-mid-write";

    /** {@link #INPUTS} for the dump cases: the corpus runs one by one, {@value #KILLED} left out. */
    private static List<String> dumpInputs() throws IOException {
        List<String> out = new ArrayList<>();
        try (java.util.stream.Stream<Path> runs = Files.list(Corpus.corpus())) {
            runs.filter(Files::isDirectory).filter(r -> !r.getFileName().toString().equals(KILLED)).sorted()
                    .forEach(r -> out.add(Corpus.root().relativize(r).toString()));
        }
        out.add("testdata/synthetic");
        out.add("testdata/corrupt");
        return out;
    }

    record Case(String name, List<String> args) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case("dump-text", List.of("dump", "--files", "all", "--include", "all")),
                new Case("dump-jsonl", List.of("dump", "--format", "jsonl", "--files", "all", "--include", "all")),
                new Case("dump-kafka", List.of("dump", "--format", "kafka", "--files", "all", "--include", "all")),
                new Case("verify-text", List.of("verify")),
                new Case("verify-jsonl", List.of("verify", "--format", "jsonl")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void outputIsUnchanged(Case c) throws IOException {
        Path root = Corpus.root();
        List<String> args = new ArrayList<>(c.args());
        for (String in : c.args().get(0).equals("dump") ? dumpInputs() : List.of(INPUTS)) {
            args.add(root.resolve(in).toString());
        }
        Run run = Run.of(args.toArray(String[]::new));
        String prefix = root + "/";
        String actual = "exit " + run.exit() + "\n-- stderr\n" + run.err().replace(prefix, "")
                + "-- stdout\n" + run.out().replace(prefix, "");
        Path golden = Corpus.testdata().resolve("golden").resolve(c.name() + ".txt.gz");
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(golden.getParent());
            Path tmp = golden.resolveSibling(golden.getFileName() + ".tmp");
            try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(tmp))) {
                o.write(actual.getBytes(StandardCharsets.UTF_8));
            }
            Files.move(tmp, golden, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return;
        }
        assertThat(golden).as("golden file (regenerate: see the class comment)").exists();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(golden));
             BufferedReader expected = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
             BufferedReader got = new BufferedReader(new StringReader(actual))) {
            for (long line = 1; ; line++) {
                String e = expected.readLine();
                String a = got.readLine();
                if (e == null && a == null) {
                    return;
                }
                if (e == null || !e.equals(a)) {
                    Path dump = Path.of("target", "golden-actual", c.name() + ".txt");
                    Files.createDirectories(dump.getParent());
                    Files.writeString(dump, actual, StandardCharsets.UTF_8);
                    fail("(whole output in inspector/" + dump + ") " + c.name() + " line " + line + " differs:\n expected: " + e + "\n   actual: " + a);
                }
            }
        }
    }
}
