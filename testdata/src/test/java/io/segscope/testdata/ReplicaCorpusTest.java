package io.segscope.testdata;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * Checks that the committed replica run ({@code testdata/corpus-replicas/kraft-4.4.0-replicas},
 * three brokers) is complete and holds what testdata/corpus/README.md promises: every broker's log
 * dir matches its manifest and has Kafka's dumps, {@code admin.json} and the tools' outputs parse,
 * and the open and hanging transactions, the lagging broker and the divergence are where run.json
 * says. Reads files only; no broker.
 */
class ReplicaCorpusTest {
    private static final String REPLICAS = "kraft-4.4.0-replicas";
    private static final List<String> DUMPED = List.of(".log", ".index", ".timeindex", ".txnindex", ".snapshot", ".checkpoint");
    private static final Pattern GET_OFFSETS_LINE = Pattern.compile("[^:]+:\\d+:\\d+");

    private static Path run() {
        return Corpus.replicaCorpus().resolve(REPLICAS);
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(Object tree, Object... path) {
        Object o = tree;
        for (Object p : path) {
            o = p instanceof Integer ? ((List<Object>) o).get((Integer) p) : ((Map<String, Object>) o).get((String) p);
        }
        return (T) o;
    }

    @Test
    void theRunIsListedWithOneLogDirPerBroker() {
        assertThat(Corpus.replicaRuns()).containsExactly(run());
        assertThat(Corpus.brokerLogDirs(run())).extracting(p -> p.getFileName().toString())
                .containsExactly("broker-1", "broker-2", "broker-3");
        assertThat(Files.exists(run().resolve("logdir"))).as("no single logdir/").isFalse();
    }

    @Test
    void everyLogDirMatchesItsManifestAndHasKafkasDumps() throws Exception {
        Map<String, Object> runJson = KraftCorpusTest.parse(run().resolve("run.json"));
        assertThat(runJson.get("kafkaVersion")).isEqualTo("4.4.0");
        Map<String, Object> manifests = at(runJson, "logdirManifests");
        assertThat(manifests.keySet()).containsExactly("broker-1", "broker-2", "broker-3");
        for (Path logDir : Corpus.brokerLogDirs(run())) {
            String broker = logDir.getFileName().toString();
            KraftCorpusTest.matchesManifest(Map.of("m", manifests.get(broker)), "m", logDir);
            assertThat(logDir.resolve("meta.properties")).exists();
            int dumped = 0;
            for (Path f : KraftCorpusTest.files(logDir)) {
                String n = f.getFileName().toString();
                if (DUMPED.stream().noneMatch(n::endsWith)) {
                    continue;
                }
                String rel = logDir.relativize(f).toString();
                Path dump = run().resolve("dumps").resolve(broker).resolve(rel + ".txt");
                assertThat(dump).as("dump of %s/%s", broker, rel).exists();
                assertThat(KraftCorpusTest.firstLine(dump)).isEqualTo("Dumping logdirs/" + broker + "/" + rel);
                dumped++;
            }
            assertThat(dumped).as(broker).isGreaterThan(40);
        }
        // brokers 1 and 2 were stopped cleanly at the end, broker 3 was SIGKILLed part way
        assertThat(run().resolve("logdirs/broker-1/.kafka_cleanshutdown")).exists();
        assertThat(run().resolve("logdirs/broker-2/.kafka_cleanshutdown")).exists();
        assertThat(run().resolve("logdirs/broker-3/.kafka_cleanshutdown")).doesNotExist();
    }

    @Test
    void adminJsonHoldsOffsetsProducersLogDirsTransactionsAndLag() throws Exception {
        Map<String, Object> admin = KraftCorpusTest.parse(run().resolve("admin.json"));
        assertThat(admin.keySet()).containsSubsequence("groups", "topics", "probeTimestamps", "partitions",
                "describeLogDirs", "describeReplicaLogDirs", "transactions", "groupLag");
        List<Map<String, Object>> partitions = at(admin, "partitions");
        assertThat(partitions).hasSizeGreaterThan(15);
        for (Map<String, Object> p : partitions) {
            Map<String, Object> lo = at(p, "listOffsets");
            assertThat(lo.keySet()).containsExactly("earliest", "latest", "latestReadCommitted", "maxTimestamp",
                    "earliestLocal", "forTimestamp");
            assertThat((List<Object>) at(lo, "forTimestamp")).hasSize(((List<?>) admin.get("probeTimestamps")).size());
            assertThat((Map<String, Object>) at(p, "describeProducers")).isNotEmpty();
        }
        List<Map<String, Object>> logDirs = at(admin, "describeLogDirs");
        assertThat(logDirs).extracting(b -> b.get("broker")).containsExactly(1L, 2L, 3L);
        assertThat((String) at(logDirs, 0, "logDirs", 0, "path")).isEqualTo("logdirs/broker-1");
        assertThat(logDirs.get(2)).containsKey("error");

        Map<String, Object> runJson = KraftCorpusTest.parse(run().resolve("run.json"));
        Map<String, Object> expected = at(runJson, "workload", "expected");
        // the open transaction: Ongoing, and its partitions' last stable offset is its first offset
        String openId = at(expected, "openTransaction", "transactionalId");
        List<Map<String, Object>> txns = at(admin, "transactions");
        Map<String, Object> open = txns.stream().filter(t -> t.get("transactionalId").equals(openId)).findFirst().orElseThrow();
        assertThat(open.get("state")).isEqualTo("Ongoing");
        Map<String, Object> firstOffsets = at(expected, "openTransaction", "firstOffsets");
        // the hanging transaction: no coordinator knows its producer id, and it holds its partition's LSO
        Map<String, Object> hanging = at(expected, "hangingTransaction");
        String hangingPartition = hanging.get("topic") + "-" + hanging.get("partition");
        long hangingPid = (Long) hanging.get("producerId");
        assertThat(txns).noneMatch(t -> t.get("producerId").equals(hangingPid));
        int checked = 0;
        for (Map<String, Object> p : partitions) {
            String tp = p.get("topic") + "-" + p.get("partition");
            long latest = at(p, "listOffsets", "latest", "offset");
            long lso = at(p, "listOffsets", "latestReadCommitted", "offset");
            if (firstOffsets.containsKey(tp)) {
                assertThat(lso).as(tp).isEqualTo(firstOffsets.get(tp)).isLessThan(latest);
                checked++;
            } else if (tp.equals(hangingPartition)) {
                assertThat(lso).as(tp).isEqualTo(hanging.get("baseOffset")).isLessThan(latest);
                // every running replica's broker reports the producer with its open transaction
                Map<String, Object> byBroker = at(p, "describeProducers");
                for (String broker : List.of("1", "2")) {
                    List<Map<String, Object>> producers = at(byBroker, broker);
                    assertThat(producers).as(tp + " on broker " + broker).anySatisfy(s -> {
                        assertThat(s.get("producerId")).isEqualTo(hangingPid);
                        assertThat(s.get("currentTransactionStartOffset")).isEqualTo(hanging.get("baseOffset"));
                        assertThat(s.get("coordinatorEpoch")).isNull();
                    });
                }
                assertThat((Map<String, Object>) at(byBroker, "3")).containsKey("error");
                checked++;
            }
        }
        assertThat(checked).isEqualTo(firstOffsets.size() + 1);
        // lag as kafka-consumer-groups computes it
        List<Map<String, Object>> lag = at(admin, "groupLag");
        assertThat(lag).isNotEmpty();
        for (Map<String, Object> g : lag) {
            for (Map<String, Object> p : (List<Map<String, Object>>) g.get("partitions")) {
                assertThat((Long) p.get("lag")).isEqualTo((Long) p.get("logEndOffset") - (Long) p.get("committedOffset"));
            }
        }
    }

    @Test
    void theDivergenceAndTheLaggingBrokerAreRecorded() throws Exception {
        Map<String, Object> runJson = KraftCorpusTest.parse(run().resolve("run.json"));
        Map<String, Object> d = at(runJson, "workload", "expected", "divergence");
        assertThat((Long) d.get("broker1LeaderEpoch")).isGreaterThan((Long) d.get("broker3LeaderEpoch"));
        assertThat((Long) at(d, "broker1Offsets", 0)).isEqualTo((Long) at(d, "broker3OnlyOffsets", 0));
        // each replica's leader-epoch-checkpoint says where its epochs start: broker 1's new
        // epoch starts at the offset broker 3 holds records of the old epoch at
        List<String> epochs1 = Files.readAllLines(run().resolve("logdirs/broker-1/diverged-0/leader-epoch-checkpoint"));
        List<String> epochs3 = Files.readAllLines(run().resolve("logdirs/broker-3/diverged-0/leader-epoch-checkpoint"));
        assertThat(epochs1).contains(d.get("broker1LeaderEpoch") + " " + d.get("divergesAtOffset"));
        assertThat(epochs3).doesNotContain(d.get("broker1LeaderEpoch") + " " + d.get("divergesAtOffset"));
        assertThat((Long) at(runJson, "workload", "expected", "laggingBroker", "broker")).isEqualTo(3L);
    }

    @Test
    void everyToolOutputIsListedAndTheHangingTransactionIsFlagged() throws Exception {
        Path tools = run().resolve("tools");
        List<Object> index = KraftCorpusTest.parseList(tools.resolve("tools.json"));
        TreeSet<String> files = new TreeSet<>();
        for (Object o : index) {
            Map<String, Object> m = at(o);
            String file = (String) m.get("file");
            files.add(file);
            assertThat(tools.resolve(file)).exists();
            if (m.get("stderrFile") != null) {
                files.add((String) m.get("stderrFile"));
                assertThat(tools.resolve((String) m.get("stderrFile"))).exists();
            }
            if (file.startsWith("get-offsets-")) {
                assertThat(m.get("exitCode")).isEqualTo(0L);
                for (String line : Files.readAllLines(tools.resolve(file), StandardCharsets.UTF_8)) {
                    assertThat(line).matches(GET_OFFSETS_LINE);
                }
            }
        }
        files.add("tools.json");
        List<String> onDisk = new ArrayList<>();
        try (var s = Files.list(tools)) {
            s.forEach(p -> onDisk.add(p.getFileName().toString()));
        }
        assertThat(new TreeSet<>(onDisk)).isEqualTo(files);

        Map<String, Object> hanging = at(KraftCorpusTest.parse(run().resolve("run.json")), "workload", "expected", "hangingTransaction");
        for (Object broker : (List<?>) hanging.get("replicas")) {
            if (broker.equals(3L)) {
                continue; // stopped: the tool cannot ask it
            }
            String text = read(tools.resolve("transactions-find-hanging-broker-" + broker + "-max-timeout-0.txt"));
            assertThat(text).startsWith("Topic").contains(hanging.get("topic") + "\t")
                    .containsPattern("\\b" + hanging.get("producerId") + "\\s");
        }
        assertThat(read(tools.resolve("consumer-groups-describe-all-groups.txt")))
                .contains("CURRENT-OFFSET", "LOG-END-OFFSET", "LAG");
        assertThat(read(tools.resolve("transactions-list.txt"))).contains("Ongoing");
    }

    private static String read(Path f) throws IOException {
        return Files.readString(f, StandardCharsets.UTF_8);
    }
}
