package io.segscope.inspector;

import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every row of {@code testdata/corrupt/README.md}: {@code verify --format jsonl} on the case dir
 * reports the kind at the exact byte position of the file named, with its severity, and for
 * resyncs and torn tails the skipped bytes and lost offsets.
 */
class VerifyCatalogueTest {

    @ParameterizedTest(name = "{0}: {2} at {1}:{3}")
    @CsvSource(delimiter = ';', nullValues = "-", textBlock = """
            truncated-mid-batch;        __consumer_offsets-0/00000000000000000000.log;       truncated;                 3229; warning; 3229 3311; 22 24
            zero-filled-tail;           __consumer_offsets-0/00000000000000000000.log;       zero-tail;                 3064; warning; 3064 4418; 20 -
            flipped-byte-in-records;    __consumer_offsets-0/00000000000000000000.log;       crc-mismatch;              2258; error;   2258 3064; 16 19
            flipped-byte-in-records;    __consumer_offsets-0/00000000000000000000.log;       resync;                    3064; error;   2258 3064; 16 19
            bad-batch-length;           __consumer_offsets-0/00000000000000000000.log;       batch-too-large;           2258; error;   2258 3064; 16 19
            bad-batch-length;           __consumer_offsets-0/00000000000000000000.log;       resync;                    3064; error;   2258 3064; 16 19
            bad-magic;                  __consumer_offsets-0/00000000000000000000.log;       invalid-magic;             3064; error;   3064 3229; 20 21
            bad-magic;                  __consumer_offsets-0/00000000000000000000.log;       resync;                    3229; error;   3064 3229; 20 21
            records-count-crc-valid;    __consumer_offsets-0/00000000000000000000.log;       invalid-record-count;      3229; error;   -;         -
            malformed-offset-commit-value; __consumer_offsets-0/00000000000000000000.log;    invalid-coordinator-value; 2258; error;   -;         -
            index-inside-batch;         __consumer_offsets-0/00000000000000000000.index;     index-mismatch;            0;    error;   -;         -
            time-index-out-of-order;    __consumer_offsets-0/00000000000000000000.timeindex; index-order;               24;   error;   -;         -
            snapshot-bad-crc;           legacy-gzip-0/00000000000000000100.snapshot;         crc-mismatch;              2;    error;   -;         -
            mid-segment-damage;         __consumer_offsets-0/00000000000000000000.log;       crc-mismatch;              667;  error;   667 1530;  5 11
            mid-segment-damage;         __consumer_offsets-0/00000000000000000000.log;       resync;                    1530; error;   667 1530;  5 11
            legacy-inner-bad-crc;       legacy-gzip-0/00000000000000000000.log;              crc-mismatch;              7138; error;   -;         -
            leader-epoch-mismatch;      __consumer_offsets-0/leader-epoch-checkpoint;        leader-epoch-mismatch;     4;    warning; -;         -
            txn-index-wrong-producer;   txn-orders-0/00000000000000000000.txnindex;          txn-marker-missing;        34;   error;   -;         -
            leftovers;                  __consumer_offsets-0/00000000000000000500.index;     orphan-index;              -1;   warning; -;         -
            leftovers;                  __consumer_offsets-0/leader-epoch-checkpoint.tmp;    leftover-tmp;              -1;   warning; -;         -
            leftovers;                  __consumer_offsets-0/00000000000000000000.log.cleaned; incomplete-cleaner-output; -1; warning; -;         -
            """)
    void reportsTheKindAtItsPosition(String caseName, String file, String kind, long position, String severity,
                                     String skipped, String lost) {
        Path dir = Corpus.resolve("corrupt/" + caseName);
        Run run = Run.of("verify", "--format", "jsonl", dir.toString());
        assertThat(run.exit()).as(run.err()).isEqualTo(1);
        List<Map<String, Object>> findings = JsonLines.parse(run.out());
        String path = dir.resolve(file).toString();
        Map<String, Object> f = findings.stream()
                .filter(m -> m.get("file").equals(path) && m.get("kind").equals(kind) && m.get("position").equals(position))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " at " + path + ":" + position + " in\n" + run.out()));
        assertThat(f.get("severity")).isEqualTo(severity);
        assertThat(f.get("message")).asString().isNotBlank();
        if (skipped == null) {
            assertThat(f).doesNotContainKey("skippedBytes");
        } else {
            assertThat(f.get("skippedBytes")).isEqualTo(longs(skipped));
        }
        if (lost == null) {
            assertThat(f).doesNotContainKey("lostOffsets");
        } else {
            assertThat(f.get("lostOffsets")).isEqualTo(longs(lost));
        }
        // the first error or warning of the damaged file is the catalogued one
        Map<String, Object> first = findings.stream().filter(m -> m.get("file").equals(path)).findFirst().orElseThrow();
        if (!kind.equals("resync")) {
            assertThat(first.get("kind")).isEqualTo(kind);
        }
    }

    private static List<Long> longs(String pair) {
        return Arrays.stream(pair.trim().split(" ")).map(s -> s.equals("-") ? null : Long.valueOf(s)).toList();
    }

    @Test
    void everyCaseIsInTheReadme() throws Exception {
        String readme = Files.readString(Corpus.resolve("corrupt/README.md"));
        try (var dirs = Files.list(Corpus.resolve("corrupt"))) {
            dirs.filter(Files::isDirectory).forEach(d -> assertThat(readme).contains("| `" + d.getFileName() + "` |"));
        }
    }

    @Test
    void aMalformedCoordinatorRecordNamesItsOffsetAndField() {
        Path dir = Corpus.resolve("corrupt/malformed-offset-commit-value");
        Run run = Run.of("verify", dir.toString());
        assertThat(run.exit()).isEqualTo(1);
        String log = dir.resolve("__consumer_offsets-0/00000000000000000000.log").toString();
        assertThat(run.out()).startsWith(log + " 2258 error invalid-coordinator-value: field OffsetCommitValue.metadata")
                .contains("record at offset 16 (CRC valid)")
                .contains("the group coordinator would fail to load this partition");
        assertThat(run.err()).contains("1 errors, 0 warnings");
        // the same bytes, undamaged, and the whole clean corpus: no such finding
        Run clean = Run.of("verify", "--format", "jsonl", Corpus.resolve("synthetic").toString(), Corpus.resolve("corpus").toString());
        assertThat(clean.out()).doesNotContain("invalid-coordinator").doesNotContain("unknown-value-version");
    }

    @Test
    void textOutputIsOneLinePerFinding() {
        Path dir = Corpus.resolve("corrupt/bad-magic");
        Run run = Run.of("verify", dir.toString());
        assertThat(run.exit()).isEqualTo(1);
        String log = dir.resolve("__consumer_offsets-0/00000000000000000000.log").toString();
        assertThat(run.out().split("\n")).contains(
                log + " 3064 error invalid-magic: field magic expected 0, 1 or 2, actual 7; mid-file damage, resynchronised at 3229;"
                        + " offsets 20..21 are lost");
        assertThat(run.err()).contains("verify: ").contains("4 errors, 0 warnings, 0 infos");
    }

    @Test
    void minSeverityFiltersOutputAndExitCode() {
        Path dir = Corpus.resolve("corrupt/bad-magic");
        Run errorsOnly = Run.of("verify", "--min-severity", "error", "--format", "jsonl", dir.toString());
        assertThat(JsonLines.parse(errorsOnly.out())).isNotEmpty().allMatch(m -> m.get("severity").equals("error"));
        // a torn tail of the segment being appended to, and the time index entry past it, are warnings
        Path torn = Corpus.resolve("corrupt/truncated-mid-batch");
        Run tornErrors = Run.of("verify", "--min-severity", "error", torn.toString());
        assertThat(tornErrors.out()).isEmpty();
        assertThat(tornErrors.err()).contains("0 errors, 2 warnings");
        assertThat(Run.of("verify", "--min-severity", "warning", "--format", "jsonl", torn.toString()).out())
                .contains("\"kind\":\"truncated\"").contains("\"kind\":\"index-mismatch\",\"severity\":\"warning\"");
        Path epochs = Corpus.resolve("corrupt/leader-epoch-mismatch");
        Run warningOnly = Run.of("verify", "--min-severity", "error", epochs.toString());
        assertThat(warningOnly.out()).isEmpty();
        assertThat(warningOnly.exit()).isZero();
        assertThat(warningOnly.err()).contains("0 errors, 1 warnings");
        assertThat(Run.of("verify", epochs.toString()).exit()).isEqualTo(1);
    }

    /** A .log named on its own is checked with the index files beside it. */
    @Test
    void aLogFileIsCheckedWithItsIndexes() {
        Path dir = Corpus.resolve("corrupt/index-inside-batch/__consumer_offsets-0");
        Run run = Run.of("verify", "--format", "jsonl", dir.resolve("00000000000000000000.log").toString());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(JsonLines.parse(run.out())).singleElement().satisfies(m -> {
            assertThat(m.get("kind")).isEqualTo("index-mismatch");
            assertThat(m.get("file")).isEqualTo(dir.resolve("00000000000000000000.index").toString());
            assertThat(m.get("position")).isEqualTo(0L);
        });
    }
}
