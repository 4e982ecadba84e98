package io.segscope.inspector.cmd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.segscope.format.compact.CompactSettings;
import io.segscope.format.compact.Compactor;
import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code segscope compact} as an operator uses it: every corpus run compacted (as after a roll),
 * the inputs untouched, the output verifying clean and replaying to the same committed offsets,
 * the partitions' files those of the library with the same settings, threads changing nothing;
 * {@code --dry-run}'s decisions; {@code --snapshot}; archives; and the mistakes (output inside an
 * input, missing or contradictory options, sizes that cannot work, an output that exists).
 */
class CompactCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long NOW = 1_900_000_000_000L;

    @TempDir
    Path tmp;

    static List<Path> runs() throws IOException {
        try (Stream<Path> s = Files.list(Corpus.corpus())) {
            return s.filter(r -> Files.isDirectory(r.resolve("logdir"))).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusRun() throws IOException {
        return runs().stream().map(run -> DynamicTest.dynamicTest(run.getFileName().toString(), () -> {
            Path logDir = run.resolve("logdir");
            Map<String, String> before = checksums(logDir);
            Path out = tmp.resolve(run.getFileName() + "-out");
            Run r = Run.of("compact", "--roll", "--now", Long.toString(NOW), "--out", out.toString(), logDir.toString());
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).contains("PARTITION").contains("peak heap");
            assertThat(checksums(logDir)).as("the input is untouched").isEqualTo(before);
            try (Stream<Path> s = Files.list(out)) {
                assertThat(s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".")).toList())
                        .as("no temporary dir left").isEmpty();
            }
            Run verify = Run.of("verify", out.toString());
            assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
            assertThat(verify.out() + verify.err()).contains(" 0 errors, 0 warnings");
            Run in = Run.of("offsets", "--format", "jsonl", logDir.toString());
            Run compacted = Run.of("offsets", "--format", "jsonl", out.toString());
            assertThat(offsets(in.out())).as("the run has committed offsets").isNotEmpty();
            assertThat(offsets(compacted.out())).isEqualTo(offsets(in.out()));
            // the command's output is the library's with the same settings
            Path p = logDir.resolve("__consumer_offsets-0");
            Path lib = tmp.resolve(run.getFileName() + "-lib");
            CompactSettings settings = CompactSettings.defaults(NOW).withCleanUpTo(Long.MAX_VALUE)
                    .withSegmentBytes(segmentBytes(p));
            Compactor.compact(p, settings, lib);
            assertThat(checksums(out.resolve("__consumer_offsets-0"))).isEqualTo(checksums(lib.resolve("__consumer_offsets-0")));
        }));
    }

    /** segment.bytes as the command chooses it for a partition (from the metadata log, else the default). */
    private static int segmentBytes(Path partition) throws IOException {
        Run j = Run.of("compact", "--roll", "--dry-run", "--format", "jsonl", "--now", Long.toString(NOW), partition.toString());
        return JSON.readTree(j.out()).get("settings").get("segmentBytes").asInt();
    }

    @Test
    void threadsChangeNothing() throws IOException {
        Path logDir = Corpus.corpus().resolve("kraft-4.4.0-compressed/logdir");
        Run one = Run.of("compact", "--roll", "--now", Long.toString(NOW), "--out", tmp.resolve("one").toString(), logDir.toString());
        Run four = Run.of("compact", "--roll", "--now", Long.toString(NOW), "--threads", "4", "--dedupe-buffer-size", "512MiB",
                "--out", tmp.resolve("four").toString(), logDir.toString());
        assertThat(one.exit()).isZero();
        assertThat(four.exit()).isZero();
        assertThat(checksums(tmp.resolve("four"))).isEqualTo(checksums(tmp.resolve("one")));
    }

    @Test
    void dryRunTellsTheBrokersDecision() throws IOException {
        Path logDir = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
        Map<String, String> before = checksums(logDir);
        // the active segment is never cleaned: a one-segment partition has nothing dirty
        Run active = Run.of("compact", "--dry-run", "--format", "jsonl", "--now", Long.toString(NOW),
                logDir.resolve("compacted-state-0").toString());
        assertThat(active.exit()).as(active.err()).isZero();
        JsonNode a = JSON.readTree(active.out());
        assertThat(a.get("mode").asText()).isEqualTo("dry-run");
        assertThat(a.get("decision").get("cleanableBytes").asLong()).isZero();
        assertThat(a.get("decision").get("wouldClean").asBoolean()).isFalse();
        assertThat(a.get("passes")).isEmpty();
        // rolled: all of it is dirty; min.cleanable.dirty.ratio comes from the topic's config (0.01)
        Run rolled = Run.of("compact", "--dry-run", "--roll", "--format", "jsonl", "--now", Long.toString(NOW),
                logDir.resolve("compacted-state-0").toString());
        JsonNode d = JSON.readTree(rolled.out()).get("decision");
        assertThat(d.get("minCleanableDirtyRatio").asDouble()).isEqualTo(0.01);
        assertThat(d.get("dirtyRatio").asDouble()).isEqualTo(1.0);
        assertThat(d.get("wouldClean").asBoolean()).isTrue();
        assertThat(d.get("logEndOffset").asLong()).isEqualTo(d.get("firstUncleanableOffset").asLong());
        JsonNode pass = JSON.readTree(rolled.out()).get("passes").get(0);
        assertThat(pass.get("messagesRead").asLong()).isEqualTo(d.get("logEndOffset").asLong());
        assertThat(pass.get("messagesWritten").asLong()).isLessThan(pass.get("messagesRead").asLong());
        // a cleaner checkpoint at the log end: nothing dirty, ratio 0
        Run checkpointed = Run.of("compact", "--dry-run", "--roll", "--format", "jsonl", "--now", Long.toString(NOW),
                "--first-dirty-offset", d.get("logEndOffset").asText(), logDir.resolve("compacted-state-0").toString());
        JsonNode c = JSON.readTree(checkpointed.out()).get("decision");
        assertThat(c.get("dirtyRatio").asDouble()).isZero();
        assertThat(c.get("wouldClean").asBoolean()).isFalse();
        // a checkpoint past the log end is reset to the log start, as Kafka does
        Run reset = Run.of("compact", "--dry-run", "--roll", "--now", Long.toString(NOW), "--first-dirty-offset", "999999",
                logDir.resolve("compacted-state-0").toString());
        assertThat(reset.out()).contains("cleaner checkpoint 999999 is outside the log").contains("compacted-state-0");
        // the table: one row per compacted partition of the log dir, topics that are not compacted left alone
        Run table = Run.of("compact", "--dry-run", "--roll", "--now", Long.toString(NOW), logDir.toString());
        assertThat(table.exit()).isZero();
        assertThat(table.out()).contains("DIRTY-RATIO").contains("BROKER-CLEANS").contains("__consumer_offsets-49")
                .contains("__transaction_state-4").contains("compacted-state-0").doesNotContain("codec-none-0")
                .contains("Log cleaner thread 0 cleaned log").contains("% size reduction");
        assertThat(table.err()).contains("of topics whose cleanup.policy is not compact left alone");
        assertThat(checksums(logDir)).isEqualTo(before);
        assertThat(Files.exists(logDir.resolve("cleaner-offset-checkpoint"))).isFalse();
    }

    @Test
    void snapshotReplaysToTheSameOffsets() throws IOException {
        Path logDir = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
        Path out = tmp.resolve("snap");
        Run r = Run.of("compact", "--snapshot", "--topic", "__consumer_offsets", "--now", Long.toString(NOW),
                "--out", out.toString(), logDir.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        try (Stream<Path> s = Files.list(out)) {
            assertThat(s.allMatch(p -> p.getFileName().toString().startsWith("__consumer_offsets-"))).isTrue();
        }
        assertThat(offsets(Run.of("offsets", "--format", "jsonl", out.toString()).out()))
                .isEqualTo(offsets(Run.of("offsets", "--format", "jsonl", logDir.toString()).out()));
        // the log start and end offsets stay the input's (a coordinator's next writes do not reuse offsets)
        try (Stream<Path> s = Files.list(out)) {
            for (Path p : s.sorted().toList()) {
                assertThat(startAndEnd(p)).as(p.getFileName().toString()).isEqualTo(startAndEnd(logDir.resolve(p.getFileName())));
            }
        }
    }

    /** The first segment's base offset and the log end offset of a partition dir. */
    private static List<Long> startAndEnd(Path partition) throws IOException {
        List<Path> logs;
        try (Stream<Path> s = Files.list(partition)) {
            logs = s.filter(p -> p.getFileName().toString().matches("\\d{20}\\.log")).sorted().toList();
        }
        long start = Long.parseLong(logs.get(0).getFileName().toString().substring(0, 20));
        Path last = logs.get(logs.size() - 1);
        long end = Long.parseLong(last.getFileName().toString().substring(0, 20));
        for (String line : Run.of("dump", "--format", "jsonl", last.toString()).out().split("\n")) {
            if (!line.isEmpty()) {
                end = Math.max(end, JSON.readTree(line).get("lastOffset").asLong() + 1);
            }
        }
        return List.of(start, end);
    }

    @Test
    void archivesAreCompactedFromATemporaryCopy() throws IOException {
        Path run = Corpus.corpus().resolve("kraft-4.4.0-crashed/logdir");
        Path tar = tmp.resolve("run.tar");
        try (OutputStream o = Files.newOutputStream(tar); TarArchiveOutputStream t = new TarArchiveOutputStream(o)) {
            t.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            try (Stream<Path> s = Files.walk(run)) {
                for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                    TarArchiveEntry e = new TarArchiveEntry(p.toFile(), "logdir/" + run.relativize(p));
                    t.putArchiveEntry(e);
                    Files.copy(p, t);
                    t.closeArchiveEntry();
                }
            }
        }
        Path fromTar = tmp.resolve("from-tar");
        Path fromDir = tmp.resolve("from-dir");
        Run a = Run.of("compact", "--roll", "--now", Long.toString(NOW), "--out", fromTar.toString(), tar.toString());
        Run b = Run.of("compact", "--roll", "--now", Long.toString(NOW), "--out", fromDir.toString(), run.toString());
        assertThat(a.exit()).as(a.err()).isZero();
        assertThat(b.exit()).as(b.err()).isZero();
        assertThat(checksums(fromTar)).isEqualTo(checksums(fromDir));
    }

    @Test
    void mistakes() throws IOException {
        Path logDir = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
        Path partition = logDir.resolve("__consumer_offsets-40");
        Map<String, String> before = checksums(logDir);
        Run inside = Run.of("compact", "--out", partition.resolve("x").toString(), partition.toString());
        assertThat(inside.exit()).isEqualTo(2);
        assertThat(inside.err()).contains("is inside the input");
        Run insideLogDir = Run.of("compact", "--out", logDir.resolve("out").toString(), logDir.toString());
        assertThat(insideLogDir.exit()).isEqualTo(2);
        assertThat(checksums(logDir)).isEqualTo(before);
        assertThat(Files.exists(partition.resolve("x"))).isFalse();
        assertThat(Run.of("compact", partition.toString()).err()).contains("give --out DIR");
        assertThat(Run.of("compact", "--dry-run", "--out", tmp.toString(), partition.toString()).exit()).isEqualTo(2);
        assertThat(Run.of("compact", "--snapshot", "--dry-run", partition.toString()).exit()).isEqualTo(2);
        Run small = Run.of("compact", "--dry-run", "--dedupe-buffer-size", "24", partition.toString());
        assertThat(small.exit()).isEqualTo(2);
        assertThat(small.err()).contains("increase the dedupe buffer");
        Run badSize = Run.of("compact", "--dry-run", "--segment-bytes", "lots", partition.toString());
        assertThat(badSize.exit()).isEqualTo(2);
        assertThat(badSize.err()).contains("is not a size");
        assertThat(Run.of("compact", "--dry-run", "--segment-bytes", "4GiB", partition.toString()).exit()).isEqualTo(2);
        assertThat(Run.of("compact", "--dry-run", "--threads", "0", partition.toString()).exit()).isEqualTo(2);
        assertThat(Run.of("compact", "--dry-run", "--now", "yesterday", partition.toString()).exit()).isEqualTo(2);
        assertThat(Run.of("compact", "--dry-run", "--roll", "--clean-up-to", "5", partition.toString()).exit()).isEqualTo(2);
        Run missing = Run.of("compact", "--dry-run", tmp.resolve("nothing-here").toString());
        assertThat(missing.exit()).isEqualTo(3);
        assertThat(missing.err()).contains("no such file");
        Path out = tmp.resolve("twice");
        assertThat(Run.of("compact", "--roll", "--out", out.toString(), partition.toString()).exit()).isZero();
        Run again = Run.of("compact", "--roll", "--out", out.toString(), partition.toString());
        assertThat(again.exit()).isEqualTo(3);
        assertThat(again.err()).contains("exists already");
        assertThat(again.err()).doesNotContain("Exception");
    }

    @Test
    void damagedInputIsToldNotHidden() throws IOException {
        Path corrupt = Corpus.root().resolve("testdata/corrupt");
        // a batch whose CRC is wrong: compacted as read, and said
        Run crc = Run.of("compact", "--roll", "--out", tmp.resolve("crc").toString(),
                corrupt.resolve("flipped-byte-in-records").toString());
        assertThat(crc.exit()).isEqualTo(1);
        assertThat(crc.err()).contains("position 2258: crc-mismatch").contains("offsets 16..19");
        // a damaged batch length: the segment ends there, as Kafka's recovery would truncate it
        Run length = Run.of("compact", "--roll", "--format", "jsonl", "--out", tmp.resolve("length").toString(),
                corrupt.resolve("bad-batch-length").toString());
        assertThat(length.exit()).isEqualTo(1);
        assertThat(length.err()).contains("position 2258: truncated").contains("1136 bytes");
        JsonNode damage = JSON.readTree(length.out()).get("inputDamage");
        assertThat(damage).hasSize(1);
        assertThat(damage.get(0).get("kind").asText()).isEqualTo("truncated");
        assertThat(damage.get(0).get("position").asLong()).isEqualTo(2258);
        // a zero-filled tail is what a crash leaves: said, not a failure
        Run zeros = Run.of("compact", "--roll", "--out", tmp.resolve("zeros").toString(),
                corrupt.resolve("zero-filled-tail").toString());
        assertThat(zeros.exit()).isZero();
        assertThat(zeros.err()).contains("zero-tail");
        // damage mid-file that the reader cannot pass: no output, the reason
        Run mid = Run.of("compact", "--roll", "--out", tmp.resolve("mid").toString(),
                corrupt.resolve("mid-segment-damage").toString());
        assertThat(mid.exit()).isEqualTo(1);
        assertThat(mid.err()).contains("batch-too-small");
        assertThat(Files.exists(tmp.resolve("mid").resolve("__consumer_offsets-0"))).isFalse();
        for (Run r : List.of(crc, length, zeros, mid)) {
            assertThat(r.err()).doesNotContain("Exception");
        }
    }

    @Test
    void segmentSizesTooSmallAreUsageErrors() {
        String plain = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir").toString();
        // once, as a usage error: not one exit-1 failure per partition
        Run bytes = Run.of("compact", "--dry-run", "--segment-bytes", "0", plain);
        assertThat(bytes.exit()).isEqualTo(2);
        assertThat(bytes.err()).contains("--segment-bytes must be at least 14").doesNotContain("__consumer_offsets-0");
        Run index = Run.of("compact", "--out", tmp.resolve("out").toString(), "--segment-index-bytes", "4", plain);
        assertThat(index.exit()).isEqualTo(2);
        assertThat(index.err()).contains("--segment-index-bytes must be at least 8");
        assertThat(Files.exists(tmp.resolve("out"))).isFalse();
        assertThat(Run.of("compact", "--dry-run", "--segment-bytes", "14", plain).exit()).isZero();
    }

    @Test
    void twoCopiesOfAPartitionForOneOutIsAUsageError() throws IOException {
        // several brokers' log dirs hold copies of each partition: one --out cannot take them all
        List<String> args = new ArrayList<>(List.of("compact", "--out", tmp.resolve("out").toString()));
        for (Path d : Corpus.brokerLogDirs(Corpus.replicaRuns().get(0))) {
            args.add(d.toString());
        }
        for (boolean force : new boolean[]{false, true}) {
            List<String> a = new ArrayList<>(args);
            if (force) {
                a.add(1, "--force");
            }
            Run r = Run.of(a.toArray(String[]::new));
            assertThat(r.exit()).as(r.err()).isEqualTo(2);
            assertThat(r.err()).contains("__consumer_offsets-0 is under two of the PATHs").contains("compact each log dir to its own --out");
            assertThat(Files.exists(tmp.resolve("out"))).isFalse();
        }
        // one log dir each: fine; a dry run of all three writes nothing and is fine
        assertThat(Run.of("compact", "--out", tmp.resolve("one").toString(), args.get(3)).exit()).isZero();
        List<String> dry = new ArrayList<>(List.of("compact", "--dry-run"));
        dry.addAll(args.subList(3, args.size()));
        assertThat(Run.of(dry.toArray(String[]::new)).exit()).isZero();
    }

    /** The committed offsets of offsets' jsonl, without where each was read. */
    static List<String> offsets(String jsonl) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : jsonl.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            JsonNode n = JSON.readTree(line);
            out.add(n.get("group").asText() + "|" + n.get("topic").asText() + "|" + n.get("partition").asInt() + "|"
                    + n.get("offset").asLong() + "|" + n.get("leaderEpoch") + "|" + n.get("metadata") + "|"
                    + n.get("commitTimestamp"));
        }
        out.sort(null);
        return out;
    }

    /** SHA-256 of every file under {@code dir}, by relative path. */
    static Map<String, String> checksums(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                MessageDigest md;
                try {
                    md = MessageDigest.getInstance("SHA-256");
                } catch (NoSuchAlgorithmException e) {
                    throw new IllegalStateException(e);
                }
                try (InputStream in = Files.newInputStream(p)) {
                    md.update(in.readAllBytes());
                }
                out.put(dir.relativize(p).toString(), HexFormat.of().formatHex(md.digest()));
            }
        }
        return out;
    }
}
