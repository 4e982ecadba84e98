package io.segscope.inspector.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.segscope.format.inventory.ReplicaScanner;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.record.ReaderOptions;
import io.segscope.inspector.JsonLines;
import io.segscope.inspector.Run;
import io.segscope.inspector.TarGz;
import org.junit.jupiter.api.io.TempDir;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code partitions}, {@code lag} and {@code transactions} against what the broker's Admin API
 * reported before shutdown ({@code admin.json}: listOffsets earliest and latest per partition,
 * each group's committed offsets) on every corpus run that recorded it.
 */
class InventoryCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The killed run's snapshot was taken while its producers went on: its logs only grew after it. */
    private static final String KILLED = "kraft-4.4.0-killed-mid-write";

    static List<Path> adminRuns() throws IOException {
        List<Path> out = new ArrayList<>();
        // committed runs, then those of -Dsegscope.extraCorpus (other Kafka releases, Corpus.extraRuns)
        for (Path run : Corpus.runs()) {
            Path admin = run.resolve("admin.json");
            if (Files.isRegularFile(admin) && JSON.readTree(admin.toFile()).has("topics") && Files.isDirectory(run.resolve("logdir"))) {
                out.add(run);
            }
        }
        assertThat(out).hasSizeGreaterThanOrEqualTo(5);
        return out;
    }

    private static Map<String, Map<String, Object>> partitions(String... args) {
        List<String> a = new ArrayList<>(List.of("partitions", "--format", "jsonl"));
        a.addAll(List.of(args));
        Run r = Run.of(a.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        Map<String, Map<String, Object>> out = new TreeMap<>();
        for (Map<String, Object> row : JsonLines.parse(r.out())) {
            out.put(row.get("topic") + "-" + row.get("partition"), row);
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> partitionsEqualListOffsets() throws IOException {
        return adminRuns().stream().map(run -> DynamicTest.dynamicTest(run.getFileName().toString(), () -> {
            JsonNode admin = JSON.readTree(run.resolve("admin.json").toFile());
            Map<String, Map<String, Object>> ours = partitions(run.resolve("logdir").toString());
            int n = 0;
            for (JsonNode t : admin.get("topics")) {
                for (JsonNode p : t.get("partitions")) {
                    String tp = t.get("name").asText() + "-" + p.get("partition").asInt();
                    Map<String, Object> row = ours.get(tp);
                    assertThat(row).as(tp).isNotNull();
                    long earliest = p.get("earliestOffset").asLong();
                    long latest = p.get("latestOffset").asLong();
                    if (run.getFileName().toString().equals(KILLED)) {
                        assertThat(((Number) row.get("highWatermark")).longValue()).as(tp + " high watermark").isGreaterThanOrEqualTo(latest);
                    } else {
                        assertThat(((Number) row.get("logStartOffset")).longValue()).as(tp + " earliest").isEqualTo(earliest);
                        assertThat(((Number) row.get("highWatermark")).longValue()).as(tp + " latest").isEqualTo(latest);
                    }
                    n++;
                }
            }
            assertThat(n).isGreaterThan(10);
            // every replica of a one-broker log dir is the only one
            assertThat(ours.values()).allSatisfy(r -> assertThat(((Map<?, ?>) r.get("replica")).get("standing")).isEqualTo("only"));
        }));
    }

    /**
     * After a SIGKILL the {@code replication-offset-checkpoint} lags (written every 5 s); a restarted
     * broker leading a partition whose ISR is itself alone serves the log end at once
     * ({@code Partition.makeLeader} → {@code maybeIncrementLeaderHW}). The killed run's Admin snapshot
     * was taken 1.5 s before the kill while producers went on, so it is a lower bound there.
     */
    @Test
    void killedSoleInSyncLeaderServesTheLogEnd() throws IOException {
        Path run = Corpus.runs().stream().filter(r -> r.getFileName().toString().equals(KILLED)).findFirst().orElseThrow();
        Map<String, Map<String, Object>> ours = partitions(run.resolve("logdir").toString());
        Map<String, long[]> expected = Map.of("burst-0", new long[] {10026, 10916}, "__transaction_state-2", new long[] {84, 90});
        expected.forEach((tp, v) -> {
            Map<String, Object> row = ours.get(tp);
            assertThat(((Number) row.get("highWatermarkCheckpoint")).longValue()).as(tp).isEqualTo(v[0]);
            assertThat(((Number) row.get("highWatermark")).longValue()).as(tp).isEqualTo(v[1]);
            assertThat(((Number) row.get("logEndOffset")).longValue()).as(tp).isEqualTo(v[1]);
            assertThat(row.get("notes").toString()).as(tp).contains("replication-offset-checkpoint says " + v[0]
                    + ", written before the crash; a restarted sole in-sync leader serves the log end " + v[1]);
        });
        // elsewhere the checkpoint had caught up with the log end
        ours.forEach((tp, row) -> {
            if (!expected.containsKey(tp) && row.get("highWatermark") != null) {
                assertThat(row.get("highWatermark")).as(tp).isEqualTo(row.get("highWatermarkCheckpoint") == null
                        ? row.get("logStartOffset") : row.get("highWatermarkCheckpoint"));
            }
        });
        Run lag = Run.of("lag", "--format", "jsonl", run.resolve("logdir").toString());
        assertThat(lag.exit()).as(lag.err()).isZero();
        List<Map<String, Object>> burst = JsonLines.parse(lag.out()).stream().filter(r -> "burst".equals(r.get("topic"))).toList();
        assertThat(burst).isNotEmpty().allSatisfy(r -> assertThat(((Number) r.get("highWatermark")).longValue()).isEqualTo(10916));
    }

    /** {@code --time -1} and {@code -2} print exactly kafka-get-offsets.sh's lines for what the Admin API reported. */
    @TestFactory
    Stream<DynamicTest> timeLinesEqualGetOffsets() throws IOException {
        return adminRuns().stream().filter(r -> !r.getFileName().toString().equals(KILLED))
                .map(run -> DynamicTest.dynamicTest(run.getFileName().toString(), () -> {
                    JsonNode admin = JSON.readTree(run.resolve("admin.json").toFile());
                    for (String spec : List.of("-1", "-2", "latest", "earliest")) {
                        TreeMap<String, String> expected = new TreeMap<>();
                        for (JsonNode t : admin.get("topics")) {
                            for (JsonNode p : t.get("partitions")) {
                                long v = p.get(spec.equals("-1") || spec.equals("latest") ? "latestOffset" : "earliestOffset").asLong();
                                expected.put(t.get("name").asText() + "-" + p.get("partition").asInt(),
                                        t.get("name").asText() + ":" + p.get("partition").asInt() + ":" + v);
                            }
                        }
                        Run r = Run.of("partitions", "--time", spec, run.resolve("logdir").toString());
                        assertThat(r.exit()).as(r.err()).isZero();
                        assertThat(r.out()).as(spec).isEqualTo(String.join("\n", expected.values()) + "\n");
                    }
                    // -3 answers the rows' max-timestamp offsets
                    Map<String, Map<String, Object>> rows = partitions(run.resolve("logdir").toString(), "--exclude-internal-topics");
                    Run r = Run.of("partitions", "--time", "-3", "--exclude-internal-topics", run.resolve("logdir").toString());
                    List<String> expected = new ArrayList<>();
                    rows.forEach((tp, row) -> {
                        long o = ((Number) row.get("maxTimestampOffset")).longValue();
                        if (o >= 0) {
                            expected.add(row.get("topic") + ":" + row.get("partition") + ":" + o);
                        }
                    });
                    assertThat(r.out().lines().sorted().toList()).isEqualTo(expected.stream().sorted().toList());
                    assertThat(expected).isNotEmpty();
                }));
    }

    /** {@code lag}: the committed offsets the Admin API listed, against the latest offsets it listed. */
    @TestFactory
    Stream<DynamicTest> lagEqualsAdmin() throws IOException {
        return adminRuns().stream().filter(r -> !r.getFileName().toString().equals(KILLED))
                .map(run -> DynamicTest.dynamicTest(run.getFileName().toString(), () -> {
                    JsonNode admin = JSON.readTree(run.resolve("admin.json").toFile());
                    Map<String, Long> latest = new HashMap<>();
                    for (JsonNode t : admin.get("topics")) {
                        for (JsonNode p : t.get("partitions")) {
                            latest.put(t.get("name").asText() + "-" + p.get("partition").asInt(), p.get("latestOffset").asLong());
                        }
                    }
                    Run r = Run.of("lag", "--format", "jsonl", run.resolve("logdir").toString());
                    assertThat(r.exit()).as(r.err()).isZero();
                    Map<String, Map<String, Object>> ours = new HashMap<>();
                    for (Map<String, Object> row : JsonLines.parse(r.out())) {
                        ours.put(row.get("group") + "\u0000" + row.get("topic") + "-" + row.get("partition"), row);
                    }
                    int n = 0;
                    for (JsonNode g : admin.get("groups")) {
                        if (!g.has("offsets")) {
                            continue;
                        }
                        for (JsonNode o : g.get("offsets")) {
                            String tp = o.get("topic").asText() + "-" + o.get("partition").asInt();
                            Map<String, Object> row = ours.get(g.get("groupId").asText() + "\u0000" + tp);
                            assertThat(row).as(g.get("groupId").asText() + " " + tp).isNotNull();
                            long committed = o.get("offset").asLong();
                            assertThat(((Number) row.get("committedOffset")).longValue()).isEqualTo(committed);
                            if (latest.containsKey(tp)) {
                                assertThat(((Number) row.get("highWatermark")).longValue()).isEqualTo(latest.get(tp));
                                assertThat(((Number) row.get("lag")).longValue()).as(tp).isEqualTo(latest.get(tp) - committed);
                            } else {
                                assertThat(row.get("lag")).isEqualTo("unknown");
                            }
                            n++;
                        }
                    }
                    assertThat(n).isGreaterThan(10);
                }));
    }

    @Test
    void lagIsUnknownWithoutTheDataPartitions() throws IOException {
        Path plain = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
        List<String> args = new ArrayList<>(List.of("lag", "--format", "csv", "--group", "admin-only-group-ü"));
        try (Stream<Path> s = Files.list(plain)) {
            s.filter(d -> d.getFileName().toString().startsWith("__consumer_offsets-")).sorted().forEach(d -> args.add(d.toString()));
        }
        args.add(plain.resolve("txn-orders-0").toString());
        Run r = Run.of(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("group,topic,partition,committed_offset,log_end_offset,high_watermark,lag,");
        assertThat(r.out()).contains("admin-only-group-ü,codec-snappy,0,3,unknown,unknown,unknown");
        assertThat(r.out()).containsPattern("admin-only-group-ü,txn-orders,0,20,\\d+,\\d+,\\d+,");
    }

    /** The crashed run left a transaction of txn-producer-open open: on both txn-orders partitions and on __consumer_offsets. */
    @Test
    void transactionsOfTheCrashedRun() {
        String dir = Corpus.corpus().resolve("kraft-4.4.0-crashed/logdir").toString();
        Run r = Run.of("transactions", "--format", "jsonl", dir);
        assertThat(r.exit()).as(r.err()).isZero();
        List<Map<String, Object>> rows = JsonLines.parse(r.out());
        assertThat(rows).extracting(m -> m.get("topic") + "-" + m.get("partition"))
                .containsExactly("__consumer_offsets-9", "txn-orders-0", "txn-orders-1");
        assertThat(rows).allSatisfy(m -> {
            assertThat(((Map<?, ?>) m.get("coordinator")).get("transactionalId")).isEqualTo("txn-producer-open");
            assertThat(((Map<?, ?>) m.get("coordinator")).get("state")).isEqualTo("Ongoing");
            assertThat(m.get("hanging")).isEqualTo(false);
        });
        // the partition's last stable offset stops at the open transaction, as partitions says
        Map<String, Map<String, Object>> parts = partitions(dir, "--topic", "txn-orders");
        for (Map<String, Object> m : rows.subList(1, 3)) {
            Map<String, Object> p = parts.get(m.get("topic") + "-" + m.get("partition"));
            assertThat(p.get("lastStableOffset")).isEqualTo(m.get("firstOffset"));
            assertThat(((Number) p.get("lastStableOffset")).longValue()).isLessThan(((Number) p.get("highWatermark")).longValue());
        }
        // a far later moment does not make them hang: the coordinator still has them ongoing
        Run later = Run.of("transactions", "--now", "2030-01-01T00:00:00Z", dir);
        assertThat(later.exit()).isZero();
        assertThat(later.out()).contains("3 open transaction(s), 0 hanging");
        // without __transaction_state, an old open transaction may be hanging: said, not claimed
        Run alone = Run.of("transactions", "--now", "2030-01-01T00:00:00Z", Path.of(dir).resolve("txn-orders-0").toString());
        assertThat(alone.exit()).isZero();
        assertThat(alone.out()).contains("maybe hanging").contains("not among the PATHs");
    }

    @Test
    void badValues() {
        String dir = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir").toString();
        assertThat(Run.of("partitions", "--time", "yesterday", dir).exit()).isEqualTo(2);
        assertThat(Run.of("partitions", "--time", "-7", dir).exit()).isEqualTo(2);
        assertThat(Run.of("partitions", "--topic", "(", dir).exit()).isEqualTo(2);
        assertThat(Run.of("transactions", "--max-transaction-timeout", "-1", dir).exit()).isEqualTo(2);
        Run missing = Run.of("partitions", "/nonexistent/segscope");
        assertThat(missing.exit()).isEqualTo(3);
        assertThat(missing.err()).doesNotContain("Exception");
        Run none = Run.of("partitions", "--topic", "no-such-topic", dir);
        assertThat(none.exit()).isZero();
        assertThat(none.err()).contains("no partition found");
    }

    /** An archive of a log dir reads as the dir does (its paths aside). */
    @Test
    void archiveOfALogDir(@TempDir Path tmp) throws IOException {
        Path dir = Corpus.corpus().resolve("kraft-4.4.0-crashed/logdir");
        Path archive = TarGz.of(tmp.resolve("crashed.tar.gz"), dir);
        for (String cmd : List.of("partitions", "transactions", "lag")) {
            Run a = Run.of(cmd, dir.toString());
            Run b = Run.of(cmd, archive.toString());
            assertThat(b.exit()).as(b.err()).isEqualTo(a.exit());
            assertThat(b.out()).as(cmd).isEqualTo(a.out());
            assertThat(a.out()).isNotBlank();
        }
        Run time = Run.of("partitions", "--time", "2026-11-30T03:04:50Z", archive.toString());
        assertThat(time.out()).isEqualTo(Run.of("partitions", "--time", "2026-11-30T03:04:50Z", dir.toString()).out()).isNotBlank();
    }

    /**
     * {@code lag --as-of-time T}: the committed offsets are those {@code offsets --as-of-time T}
     * replays, and each partition's log ends at the first record later than T (what
     * {@code partitions --time T+1} answers), or at its end when none is.
     */
    @Test
    void lagAsOfTimeCutsBothSides() {
        String dir = Corpus.corpus().resolve(KILLED).resolve("logdir").toString();
        Map<String, Object> burst = partitions(dir, "--topic", "burst").get("burst-0");
        long first = ((Number) burst.get("firstTimestamp")).longValue();
        long max = ((Number) burst.get("maxTimestamp")).longValue();
        long t = first + (max - first) / 2;
        Run lag = Run.of("lag", "--format", "jsonl", "--as-of-time", Long.toString(t), dir);
        Run offsets = Run.of("offsets", "--format", "jsonl", "--as-of-time", Long.toString(t), dir);
        Map<String, Long> committed = new HashMap<>();
        for (Map<String, Object> o : JsonLines.parse(offsets.out())) {
            committed.put(o.get("group") + "\u0000" + o.get("topic") + "-" + o.get("partition"), ((Number) o.get("offset")).longValue());
        }
        // the first record later than T, by Kafka's search by timestamp (the high watermark aside: this
        // run's checkpoint lagged its log end, so --time, which stops at it, answers nothing here)
        Map<String, Long> cut = new HashMap<>();
        Path burstDir = Path.of(dir).resolve("burst-0");
        long[] found = new ReplicaScanner(ReaderOptions.defaults(), false).searchTimestamp(PartitionDir.of(FileEntry.of(burstDir)), t + 1,
                ((Number) burst.get("logStartOffset")).longValue());
        assertThat(found).isNotNull();
        cut.put("burst-0", found[0]);
        List<Map<String, Object>> rows = JsonLines.parse(lag.out());
        assertThat(rows).hasSize(committed.size()).isNotEmpty();
        int cutRows = 0;
        for (Map<String, Object> r : rows) {
            String tp = r.get("topic") + "-" + r.get("partition");
            assertThat(((Number) r.get("committedOffset")).longValue()).isEqualTo(committed.get(r.get("group") + "\u0000" + tp));
            if (cut.containsKey(tp)) {
                assertThat(((Number) r.get("logEndOffset")).longValue()).as(tp).isEqualTo(cut.get(tp));
                cutRows++;
            } else {
                assertThat(r.get("logEndOffset")).as(tp).isEqualTo(((Number) partitions(dir, "--topic", (String) r.get("topic")).get(tp)
                        .get("logEndOffset")).longValue());
            }
        }
        assertThat(cutRows).isGreaterThan(0);
        assertThat(rows).filteredOn(r -> "burst".equals(r.get("topic"))).allSatisfy(r ->
                assertThat(((Number) r.get("highWatermark")).longValue()).isLessThanOrEqualTo(((Number) r.get("logEndOffset")).longValue()));
        assertThat(cut.get("burst-0")).isLessThan(((Number) burst.get("logEndOffset")).longValue());
    }

    /**
     * A file named on its own outside any {@code <topic>-<partition>} dir (not Kafka's at all, an
     * empty file, a segment copied elsewhere, /dev/null), or segments in a dir of another name: the
     * per-partition commands can read nothing of it, and must not pass that off as a clean,
     * empty answer (exit 0, or compat's "loads in 0.10.0 and later").
     */
    @Test
    void pathsOutsidePartitionDirsAreNotSilentlyIgnored(@TempDir Path tmp) throws IOException {
        Path text = Files.writeString(tmp.resolve("readme.txt"), "not Kafka\n");
        Path empty = Files.createFile(tmp.resolve("empty.log"));
        Path segment = Files.copy(Corpus.corpus().resolve("kraft-4.4.0-plain/logdir/__consumer_offsets-1/00000000000000000000.log"),
                tmp.resolve("00000000000000000000.log"));
        Path loose = Files.createDirectories(tmp.resolve("copied").resolve("segments"));
        Files.copy(segment, loose.resolve(segment.getFileName()));
        for (Path p : List.of(text, empty, segment, loose, Path.of("/dev/null"))) {
            for (String[] cmd : List.of(new String[]{"offsets"}, new String[]{"groups"}, new String[]{"history", "--group", "g"},
                    new String[]{"partitions"}, new String[]{"lag"}, new String[]{"transactions"}, new String[]{"compat"},
                    new String[]{"compat", "--target", "3.9"})) {
                List<String> args = new ArrayList<>(List.of(cmd));
                args.add(p.toString());
                Run r = Run.of(args.toArray(String[]::new));
                assertThat(r.exit()).as(args + ": " + r.err()).isEqualTo(3);
                assertThat(r.err()).as(String.join(" ", args)).contains(p + ": io-error — not inside a <topic>-<partition> dir");
                assertThat(r.out()).as(String.join(" ", args)).doesNotContain("These logs load");
            }
        }
        // standard input has no topic or partition either
        java.io.InputStream stdin = System.in;
        try {
            System.setIn(new java.io.ByteArrayInputStream(Files.readAllBytes(segment)));
            Run r = Run.of("partitions", "-");
            assertThat(r.exit()).as(r.err()).isEqualTo(3);
            assertThat(r.err()).contains("-: io-error — not inside a <topic>-<partition> dir");
        } finally {
            System.setIn(stdin);
        }
        // the same segment in its partition dir is read
        Run inPlace = Run.of("partitions", Corpus.corpus().resolve("kraft-4.4.0-plain/logdir/__consumer_offsets-1/00000000000000000000.log").toString());
        assertThat(inPlace.exit()).as(inPlace.err()).isZero();
        assertThat(inPlace.out()).contains("__consumer_offsets  1 ");
    }

    /** transactions ignored the damage its replica scan met (help: exit 1 for damage), and exited 0. */
    @Test
    void transactionsTellsDamage() {
        Path corrupt = Corpus.root().resolve("testdata/corrupt");
        Run r = Run.of("transactions", corrupt.resolve("bad-magic").toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains("transactions: ").contains("position 3064: invalid-magic");
        Run clean = Run.of("transactions", Corpus.corpus().resolve("kraft-4.4.0-crashed/logdir").toString());
        assertThat(clean.exit()).as(clean.err()).isZero();
        assertThat(clean.err()).isEmpty();
    }
}
