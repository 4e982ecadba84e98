package io.segscope.inspector.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.segscope.inspector.JsonLines;
import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three-broker run {@code kraft-4.4.0-replicas}: {@code partitions}, {@code lag} and
 * {@code transactions} over the three brokers' log dirs against what the cluster's Admin API
 * ({@code admin.json}) and Kafka's own tools ({@code tools/}: kafka-get-offsets.sh,
 * kafka-transactions.sh find-hanging) reported before shutdown: listOffsets of every spec, the
 * producers each broker described, each replica's size, every group's lag, the hanging and the
 * open transaction, a lagging broker and a replica that diverged by an unclean election.
 */
class ReplicaRunCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path run;
    private static JsonNode admin;
    private static List<String> dirs;
    /** broker + "/" + topic-partition → row. */
    private static final Map<String, Map<String, Object>> ROWS = new HashMap<>();

    @BeforeAll
    static void read() throws IOException {
        assertThat(Corpus.replicaRuns()).isNotEmpty();
        run = Corpus.replicaRuns().get(0);
        admin = JSON.readTree(run.resolve("admin.json").toFile());
        dirs = Corpus.brokerLogDirs(run).stream().map(Path::toString).toList();
        assertThat(dirs).hasSize(3);
        Run r = cmd("partitions", "--format", "jsonl");
        assertThat(r.exit()).as("diverged-0 diverged: exit 1").isEqualTo(1);
        for (Map<String, Object> row : JsonLines.parse(r.out())) {
            ROWS.put(row.get("broker") + "/" + row.get("topic") + "-" + row.get("partition"), row);
        }
    }

    /**
     * The dir holding the three log dirs ({@code logdirs/broker-1} ... {@code broker-3}), given as
     * one PATH, is the three log dirs: it was taken for one log dir holding partitions 1 to 3 of a
     * topic {@code broker} (verify read 0 files and exited 0, offsets found no partition, compact
     * found nothing to compact).
     */
    @Test
    void theDirHoldingTheLogDirsIsTheLogDirs() {
        String parent = Path.of(dirs.get(0)).getParent().toString();
        for (String c : List.of("verify", "partitions", "offsets", "groups", "lag", "transactions", "compat", "dump")) {
            Run split = cmd(c);
            Run whole = Run.of(c, parent);
            assertThat(whole.exit()).as(c + ": " + whole.err()).isEqualTo(split.exit());
            assertThat(whole.out()).as(c).isEqualTo(split.out());
            assertThat(whole.out()).as(c).isNotEmpty().doesNotContain("broker  1 ");
        }
        Run compact = Run.of("compact", "--dry-run", parent);
        assertThat(compact.exit()).as(compact.err()).isZero();
        assertThat(compact.out()).contains("__consumer_offsets-0");
    }

    private static Run cmd(String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(dirs);
        return Run.of(a.toArray(String[]::new));
    }

    private static long num(Object o) {
        return ((Number) o).longValue();
    }

    @Test
    void everyPartitionEqualsListOffsetsOfItsLeader() {
        int n = 0;
        for (JsonNode p : admin.get("partitions")) {
            String tp = p.get("topic").asText() + "-" + p.get("partition").asInt();
            Map<String, Object> row = ROWS.get(p.get("leader").asInt() + "/" + tp);
            assertThat(row).as(tp).isNotNull();
            JsonNode lo = p.get("listOffsets");
            assertThat(((Map<?, ?>) row.get("replica")).get("standing")).as(tp + ": the leader's replica is the most advanced")
                    .isEqualTo("most-advanced");
            assertThat(num(row.get("logStartOffset"))).as(tp + " earliest").isEqualTo(lo.get("earliest").get("offset").asLong());
            assertThat(num(row.get("logStartOffset"))).as(tp + " earliest-local").isEqualTo(lo.get("earliestLocal").get("offset").asLong());
            assertThat(num(row.get("highWatermark"))).as(tp + " latest").isEqualTo(lo.get("latest").get("offset").asLong());
            assertThat(num(row.get("lastStableOffset"))).as(tp + " latest, read committed")
                    .isEqualTo(lo.get("latestReadCommitted").get("offset").asLong());
            assertThat(num(row.get("maxTimestampOffset"))).as(tp + " max timestamp").isEqualTo(lo.get("maxTimestamp").get("offset").asLong());
            if (lo.get("maxTimestamp").get("offset").asLong() >= 0) {
                assertThat(num(row.get("maxTimestamp"))).as(tp + " max timestamp's time").isEqualTo(lo.get("maxTimestamp").get("timestamp").asLong());
            }
            n++;
        }
        assertThat(n).isGreaterThanOrEqualTo(20);
    }

    /** {@code --time} prints what kafka-get-offsets.sh printed, for every spec and timestamp it was run with. */
    @Test
    void timeEqualsGetOffsets() throws IOException {
        int files = 0;
        try (var s = Files.list(run.resolve("tools"))) {
            for (Path f : s.filter(p -> p.getFileName().toString().startsWith("get-offsets-time-")).sorted().toList()) {
                String name = f.getFileName().toString();
                String spec = name.substring("get-offsets-time-".length(), name.length() - ".txt".length());
                Run r = cmd("partitions", "--time", spec);
                assertThat(r.out()).as(name).isEqualTo(Files.readString(f));
                files++;
            }
        }
        assertThat(files).isGreaterThanOrEqualTo(6);
    }

    /** Each broker's described producers: the producers and open transactions of its replica. */
    @Test
    void producersEqualDescribeProducers() {
        int n = 0;
        for (JsonNode p : admin.get("partitions")) {
            String tp = p.get("topic").asText() + "-" + p.get("partition").asInt();
            var it = p.get("describeProducers").fields();
            while (it.hasNext()) {
                var e = it.next();
                if (!e.getValue().isArray()) {
                    continue; // the stopped broker could not answer
                }
                Map<String, Object> row = ROWS.get(e.getKey() + "/" + tp);
                assertThat(row).as(e.getKey() + "/" + tp).isNotNull();
                assertThat(num(row.get("producers"))).as(e.getKey() + "/" + tp + " producers").isEqualTo(e.getValue().size());
                Set<String> open = new TreeSet<>();
                for (JsonNode pr : e.getValue()) {
                    if (!pr.get("currentTransactionStartOffset").isNull()) {
                        open.add(pr.get("producerId").asLong() + "@" + pr.get("currentTransactionStartOffset").asLong()
                                + " epoch " + pr.get("producerEpoch").asInt() + " last " + pr.get("lastTimestamp").asLong());
                    }
                }
                Set<String> ours = new TreeSet<>();
                for (Object o : (List<?>) row.get("openTransactions")) {
                    Map<?, ?> m = (Map<?, ?>) o;
                    ours.add(num(m.get("producerId")) + "@" + num(m.get("firstOffset")) + " epoch " + num(m.get("producerEpoch"))
                            + " last " + num(m.get("lastTimestamp")));
                }
                assertThat(ours).as(e.getKey() + "/" + tp + " open transactions").isEqualTo(open);
                n++;
            }
        }
        assertThat(n).isGreaterThanOrEqualTo(38);
    }

    /** describeLogDirs' size of every replica on the brokers that answered is the bytes of its segments. */
    @Test
    void sizesEqualDescribeLogDirs() {
        int n = 0;
        for (JsonNode b : admin.get("describeLogDirs")) {
            if (!b.has("logDirs")) {
                continue;
            }
            for (JsonNode d : b.get("logDirs")) {
                for (JsonNode r : d.get("replicas")) {
                    String key = b.get("broker").asInt() + "/" + r.get("topic").asText() + "-" + r.get("partition").asInt();
                    assertThat(ROWS.get(key)).as(key).isNotNull();
                    assertThat(num(ROWS.get(key).get("bytes"))).as(key).isEqualTo(r.get("size").asLong());
                    n++;
                }
            }
        }
        assertThat(n).isGreaterThanOrEqualTo(38);
    }

    @Test
    void lagEqualsTheGroupsLag() {
        Run r = cmd("lag", "--format", "jsonl");
        assertThat(r.exit()).as(r.err()).isZero();
        Map<String, Map<String, Object>> ours = new HashMap<>();
        for (Map<String, Object> row : JsonLines.parse(r.out())) {
            ours.put(row.get("group") + "/" + row.get("topic") + "-" + row.get("partition"), row);
        }
        int n = 0;
        for (JsonNode g : admin.get("groupLag")) {
            for (JsonNode p : g.get("partitions")) {
                String key = g.get("groupId").asText() + "/" + p.get("topic").asText() + "-" + p.get("partition").asInt();
                Map<String, Object> row = ours.get(key);
                assertThat(row).as(key).isNotNull();
                assertThat(num(row.get("committedOffset"))).as(key).isEqualTo(p.get("committedOffset").asLong());
                assertThat(num(row.get("highWatermark"))).as(key).isEqualTo(p.get("logEndOffset").asLong());
                assertThat(num(row.get("lag"))).as(key).isEqualTo(p.get("lag").asLong());
                n++;
            }
        }
        assertThat(n).isGreaterThan(10);
    }

    /** The hanging transaction is the one find-hanging listed (with its default and a zero timeout); the open one is not. */
    @Test
    void hangingEqualsFindHanging() throws IOException {
        long now = admin.get("takenAtMs").asLong();
        for (String timeout : List.of("15", "0")) {
            Set<String> kafka = new TreeSet<>();
            for (String broker : List.of("1", "2")) {
                String f = "transactions-find-hanging-broker-" + broker + (timeout.equals("0") ? "-max-timeout-0" : "") + ".txt";
                List<String> lines = Files.readAllLines(run.resolve("tools").resolve(f));
                for (String line : lines.subList(1, lines.size())) {
                    String[] c = line.split("\t");
                    kafka.add(c[0].trim() + "-" + c[1].trim() + " pid " + c[2].trim() + " epoch " + c[3].trim() + " start " + c[5].trim()
                            + " last " + c[6].trim() + " " + c[7].trim() + " min");
                }
            }
            assertThat(kafka).isNotEmpty();
            Run r = cmd("transactions", "--format", "jsonl", "--now", Long.toString(now), "--max-transaction-timeout", timeout);
            assertThat(r.exit()).as("a hanging transaction: exit 1").isEqualTo(1);
            Set<String> ours = new TreeSet<>();
            List<Map<String, Object>> rows = JsonLines.parse(r.out());
            for (Map<String, Object> m : rows) {
                if (Boolean.TRUE.equals(m.get("hanging"))) {
                    ours.add(m.get("topic") + "-" + m.get("partition") + " pid " + m.get("producerId") + " epoch " + m.get("producerEpoch")
                            + " start " + m.get("firstOffset") + " last " + m.get("lastTimestamp") + " " + num(m.get("idleMs")) / 60_000 + " min");
                }
            }
            assertThat(ours).as("--max-transaction-timeout " + timeout).isEqualTo(kafka);
            // and in find-hanging's own text
            String text = cmd("transactions", "--format", "kafka", "--now", Long.toString(now), "--max-transaction-timeout", timeout).out();
            for (String broker : List.of("1", "2")) {
                assertThat(text).isEqualTo(Files.readString(run.resolve("tools").resolve("transactions-find-hanging-broker-" + broker
                        + (timeout.equals("0") ? "-max-timeout-0" : "") + ".txt")));
            }
            // the open transaction of the coordinator's Ongoing transactional id is open, not hanging
            assertThat(rows).filteredOn(m -> m.get("coordinator") != null
                            && "ledger-open \"txn\" 日本".equals(((Map<?, ?>) m.get("coordinator")).get("transactionalId")))
                    .extracting(m -> m.get("topic") + "-" + m.get("partition") + " " + m.get("hanging"))
                    .containsExactly("ledger-txn-0 false", "ledger-txn-2 false");
        }
    }

    /** Broker 3 was killed behind the others; diverged-0's old leader went on alone in epoch 0 and was replaced uncleanly. */
    @Test
    void laggingAndDivergedReplicas() {
        Map<String, Object> diverged = ROWS.get("3/diverged-0");
        Map<?, ?> standing = (Map<?, ?>) diverged.get("replica");
        assertThat(standing.get("standing")).isEqualTo("diverged");
        assertThat(num(standing.get("offset"))).isEqualTo(20);
        assertThat(num(standing.get("records"))).isEqualTo(num(diverged.get("logEndOffset")) - 20);
        assertThat(((Map<?, ?>) ROWS.get("1/diverged-0").get("replica")).get("standing")).isEqualTo("most-advanced");
        for (String tp : List.of("orders-zstd-0", "events-lz4-0", "ledger-txn-0", "ledger-txn-1", "ledger-txn-2")) {
            Map<?, ?> s = (Map<?, ?>) ROWS.get("3/" + tp).get("replica");
            assertThat(s.get("standing")).as(tp).isEqualTo("behind");
            assertThat(num(s.get("offset"))).isEqualTo(num(ROWS.get("3/" + tp).get("logEndOffset")));
        }
        assertThat(ROWS.get("3/orders-zstd-0").get("cleanShutdown")).isEqualTo(false);
    }

    /** {@code transactions --list} prints what kafka-transactions.sh list printed; its jsonl holds what describeTransactions said. */
    @Test
    void listEqualsKafkaTransactionsList() throws IOException {
        Run r = cmd("transactions", "--list");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(Files.readString(run.resolve("tools/transactions-list.txt")));
        Map<String, Map<String, Object>> ours = new HashMap<>();
        for (Map<String, Object> m : JsonLines.parse(cmd("transactions", "--list", "--format", "jsonl").out())) {
            ours.put((String) m.get("transactionalId"), m);
        }
        assertThat(ours).hasSize(admin.get("transactions").size());
        for (JsonNode t : admin.get("transactions")) {
            JsonNode d = t.get("describeTransactions");
            Map<String, Object> m = ours.get(t.get("transactionalId").asText());
            assertThat(m).isNotNull();
            assertThat(m.get("state")).isEqualTo(d.get("state").asText());
            assertThat(num(m.get("producerId"))).isEqualTo(d.get("producerId").asLong());
            assertThat(num(m.get("producerEpoch"))).isEqualTo(d.get("producerEpoch").asLong());
            assertThat(num(m.get("timeoutMs"))).isEqualTo(d.get("transactionTimeoutMs").asLong());
            assertThat(num(m.get("coordinator"))).isEqualTo(d.get("coordinatorId").asLong());
            Set<String> parts = new TreeSet<>();
            d.get("topicPartitions").forEach(x -> parts.add(x.asText()));
            assertThat(new TreeSet<>((List<?>) m.get("partitions"))).isEqualTo(parts);
            if (d.get("transactionStartTimeMs").asLong() >= 0 && d.get("state").asText().equals("Ongoing")) {
                assertThat(num(m.get("startTimestamp"))).isEqualTo(d.get("transactionStartTimeMs").asLong());
            }
        }
    }

    /** {@code lag --format kafka} prints what kafka-consumer-groups.sh --describe --all-groups printed, and its notes. */
    @Test
    void lagInKafkasTextEqualsConsumerGroupsDescribe() throws IOException {
        Run r = cmd("lag", "--format", "kafka");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(Files.readString(run.resolve("tools/consumer-groups-describe-all-groups.txt")));
        for (String line : Files.readAllLines(run.resolve("tools/consumer-groups-describe-all-groups.err"))) {
            assertThat(r.err()).contains(line);
        }
    }
}
