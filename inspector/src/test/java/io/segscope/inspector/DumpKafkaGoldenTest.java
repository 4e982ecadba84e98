package io.segscope.inspector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code dump --format kafka} against Kafka's own DumpLogSegments output committed beside every
 * corpus file, line for line (the first line names the file by whatever path each tool was given).
 */
class DumpKafkaGoldenTest {
    private static final List<String> COORDINATOR_TOPICS = List.of("__consumer_offsets", "__transaction_state",
            "__share_group_state");

    /**
     * A committed Kafka dump and the file it was made from; {@code printDataLog} false when the
     * generator dumped a user topic without {@code --print-data-log} (run.json → dumpFlags: the
     * killed run's burst of large batches).
     */
    record Golden(Path dump, Path source, boolean printDataLog) {
    }

    static List<Golden> goldens() throws IOException {
        List<Golden> out = new ArrayList<>();
        List<Path> dumpRoots = new ArrayList<>();
        dumpRoots.add(Corpus.synthetic().resolve("dump"));
        // committed runs, then those of -Dsegscope.extraCorpus (other Kafka releases, Corpus.extraRuns)
        Corpus.runs().stream().filter(r -> Files.isDirectory(r.resolve("dump"))).forEach(r -> {
            dumpRoots.add(r.resolve("dump"));
            if (Files.isDirectory(r.resolve("dump-" + COPIED))) {
                dumpRoots.add(r.resolve("dump-" + COPIED));
            }
        });
        for (Path root : dumpRoots) {
            // dump/ holds the dumps of logdir/, dump-copied-while-writing/ those of copied-while-writing/
            boolean copied = root.getFileName().toString().equals("dump-" + COPIED);
            Path logdir = root.resolveSibling(copied ? COPIED : "logdir");
            JsonNode flags = dumpFlags(root.getParent());
            for (Path dump : Corpus.filesEndingWith(root, ".txt")) {
                String name = dump.getFileName().toString();
                if (name.endsWith(".verify.txt")) {
                    continue;
                }
                Path rel = root.relativize(dump).resolveSibling(name.substring(0, name.length() - 4));
                Path source = logdir.resolve(rel);
                if (Files.exists(source)) {
                    JsonNode f = flags.get((copied ? COPIED + "/" : "") + rel);
                    out.add(new Golden(dump, source, f == null || f.asText().contains("--print-data-log")));
                }
            }
        }
        return out;
    }

    private static final String COPIED = "copied-while-writing";

    /** run.json → dumpFlags of a corpus run (file to DumpLogSegments' flags), empty when there is none. */
    private static JsonNode dumpFlags(Path run) throws IOException {
        Path runJson = run.resolve("run.json");
        if (!Files.exists(runJson)) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
        return new ObjectMapper().readTree(runJson.toFile()).path("dumpFlags");
    }

    static boolean isMetadataLog(Path source) {
        return source.getParent().getFileName().toString().startsWith("__cluster_metadata");
    }

    static String[] args(Golden g) {
        Path source = g.source();
        String dir = source.getParent().getFileName().toString();
        boolean coordinator = COORDINATOR_TOPICS.stream().anyMatch(t -> dir.startsWith(t + "-")) || isMetadataLog(source);
        return coordinator || !g.printDataLog() ? new String[]{"dump", "--format", "kafka", source.toString()}
                : new String[]{"dump", "--format", "kafka", "--print-data-log", source.toString()};
    }

    @TestFactory
    Stream<DynamicTest> kafkaFormatEqualsDumpLogSegments() throws IOException {
        return goldens().stream().map(g -> DynamicTest.dynamicTest(
                (Corpus.isExtra(g.source()) ? g.source() : Corpus.testdata().relativize(g.source())).toString(), () -> {
                    List<String> expected = documentedDeviation(g.source(), Files.readAllLines(g.dump(), StandardCharsets.UTF_8));
                    Run run = Run.of(args(g));
                    List<String> actual = Arrays.asList(run.out().split("\n", -1));
                    if (!actual.isEmpty() && actual.get(actual.size() - 1).isEmpty()) {
                        actual = actual.subList(0, actual.size() - 1);
                    }
                    assertThat(actual).as("lines").hasSameSizeAs(expected);
                    assertThat(actual.get(0)).startsWith("Dumping ").endsWith(g.source().getFileName().toString());
                    assertThat(normalize(actual.subList(1, actual.size())))
                            .containsExactlyElementsOf(normalize(expected.subList(1, expected.size())));
                }));
    }

    /**
     * The one documented deviation: for an index preallocated and never written (an active segment
     * of a crashed broker: every slot zero), Kafka's tool prints slot 0 as an entry
     * ({@code offset: <base> position: 0}, {@code timestamp: 0 offset: <base>}); segscope says the
     * index is empty (docs/format.md 1.8); when the segment's .log is empty Kafka's tool dies
     * with NoSuchElementException instead (its .err beside the dump), and segscope again says the
     * index is empty. Everything else must be Kafka's lines.
     */
    static List<String> documentedDeviation(Path source, List<String> expected) throws IOException {
        String name = source.getFileName().toString();
        boolean allZero = Files.size(source) > 0 && isAllZero(Files.readAllBytes(source));
        if (!allZero) {
            return expected;
        }
        long base = Long.parseLong(name.substring(0, name.indexOf('.')));
        if (name.endsWith(".index") && expected.size() == 1) {
            // with an empty .log Kafka's tool dies with NoSuchElementException after the first line
            return List.of(expected.get(0), source.getFileName() + " is empty.");
        }
        if (expected.size() != 2) {
            return expected;
        }
        if (name.endsWith(".index") && expected.get(1).equals("offset: " + base + " position: 0")) {
            return List.of(expected.get(0), source.getFileName() + " is empty.");
        }
        if (name.endsWith(".timeindex") && expected.get(1).equals("timestamp: 0 offset: " + base)) {
            return List.of(expected.get(0));
        }
        return expected;
    }

    private static boolean isAllZero(byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** Kafka names an empty index by the path it was given: compare the file name only. */
    static List<String> normalize(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        for (String l : lines) {
            out.add(l.endsWith(" is empty.") ? l.substring(l.lastIndexOf('/') + 1) : l);
        }
        return out;
    }

    @Test
    void everyKindOfFileIsCovered() throws IOException {
        List<Golden> all = goldens();
        assertThat(all).hasSizeGreaterThan(50);
        assertThat(all).as("KRaft metadata log and snapshots").anyMatch(g -> isMetadataLog(g.source())
                && g.source().toString().endsWith(".checkpoint"));
        for (String suffix : List.of(".log", ".index", ".timeindex", ".txnindex", ".snapshot")) {
            assertThat(all).as(suffix).anyMatch(g -> g.source().toString().endsWith(suffix));
        }
        assertThat(all).as("segments copied while a broker wrote, a torn one among them (Kafka's tool: invalid bytes at the end)")
                .anyMatch(g -> g.source().toString().contains("/" + COPIED + "/burst-0/") && g.source().toString().endsWith(".log"));
        assertThat(all).as("a user topic dumped without --print-data-log").anyMatch(g -> !g.printDataLog());
    }
}
