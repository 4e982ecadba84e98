package io.segscope.inspector.cmd;

import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code dump} never loses data silently, never passes a failure off as success, never ignores an option. */
class DumpTrustTest {
    private static final String BAD_LENGTH = Corpus.resolve("corrupt/bad-batch-length").toString();
    private static final String PLAIN = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir").toString();

    /** A size field of 0x7fff0000 mid-segment: the batches after it are printed, the skip is said on stderr, exit 1. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"text", "jsonl", "kafka"})
    void damageMidSegmentIsSkippedAndWhatFollowsIsPrinted(String format) {
        Run r = Run.of("dump", "--format", format, BAD_LENGTH);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("position 2258").contains("batch-too-large")
                .contains("skipped 806 damaged bytes at 2258..3063, good batches resume at 3064");
        // offsets 20..24 lie after the damage
        for (int offset = 20; offset <= 24; offset++) {
            String needle = switch (format) {
                case "jsonl" -> "\"offset\":" + offset + ",";
                case "kafka" -> "| offset: " + offset + " ";
                default -> "\n  " + offset + " ";
            };
            assertThat(r.out()).as("offset " + offset).contains(needle);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--from-offset=10 --to-offset=5", "--from-time=2026-01-02T00:00:00Z --to-time=2026-01-01T00:00:00Z",
        "--max-bytes=-1", "--max-bytes=0", "--type=OffsetCommits", "--format=kafka --key-format=hex",
        "--format=kafka --value-format=text", "--print-data-log", "--format=jsonl --print-data-log"})
    void contradictoryOrEmptyOptionsAreUsageErrors(String options) {
        List<String> args = new ArrayList<>(List.of("dump"));
        args.addAll(List.of(options.split(" ")));
        args.add(PLAIN);
        Run r = Run.of(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).doesNotContain("Exception");
    }

    @Test
    void aMisspeltTypeSuggestsTheNearestNames() {
        Run r = Run.of("dump", "--type", "OffsetCommits", PLAIN);
        assertThat(r.err()).contains("nearest known: OffsetCommit");
        Run m = Run.of("dump", "--type", "TopicRecrd", PLAIN);
        assertThat(m.err()).contains("TopicRecord");
    }

    @Test
    void typeMatchesKraftMetadataRecordsByNameAndNumber() {
        String metadata = PLAIN + "/__cluster_metadata-0";
        Run byName = Run.of("dump", "--format", "jsonl", "--type", "TopicRecord", metadata);
        Run byKafkaName = Run.of("dump", "--format", "jsonl", "--type", "TOPIC_RECORD", metadata);
        Run byNumber = Run.of("dump", "--format", "jsonl", "--type", "2", metadata);
        assertThat(byName.exit()).isZero();
        assertThat(byName.out().lines()).isNotEmpty().allMatch(l -> l.contains("\"TOPIC_RECORD\""));
        assertThat(byKafkaName.out()).isEqualTo(byName.out());
        assertThat(byNumber.out()).isEqualTo(byName.out());
    }

    @Test
    void aFilterThatMatchesNothingSaysSo() {
        Run r = Run.of("dump", "--group", "no such group", PLAIN + "/__consumer_offsets-0");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("no record matched the filters");
    }

    @Test
    void locateWithAMissingLogDirIsAnIoError() {
        Run r = Run.of("locate", "--log-dir", "/no/such/dir", "g");
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.err()).contains("/no/such/dir").contains("no such file or directory");
    }

    @Test
    void kafkaFormatWithAFilterReportsNoGapsTheFilterMade() {
        Run r = Run.of("dump", "--format", "kafka", "--type", "OffsetCommit", PLAIN + "/__consumer_offsets-31");
        assertThat(r.exit()).isZero();
        assertThat(r.err()).doesNotContain("Non-consecutive");
    }

    /** A full disk during an export fails the run (exit 3); the child writes to /dev/full. */
    @Test
    void writeErrorsOnStdoutExitThree() throws Exception {
        File full = new File("/dev/full");
        if (!full.exists()) {
            return; // Linux only
        }
        Path err = Files.createTempFile("segscope", ".err");
        try {
            Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-cp",
                    System.getProperty("java.class.path"), "io.segscope.inspector.Segscope", "dump", "--format", "jsonl", PLAIN)
                    .redirectOutput(full).redirectError(err.toFile()).start();
            assertThat(p.waitFor()).isEqualTo(3);
            assertThat(Files.readString(err)).contains("cannot write the output: No space left on device");
        } finally {
            Files.delete(err);
        }
    }
}
