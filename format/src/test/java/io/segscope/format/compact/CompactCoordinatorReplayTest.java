package io.segscope.format.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.logdir.FileEntry;
import io.segscope.format.verify.Finding;
import io.segscope.format.verify.Severity;
import io.segscope.format.verify.Verifier;
import io.segscope.testdata.Corpus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.DumpLogSegments;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka accepts segscope's compaction output: for every {@code __consumer_offsets} partition of every
 * corpus run (real 4.4.0 and 3.9.1 brokers, legacy magic 0 and 1 included), the output of
 * {@link Compactor#compact} (Kafka's default settings with a clock far in the future, so every
 * tombstone is past {@code delete.retention.ms}; the same with every segment cleaned, the active one
 * too, as after a roll; and that with the clock at the partition's last batch time, so tombstones
 * stay) and of {@link Compactor#snapshot}, loaded by Kafka 4.4.0's own group coordinator
 * ({@link KafkaCoordinatorLoad}), gives the state the input gives: committed offsets (group, topic,
 * partition, offset, leader epoch, metadata, commit and expire timestamps, topic id, record offset),
 * pending transactional offsets (the snapshot drops open transactions by design: it keeps committed
 * data only), listed groups (id, type, state, protocol type) and the describe APIs' answers (members,
 * epochs, assignments). Kafka's {@code DumpLogSegments} reads every output file ({@code .log},
 * {@code .index}, {@code .timeindex}, {@code .txnindex}, indexes also with
 * {@code --index-sanity-check}) without an error line or exception, and segscope's
 * {@link Verifier} finds nothing above INFO.
 *
 * <p>Where Kafka's coordinator semantics make equality impossible, and why. Excluded, as it occurs
 * in the corpus: a group that only an open transaction names ({@code txn-group-open} in the
 * crashed run) is in the input's state (Kafka's replay of a transactional offset commit creates an
 * empty simple classic group before the transaction ends) and not in the snapshot's, which keeps
 * committed data only; the compact outputs keep it. Not excluded, as none occurs in the corpus (the
 * test fails if one appears, to be looked at): a transactional tombstone that is later aborted removes the committed offset when replayed
 * (OffsetMetadataManager applies tombstones at once, whatever the producer) while the cleaner drops
 * aborted data, so the output keeps the offset; a transactional offset commit that is later aborted
 * creates an empty simple classic group on replay, which a cleaned log (no aborted data) does not.
 * Kafka's group coordinator writes neither (its tombstones and deletions are never transactional;
 * every transactional group in the corpus also has committed offsets).
 */
class CompactCoordinatorReplayTest {
    /** 2096: every tombstone of the corpus is past delete.retention.ms, every producer expired. */
    static final long FAR = 4_000_000_000_000L;

    /**
     * DumpLogSegments' lines that report a problem (its format strings, Kafka 4.4.0). Not among them:
     * {@code Non-consecutive offsets in FILE} and its {@code A is followed by B} lines, which it
     * prints for every gap of a cleaned segment and for every segment whose base offset is not 0
     * (testdata/corpus/README.md, quirk 2; Kafka's own cleaned segments in the corpus get them): a
     * compacted log has gaps by definition. Those pairs are checked to go forward ({@link #GAP}).
     */
    static final Pattern ERROR = Pattern.compile("invalid bytes|Mismatches in"
            + "|Index offset:|not found in|Indexed offset:|out of order timestamp|Failed to decode|timestamp mismatch"
            + "|Unknown record type|Error at|isValid: false|isvalid: false|Exception|Ignoring unknown file");

    /** One pair of DumpLogSegments' non-consecutive offsets report. */
    static final Pattern GAP = Pattern.compile("^\\s+(-?\\d+) is followed by (\\d+)$");

    @TempDir
    Path tmp;

    @BeforeAll
    static void exitThrows() {
        Exit.setExitProcedure((code, message) -> {
            throw new IllegalStateException("DumpLogSegments exited with " + code + ": " + message);
        });
    }

    @AfterAll
    static void exitRestored() {
        Exit.resetExitProcedure();
    }

    @TestFactory
    Stream<DynamicTest> kafkasCoordinatorLoadsTheSameStateFromTheOutput() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> runs = Files.list(Corpus.corpus())) {
            for (Path run : runs.filter(r -> Files.isDirectory(r.resolve("logdir"))).sorted().toList()) {
                try (Stream<Path> parts = Files.list(run.resolve("logdir"))) {
                    for (Path p : parts.filter(Files::isDirectory)
                            .filter(d -> d.getFileName().toString().startsWith("__consumer_offsets-")).sorted().toList()) {
                        String id = run.getFileName() + "/" + p.getFileName();
                        tests.add(DynamicTest.dynamicTest(id, () -> check(p, id)));
                    }
                }
            }
        }
        assertThat(tests).hasSizeGreaterThanOrEqualTo(180);
        return tests.stream();
    }

    private void check(Path partition, String id) throws Exception {
        KafkaCoordinatorLoad.State in = KafkaCoordinatorLoad.load(partition);
        long last = lastBatchTime(partition);
        Path work = Files.createDirectories(tmp.resolve(id.replace('/', '_')));
        try {
            same(id + " compact now=far", partition, in, Compactor.compact(partition, CompactSettings.defaults(FAR),
                    work.resolve("far")).partitionDir().orElseThrow(), false);
            same(id + " compact now=far cleanUpTo=end", partition, in, Compactor.compact(partition,
                    CompactSettings.defaults(FAR).withCleanUpTo(Long.MAX_VALUE), work.resolve("far-all"))
                    .partitionDir().orElseThrow(), false);
            same(id + " compact now=last batch cleanUpTo=end", partition, in, Compactor.compact(partition,
                    CompactSettings.defaults(last).withCleanUpTo(Long.MAX_VALUE), work.resolve("last-all"))
                    .partitionDir().orElseThrow(), false);
            same(id + " snapshot", partition, in, Compactor.snapshot(partition, CompactSettings.defaults(FAR),
                    work.resolve("snapshot")).partitionDir().orElseThrow(), true);
        } finally {
            deleteQuietly(work);
        }
    }

    private static void same(String what, Path partition, KafkaCoordinatorLoad.State in, Path out, boolean snapshot)
            throws Exception {
        KafkaCoordinatorLoad.State o = KafkaCoordinatorLoad.load(out);
        assertThat(o.offsets()).as(what + ": committed offsets").isEqualTo(in.offsets());
        if (snapshot) {
            // committed data only: an open transaction's offsets are not in a snapshot
            assertThat(o.pending()).as(what + ": pending offsets").isEmpty();
        } else {
            assertThat(o.pending()).as(what + ": pending offsets").isEqualTo(in.pending());
        }
        Map<String, String> groups = new TreeMap<>(in.groups());
        Map<String, String> described = new TreeMap<>(in.described());
        if (snapshot) {
            // Kafka's replay of a transactional offset commit creates the group (an empty simple
            // classic group) before the transaction ends; a group that only an open transaction
            // names is therefore in the input's state and, its data dropped, not in the snapshot's
            for (String g : openTransactionOnlyGroups(in)) {
                groups.remove(g);
                described.remove(g);
            }
        }
        assertThat(o.groups()).as(what + ": groups").isEqualTo(groups);
        assertThat(o.described()).as(what + ": described groups").isEqualTo(described);
        dumpsClean(what, out, partition, snapshot);
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(out));
        assertThat(findings).as(what + ": segscope verify").allMatch(f -> f.severity() == Severity.INFO);
    }

    /**
     * Groups of the input's state that exist only through pending offsets of open transactions: an
     * empty simple classic group (no protocol type) with no committed offset.
     */
    static List<String> openTransactionOnlyGroups(KafkaCoordinatorLoad.State in) {
        List<String> out = new ArrayList<>();
        in.groups().forEach((g, state) -> {
            String prefix = g + "|";
            boolean committed = in.offsets().keySet().stream().anyMatch(k -> k.startsWith(prefix));
            boolean pending = in.pending().keySet().stream().anyMatch(k -> k.substring(k.indexOf('|') + 1).startsWith(prefix));
            if (state.equals("classic/Empty/") && !committed && pending) {
                out.add(g);
            }
        });
        return out;
    }

    /**
     * Kafka's DumpLogSegments on every segment file of {@code dir}: no error line, no exception;
     * indexes also pass {@code --index-sanity-check} (what a broker checks when it opens them). One
     * exception, precisely: a file the output copied byte for byte from the input partition
     * {@code in} (a segment past the cleaned section, the active one with default settings) is held
     * to what the tool says about the input's own file, which must be the same. That is the crashed
     * run's active segments, whose preallocated zero-tailed indexes DumpLogSegments misreads
     * (testdata/corpus/README.md, quirk 3) and a broker rebuilds on its unclean start; the cleaner
     * leaves the active segment alone, and so does segscope.
     */
    static void dumpsClean(String what, Path dir, Path in, boolean snapshot) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().matches("\\d{20}\\.(log|index|timeindex|txnindex)"))
                    .sorted().toList();
        }
        if (!snapshot) {
            // a snapshot of a partition with nothing to keep has no segment at all
            assertThat(files).as(what + ": segments").anyMatch(p -> p.toString().endsWith(".log"));
        }
        for (Path f : files) {
            Path source = in.resolve(f.getFileName().toString());
            boolean copied = Files.isRegularFile(source) && Files.mismatch(f, source) == -1;
            List<List<String>> runs = new ArrayList<>();
            runs.add(List.of("--deep-iteration", "--offsets-decoder"));
            boolean index = f.toString().endsWith("index") && !f.toString().endsWith(".txnindex");
            if (index) {
                runs.add(List.of("--index-sanity-check"));
            }
            for (List<String> flags : runs) {
                String text = dump(f, flags);
                String as = what + ": DumpLogSegments " + flags + " on " + f.getFileName();
                if (copied) {
                    String original = dump(source, flags);
                    if (original.replace(in.toString(), "").equals(text.replace(dir.toString(), ""))
                            && !Files.exists(in.resolve("../.kafka_cleanshutdown"))) {
                        continue;   // an unchanged file of a crashed broker's disk: as Kafka reads the input's
                    }
                }
                for (String line : text.split("\n")) {
                    java.util.regex.Matcher gap = GAP.matcher(line);
                    if (gap.matches()) {
                        assertThat(Long.parseLong(gap.group(1))).as(as + ": " + line)
                                .isLessThan(Long.parseLong(gap.group(2)) - 1);
                        continue;
                    }
                    assertThat(ERROR.matcher(line).find()).as(as + " printed: " + line).isFalse();
                }
                if (flags.contains("--index-sanity-check")) {
                    assertThat(text).as(as).containsAnyOf(" passed sanity check.", " is empty.");
                }
            }
        }
    }

    /** What DumpLogSegments prints (stdout and stderr), and the exception it fails with, if any. */
    static String dump(Path file, List<String> flags) {
        List<String> args = new ArrayList<>(flags);
        args.add("--files");
        args.add(file.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        try (PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            System.setOut(ps);
            System.setErr(ps);
            try {
                DumpLogSegments.main(args.toArray(new String[0]));
            } catch (Exception e) {
                for (Throwable t = e; t != null; t = t.getCause()) {
                    ps.println("Exception: " + t);
                }
            }
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The largest timestamp of the partition's last batch (0 when it is empty). */
    static long lastBatchTime(Path partition) throws IOException {
        List<Path> logs;
        try (Stream<Path> s = Files.list(partition)) {
            logs = s.filter(p -> p.getFileName().toString().matches("\\d{20}\\.log")).sorted().toList();
        }
        long last = 0;
        for (Path log : logs) {
            try (FileRecords file = FileRecords.open(log.toFile(), false)) {
                for (FileChannelRecordBatch b : file.batches()) {
                    last = Math.max(0, b.maxTimestamp());
                }
            }
        }
        return last;
    }

    private static void deleteQuietly(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
