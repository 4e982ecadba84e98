package io.segscope.inspector;

import io.segscope.format.error.Violation;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code segscope verify}: clean on the whole corpus, exit codes, help, archives. */
class VerifyCommandTest {
    /** The kinds verify reports: framing and records, indexes, side files, the verify block, discovery. */
    static final Set<Violation> VERIFY_KINDS = EnumSet.range(Violation.TRUNCATED, Violation.INVALID_CONTROL_RECORD);

    static {
        VERIFY_KINDS.addAll(EnumSet.range(Violation.INDEX_SIZE, Violation.ORPHAN_INDEX));
        VERIFY_KINDS.addAll(EnumSet.range(Violation.RESYNC, Violation.UNCLEAN_SHUTDOWN));
        VERIFY_KINDS.add(Violation.NAME_FORMAT);
        VERIFY_KINDS.add(Violation.IO_ERROR);
    }

    /** Every log dir of the corpus (each run) and the synthetic set. */
    static List<Path> logDirs() throws IOException {
        List<Path> out = new ArrayList<>();
        // committed runs, then those of -Dsegscope.extraCorpus (other Kafka releases, Corpus.extraRuns)
        Corpus.runs().stream().map(r -> r.resolve("logdir")).filter(Files::isDirectory).forEach(out::add);
        out.add(Corpus.synthetic().resolve("logdir"));
        return out;
    }

    @TestFactory
    Stream<DynamicTest> cleanOnEveryLogDir() throws IOException {
        return logDirs().stream().map(dir -> DynamicTest.dynamicTest((Corpus.isExtra(dir) ? dir : Corpus.root().relativize(dir)).toString(), () -> {
            Run run = Run.of("verify", "--format", "jsonl", dir.toString());
            List<Map<String, Object>> findings = JsonLines.parse(run.out());
            assertThat(findings).as(run.out()).allMatch(f -> f.get("severity").equals("info"));
            assertThat(run.exit()).as(run.err()).isZero();
            assertThat(run.err()).contains("0 errors, 0 warnings");
        }));
    }

    @TestFactory
    Stream<DynamicTest> cleanOnEveryPartitionDir() throws IOException {
        List<Path> partitions = new ArrayList<>();
        for (Path dir : logDirs()) {
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(Files::isDirectory).sorted().forEach(partitions::add);
            }
        }
        return partitions.stream().map(p -> DynamicTest.dynamicTest((Corpus.isExtra(p) ? p : Corpus.root().relativize(p)).toString(), () -> {
            Run run = Run.of("verify", "--min-severity", "warning", p.toString());
            assertThat(run.out()).isEmpty();
            assertThat(run.exit()).as(run.err()).isZero();
        }));
    }

    @Test
    void countsWhatItRead() {
        Path dir = Corpus.synthetic().resolve("logdir/synthetic-magic2-0");
        Run run = Run.of("verify", dir.toString());
        // 17 batches, 41 records in two segments (see testdata/synthetic/dump)
        assertThat(run.err()).contains("17 batches, 41 records");
        assertThat(run.exit()).isZero();
    }

    @Test
    void helpListsExitCodesAndEveryKind() {
        Run run = Run.of("verify", "--help");
        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("Exit codes:").contains("0   clean").contains("1   findings").contains("2   usage error")
                .contains("3   I/O error");
        for (Violation v : VERIFY_KINDS) {
            assertThat(run.out()).as(v.kind()).contains(v.kind());
        }
    }

    @Test
    void usageAndIoErrors() {
        assertThat(Run.of("verify").exit()).isEqualTo(2);
        assertThat(Run.of("verify", "--min-severity", "loud", Corpus.synthetic().toString()).exit()).isEqualTo(2);
        Run missing = Run.of("verify", Corpus.resolve("no-such-dir").toString());
        assertThat(missing.exit()).isEqualTo(3);
        assertThat(missing.err()).contains("no such file or directory");
    }

    @Test
    void readsArchivesInPlace(@TempDir Path tmp) throws IOException {
        Path clean = TarGz.of(tmp.resolve("clean.tar.gz"), Corpus.synthetic().resolve("logdir"));
        Run ok = Run.of("verify", clean.toString());
        assertThat(ok.exit()).as(ok.out() + ok.err()).isZero();
        assertThat(ok.err()).contains("0 errors, 0 warnings");

        Path damaged = TarGz.of(tmp.resolve("damaged.tgz"), Corpus.resolve("corrupt/mid-segment-damage"));
        Run bad = Run.of("verify", "--format", "jsonl", damaged.toString());
        assertThat(bad.exit()).isEqualTo(1);
        Map<String, Object> resync = JsonLines.parse(bad.out()).stream().filter(m -> m.get("kind").equals("resync"))
                .findFirst().orElseThrow();
        assertThat(resync.get("position")).isEqualTo(1530L);
        assertThat(resync.get("skippedBytes")).isEqualTo(List.of(667L, 1530L));
        assertThat(resync.get("lostOffsets")).isEqualTo(List.of(5L, 11L));
    }

    /** From a stream a walk cannot go back: tails are still told apart, and nothing crashes. */
    @Test
    void streamedDamage(@TempDir Path tmp) throws IOException {
        for (String name : List.of("truncated-mid-batch", "zero-filled-tail", "bad-batch-length", "bad-magic",
                "flipped-byte-in-records", "legacy-inner-bad-crc", "snapshot-bad-crc", "index-inside-batch")) {
            Path archive = TarGz.of(tmp.resolve(name + ".tar.gz"), Corpus.resolve("corrupt/" + name));
            Run run = Run.of("verify", "--format", "jsonl", archive.toString());
            assertThat(run.exit()).as(name + ": " + run.err()).isEqualTo(1);
            assertThat(JsonLines.parse(run.out())).as(name).isNotEmpty();
        }
        Path zero = TarGz.of(tmp.resolve("zero.tar.gz"), Corpus.resolve("corrupt/zero-filled-tail"));
        Map<String, Object> f = JsonLines.parse(Run.of("verify", "--format", "jsonl", zero.toString()).out()).get(0);
        assertThat(f.get("kind")).isEqualTo("zero-tail");
        assertThat(f.get("position")).isEqualTo(3064L);
        assertThat(f.get("skippedBytes")).isEqualTo(List.of(3064L, 4418L));
    }

    /**
     * Preallocated indexes (10 MiB) filled with garbage: each index's entry checks stop after about 100
     * findings. They listed every bad entry (millions of exceptions held at once): verify ran out
     * of the launcher's 512 MiB heap on one such file.
     */
    @Test
    void garbageIndexesGiveBoundedFindings(@TempDir Path tmp) throws IOException {
        Path source = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir/__cluster_metadata-0");
        Path copy = Files.createDirectories(tmp.resolve("__cluster_metadata-0"));
        try (Stream<Path> s = Files.list(source)) {
            for (Path f : s.toList()) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        java.util.Random rnd = new java.util.Random(28);
        for (String name : List.of("00000000000000000000.index", "00000000000000000000.timeindex", "00000000000000000000.txnindex")) {
            byte[] garbage = new byte[10 << 20];
            rnd.nextBytes(garbage);
            Files.write(copy.resolve(name), garbage);
        }
        Run r = Run.of("verify", copy.toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        for (String name : List.of(".index ", ".timeindex ", ".txnindex ")) {
            List<String> lines = r.out().lines().filter(l -> l.contains("00000000000000000000" + name)).toList();
            assertThat(lines).as(name).hasSizeBetween(2, 130);
            assertThat(lines).as(name).anyMatch(l -> l.contains("checking stopped after 100 findings"));
        }
        assertThat(r.out().lines().count()).isLessThan(400);
    }
}
