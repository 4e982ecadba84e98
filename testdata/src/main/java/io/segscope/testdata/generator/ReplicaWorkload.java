package io.segscope.testdata.generator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The workload of {@code kraft-4.4.0-replicas} on a {@link ReplicaCluster}: topics with
 * replication factor 3 and 2 (explicit replica assignments), records with explicit CreateTime
 * timestamps spread over hours and partly out of order, idempotent and non-idempotent producers,
 * simple groups committing behind the log end, transactions committed and aborted, then a
 * divergence of the two replicas of {@value #DIVERGED} by an unclean leader election (broker 3,
 * its leader, SIGKILLed after taking records the follower never got; broker 1 elected uncleanly
 * and written to), more of everything on brokers 1 and 2 only (broker 3 stays down: its replicas
 * lag), a topic deleted under a group, a hanging transaction ({@link HangingTransaction}) and a
 * transaction left open. Everything it did and what the log dirs should show goes to
 * {@link #report()}.
 */
final class ReplicaWorkload {
    static final String ORDERS = "orders-zstd";
    static final String EVENTS = "events-lz4";
    static final String AUDIT = "audit-log-append-time";
    static final String COMPACTED = "compacted-keys";
    static final String LEDGER = "ledger-txn";
    static final String DIVERGED = "diverged";
    static final String SHORT_LIVED = "short-lived";
    static final String TXN_ID = "ledger-txn-ü,1";
    static final String OPEN_TXN_ID = "ledger-open \"txn\" 日本";
    static final String LAGGING_BROKER_FACT = "laggingBroker";
    static final List<String> GROUPS = List.of("lag,group \"one\"", "lag-ümlaut-日本語-🚀", "lag plain");
    static final String DELETED_TOPIC_GROUP = "group-of,deleted \"topic\"";

    private final ReplicaCluster cluster;
    private final Random random;
    private final Admin admin;
    /** The records' CreateTime timestamps start here: the workload's start, whole hours, 6 hours back. */
    private final long baseTime;
    private long clock;
    private final Map<String, Object> report = new LinkedHashMap<>();
    private final Map<String, Object> expected = new LinkedHashMap<>();
    private final List<String> steps = new ArrayList<>();
    private final Map<String, Integer> counters = new TreeMap<>();
    private final Map<String, Map<TopicPartition, Long>> positions = new HashMap<>();
    private final List<AutoCloseable> liveClients = new ArrayList<>();
    /** Brokers stopped during the workload: node, signal, exit code, when. */
    private final List<Object> stops = new ArrayList<>();
    private long minTimestamp = Long.MAX_VALUE;
    private long maxTimestamp = Long.MIN_VALUE;

    ReplicaWorkload(ReplicaCluster cluster, long seed) {
        this.cluster = cluster;
        this.random = new Random(seed);
        this.admin = cluster.admin();
        long now = System.currentTimeMillis();
        this.baseTime = now - now % 3_600_000L - TimeUnit.HOURS.toMillis(6);
        this.clock = baseTime;
    }

    Admin admin() {
        return admin;
    }

    /** Timestamps inside the data for {@code forTimestamp} and {@code kafka-get-offsets --time}: the first, one in the middle. */
    List<Long> probeTimestamps() {
        return List.of(minTimestamp, minTimestamp + (maxTimestamp - minTimestamp) / 2);
    }

    List<Object> stops() {
        return stops;
    }

    private void stopped(String node, String signal, int exitCode, String when) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("node", node);
        m.put("signal", signal);
        m.put("exitCode", exitCode);
        m.put("when", when);
        stops.add(m);
    }

    Map<String, Object> report() {
        report.put("baseTimestamp", baseTime);
        report.put("minCreateTimestamp", minTimestamp);
        report.put("maxCreateTimestamp", maxTimestamp);
        report.put("steps", steps);
        report.put("counts", counters);
        report.put("expected", expected);
        return report;
    }

    private void step(String s) {
        steps.add(s);
        System.out.println("  " + s);
    }

    private void count(String key, int n) {
        counters.merge(key, n, Integer::sum);
    }

    /** Phase 1, all three brokers up: topics, records, groups, transactions. */
    void beforeDivergence() throws Exception {
        createTopics();
        produce(ORDERS, 3, 45, Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd"));
        produce(EVENTS, 2, 30, Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
                ProducerConfig.ACKS_CONFIG, "1", ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"));
        produce(AUDIT, 2, 20, Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true"));
        produceCompacted(60);
        produce(SHORT_LIVED, 1, 10, Map.of());
        transactions(6);
        commitBehind(1);
        commitGroup(DELETED_TOPIC_GROUP, List.of(new TopicPartition(SHORT_LIVED, 0), new TopicPartition(ORDERS, 0)));
    }

    private void createTopics() throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        topics.add(new NewTopic(ORDERS, Map.of(0, List.of(1, 2, 3), 1, List.of(2, 3, 1), 2, List.of(3, 1, 2)))
                .configs(Map.of("compression.type", "producer")));
        topics.add(new NewTopic(EVENTS, Map.of(0, List.of(2, 1, 3), 1, List.of(3, 2, 1))));
        topics.add(new NewTopic(AUDIT, Map.of(0, List.of(1, 2), 1, List.of(2, 1)))
                .configs(Map.of("message.timestamp.type", "LogAppendTime")));
        topics.add(new NewTopic(COMPACTED, Map.of(0, List.of(2, 3)))
                .configs(Map.of("cleanup.policy", "compact")));
        topics.add(new NewTopic(LEDGER, Map.of(0, List.of(1, 2, 3), 1, List.of(2, 3, 1), 2, List.of(3, 1, 2))));
        topics.add(new NewTopic(DIVERGED, Map.of(0, List.of(3, 1)))
                .configs(Map.of("unclean.leader.election.enable", "true", "min.insync.replicas", "1")));
        topics.add(new NewTopic(SHORT_LIVED, Map.of(0, List.of(1, 2))));
        admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        waitForLeaders(List.of(ORDERS, EVENTS, AUDIT, COMPACTED, LEDGER, DIVERGED, SHORT_LIVED));
        step("created " + topics.size() + " topics with explicit replica assignments (RF 3: " + ORDERS + ", " + EVENTS
                + ", " + LEDGER + "; RF 2: " + AUDIT + ", " + COMPACTED + ", " + DIVERGED + ", " + SHORT_LIVED + ")");
    }

    private void waitForLeaders(Collection<String> topics) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            boolean all = true;
            for (TopicDescription d : admin.describeTopics(topics).allTopicNames().get(60, TimeUnit.SECONDS).values()) {
                for (TopicPartitionInfo p : d.partitions()) {
                    all &= p.leader() != null && p.isr().size() == p.replicas().size();
                }
            }
            if (all) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("partitions of " + topics + " without leader or full ISR");
            }
            Thread.sleep(300);
        }
    }

    KafkaProducer<String, String> producer(Map<String, String> extra) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "10");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, "4096");
        p.putAll(extra);
        return new KafkaProducer<>(p);
    }

    /**
     * The next record timestamp: 1 to 30 s after the previous one (some 600 records span 2 to 3
     * hours, all in the past: brokers refuse timestamps more than an hour ahead), and one in six
     * 10 to 40 minutes before it (out of order, so a partition's largest timestamp is not its last
     * record's).
     */
    private long nextTimestamp() {
        clock += 1_000 + random.nextInt(29_000);
        long t = random.nextInt(6) == 0 ? clock - 600_000 - random.nextInt(1_800_000) : clock;
        minTimestamp = Math.min(minTimestamp, t);
        maxTimestamp = Math.max(maxTimestamp, t);
        return t;
    }

    /** Two hours after the clock: still in the past (the clock starts six hours back). */
    private long futureDated() {
        long t = clock + TimeUnit.HOURS.toMillis(2);
        maxTimestamp = Math.max(maxTimestamp, t);
        return t;
    }

    private void produce(String topic, int partitions, int perPartition, Map<String, String> extra) throws Exception {
        try (KafkaProducer<String, String> p = producer(extra)) {
            for (int i = 0; i < perPartition; i++) {
                for (int q = 0; q < partitions; q++) {
                    // the middle record of each partition is dated two hours ahead (a producer
                    // with a skewed clock): the largest timestamp is then not the last record's
                    long ts = i == perPartition / 2 ? futureDated() : nextTimestamp();
                    p.send(new ProducerRecord<>(topic, q, ts, "k-" + q + "-" + i, Texts.value(random, i, 20, 200)));
                }
                if (i % 7 == 6) {
                    p.flush();
                }
            }
            p.flush();
        }
        count("records." + topic, partitions * perPartition);
        step("produced " + partitions * perPartition + " records to " + topic + " " + extra);
    }

    private void produceCompacted(int n) throws Exception {
        try (KafkaProducer<String, String> p = producer(Map.of())) {
            for (int i = 0; i < n; i++) {
                String key = "key-" + random.nextInt(12);
                String value = i % 9 == 8 ? null : Texts.value(random, i, 10, 80);
                p.send(new ProducerRecord<>(COMPACTED, 0, nextTimestamp(), key, value));
            }
            p.flush();
        }
        count("records." + COMPACTED, n);
        step("produced " + n + " keyed records (12 keys, tombstones) to " + COMPACTED);
    }

    private void transactions(int n) throws Exception {
        int committed = 0;
        int aborted = 0;
        try (KafkaProducer<String, String> p = producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, TXN_ID))) {
            p.initTransactions();
            for (int t = 0; t < n; t++) {
                p.beginTransaction();
                int records = 3 + random.nextInt(6);
                for (int i = 0; i < records; i++) {
                    p.send(new ProducerRecord<>(LEDGER, random.nextInt(3), nextTimestamp(), "entry-" + t + "-" + i,
                            Texts.value(random, i, 20, 100)));
                }
                p.flush();
                if (t % 3 == 1) {
                    p.abortTransaction();
                    aborted++;
                } else {
                    p.commitTransaction();
                    committed++;
                }
            }
        }
        count("transactions.committed", committed);
        count("transactions.aborted", aborted);
        step("transactional producer " + TXN_ID + ": " + committed + " committed, " + aborted + " aborted");
    }

    private KafkaConsumer<String, String> consumer(String group) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "lag-client");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        return new KafkaConsumer<>(p);
    }

    private Map<TopicPartition, Long> latest(Collection<TopicPartition> tps) throws Exception {
        Map<TopicPartition, OffsetSpec> req = new HashMap<>();
        for (TopicPartition tp : tps) {
            req.put(tp, OffsetSpec.latest());
        }
        Map<TopicPartition, Long> out = new TreeMap<>(java.util.Comparator.comparing(TopicPartition::toString));
        for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e
                : admin.listOffsets(req).all().get(60, TimeUnit.SECONDS).entrySet()) {
            out.put(e.getKey(), e.getValue().offset());
        }
        return out;
    }

    /**
     * Each of {@link #GROUPS} commits (assign + commitSync, no group metadata) an offset a random
     * distance behind the log end of some partitions, never before its previous commit.
     */
    private void commitBehind(int round) throws Exception {
        List<TopicPartition> candidates = new ArrayList<>();
        for (int q = 0; q < 3; q++) {
            candidates.add(new TopicPartition(ORDERS, q));
            candidates.add(new TopicPartition(LEDGER, q));
        }
        for (int q = 0; q < 2; q++) {
            candidates.add(new TopicPartition(EVENTS, q));
            candidates.add(new TopicPartition(AUDIT, q));
        }
        Map<TopicPartition, Long> ends = latest(candidates);
        for (String g : GROUPS) {
            List<TopicPartition> mine = new ArrayList<>(candidates);
            java.util.Collections.shuffle(mine, random);
            mine = mine.subList(0, 3 + random.nextInt(4));
            Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
            Map<TopicPartition, Long> prev = positions.computeIfAbsent(g, k -> new HashMap<>());
            for (TopicPartition tp : mine) {
                long end = ends.get(tp);
                long offset = Math.max(prev.getOrDefault(tp, 0L), end - random.nextInt((int) Math.min(end, 25) + 1));
                prev.put(tp, offset);
                m.put(tp, new OffsetAndMetadata(offset, "round " + round));
            }
            try (KafkaConsumer<String, String> c = consumer(g)) {
                c.commitSync(m, Duration.ofSeconds(60));
            }
            count("commitSync", 1);
        }
        step("groups " + GROUPS + " committed behind the log end (round " + round + ")");
    }

    private void commitGroup(String group, List<TopicPartition> tps) throws Exception {
        Map<TopicPartition, Long> ends = latest(tps);
        Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
        for (TopicPartition tp : tps) {
            m.put(tp, new OffsetAndMetadata(Math.max(0, ends.get(tp) - 3), ""));
        }
        try (KafkaConsumer<String, String> c = consumer(group)) {
            c.commitSync(m, Duration.ofSeconds(60));
        }
        count("commitSync", 1);
        step("group " + group + " committed on " + tps);
    }

    private TopicPartitionInfo partition(String topic, int partition) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(60, TimeUnit.SECONDS).get(topic)
                .partitions().get(partition);
    }

    private ListOffsetsResult.ListOffsetsResultInfo latestInfo(TopicPartition tp) throws Exception {
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp).get(60, TimeUnit.SECONDS);
    }

    private List<Integer> ids(List<Node> nodes) {
        List<Integer> out = new ArrayList<>();
        for (Node n : nodes) {
            out.add(n.id());
        }
        return out;
    }

    private void waitUntil(String what, java.util.concurrent.Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.call()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting until " + what);
            }
            Thread.sleep(500);
        }
    }

    /** Records to {@link #DIVERGED} with acks as given; returns the offsets they got. */
    private List<Long> produceDiverged(int n, String acks, String tag) throws Exception {
        List<Long> offsets = new ArrayList<>();
        try (KafkaProducer<String, String> p = producer(Map.of(ProducerConfig.ACKS_CONFIG, acks,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false", ProducerConfig.RETRIES_CONFIG, "3"))) {
            List<java.util.concurrent.Future<RecordMetadata>> fs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                fs.add(p.send(new ProducerRecord<>(DIVERGED, 0, nextTimestamp(), tag + "-" + i, Texts.value(random, i, 20, 60))));
                if (i % 5 == 4) {
                    p.flush();
                }
            }
            p.flush();
            for (java.util.concurrent.Future<RecordMetadata> f : fs) {
                offsets.add(f.get(60, TimeUnit.SECONDS).offset());
            }
        }
        count("records." + DIVERGED, n);
        return offsets;
    }

    /**
     * Phase 2: {@value #DIVERGED}-0 (replicas 3, 1; unclean leader election on) diverges. Both
     * replicas take the first records (acks=all); broker 1, the follower, is stopped (SIGTERM);
     * broker 3, the leader, takes records with acks=1 that broker 1 never gets, and is SIGKILLed;
     * broker 1 starts again and is elected leader uncleanly (Admin {@code electLeaders(UNCLEAN)}),
     * with a new leader epoch, and takes other records at the same offsets. Broker 3 is not started
     * again: its log dir keeps the records of the old epoch, and lags on every partition it holds.
     */
    void divergence() throws Exception {
        TopicPartition tp = new TopicPartition(DIVERGED, 0);
        List<Long> common = produceDiverged(20, "all", "both");
        int epochBefore = latestInfo(tp).leaderEpoch().orElse(-1);
        step("produced 20 records to " + tp + " with acks=all (leader 3, follower 1): offsets "
                + common.get(0) + ".." + common.get(common.size() - 1) + ", leader epoch " + epochBefore);

        int exit1 = cluster.broker(1).stopClean();
        waitUntil("broker 1 is out of the ISR of " + tp, () -> ids(partition(DIVERGED, 0).isr()).equals(List.of(3)));
        step("broker 1 stopped with SIGTERM (exit " + exit1 + "); ISR of " + tp + " is [3]");
        stopped("broker-1", "SIGTERM", exit1, "divergence: the follower of " + tp + " stopped; started again after broker 3's kill");

        List<Long> onlyOn3 = produceDiverged(15, "1", "only-on-3");
        Map<TopicPartition, Long> atKill = latest(allUserPartitions());
        step("produced 15 records to " + tp + " with acks=1 (only broker 3 has them): offsets "
                + onlyOn3.get(0) + ".." + onlyOn3.get(onlyOn3.size() - 1));

        int exit3 = cluster.broker(3).kill();
        long killedAt = System.currentTimeMillis();
        step("broker 3 SIGKILLed (exit " + exit3 + "); it is not started again");
        stopped("broker-3", "SIGKILL", exit3, "divergence: the leader of " + tp + " killed; never started again");

        cluster.broker(1).start();
        step("broker 1 started again");
        waitUntil("broker 1 is registered", () -> admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)
                .stream().anyMatch(n -> n.id() == 1));
        TopicPartitionInfo before = partition(DIVERGED, 0);
        String electionResult;
        if (before.leader() != null && before.leader().id() == 1) {
            electionResult = "already leader (the controller elected broker 1 uncleanly when it registered)";
        } else {
            Map<TopicPartition, java.util.Optional<Throwable>> r = admin.electLeaders(ElectionType.UNCLEAN, Set.of(tp))
                    .partitions().get(60, TimeUnit.SECONDS);
            electionResult = "electLeaders(UNCLEAN): " + r.get(tp).map(t -> t.getClass().getSimpleName()).orElse("ok");
        }
        waitUntil("broker 1 leads " + tp, () -> {
            Node leader = partition(DIVERGED, 0).leader();
            return leader != null && leader.id() == 1;
        });
        int epochAfter = latestInfo(tp).leaderEpoch().orElse(-1);
        step("broker 1 leads " + tp + " after an unclean election (" + electionResult + "), leader epoch " + epochAfter);

        List<Long> onlyOn1 = produceDiverged(12, "1", "only-on-1");
        step("produced 12 records to " + tp + " with acks=1 on broker 1: offsets "
                + onlyOn1.get(0) + ".." + onlyOn1.get(onlyOn1.size() - 1) + " (the offsets broker 3 holds other records at)");

        Map<String, Object> d = new LinkedHashMap<>();
        d.put("topicPartition", DIVERGED + "-0");
        d.put("replicas", List.of(3, 1));
        d.put("commonOffsets", List.of(common.get(0), common.get(common.size() - 1)));
        d.put("commonLeaderEpoch", epochBefore);
        d.put("broker3OnlyOffsets", List.of(onlyOn3.get(0), onlyOn3.get(onlyOn3.size() - 1)));
        d.put("broker3LeaderEpoch", epochBefore);
        d.put("broker1Offsets", List.of(onlyOn1.get(0), onlyOn1.get(onlyOn1.size() - 1)));
        d.put("broker1LeaderEpoch", epochAfter);
        d.put("divergesAtOffset", onlyOn3.get(0));
        d.put("election", electionResult);
        expected.put("divergence", d);
        Map<String, Object> lag = new LinkedHashMap<>();
        lag.put("broker", 3);
        lag.put("stop", "SIGKILL, exit " + exit3 + ", during the workload; never restarted");
        lag.put("killedAtMs", killedAt);
        Map<String, Long> hw = new TreeMap<>();
        atKill.forEach((p, o) -> hw.put(p.toString(), o));
        lag.put("highWatermarksJustBeforeTheKill", hw);
        expected.put(LAGGING_BROKER_FACT, lag);
        expected.put("followerRestarted", Map.of("broker", 1, "stop", "SIGTERM, exit " + exit1 + ", then started again"));
    }

    private List<TopicPartition> allUserPartitions() {
        List<TopicPartition> out = new ArrayList<>();
        for (int q = 0; q < 3; q++) {
            out.add(new TopicPartition(ORDERS, q));
            out.add(new TopicPartition(LEDGER, q));
        }
        for (int q = 0; q < 2; q++) {
            out.add(new TopicPartition(EVENTS, q));
            out.add(new TopicPartition(AUDIT, q));
        }
        out.add(new TopicPartition(COMPACTED, 0));
        out.add(new TopicPartition(DIVERGED, 0));
        out.add(new TopicPartition(SHORT_LIVED, 0));
        return out;
    }

    /**
     * Phase 3, brokers 1 and 2 only: more records and commits (broker 3's replicas fall behind),
     * a topic deleted under a group, the hanging transaction and the open one.
     */
    void afterDivergence() throws Exception {
        produce(ORDERS, 3, 15, Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd"));
        produce(EVENTS, 2, 10, Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
                ProducerConfig.ACKS_CONFIG, "1", ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"));
        produceCompacted(20);
        transactions(3);
        commitBehind(2);
        admin.deleteTopics(List.of(SHORT_LIVED)).all().get(60, TimeUnit.SECONDS);
        step("deleted topic " + SHORT_LIVED + " (group " + DELETED_TOPIC_GROUP + " had committed on it and on " + ORDERS + "-0)");
        hanging();
        openTransaction();
    }

    private void hanging() throws Exception {
        TopicPartitionInfo info = partition(LEDGER, 1);
        Broker leader = cluster.broker(info.leader().id());
        List<SimpleRecord> records = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            records.add(HangingTransaction.record(nextTimestamp(), "hanging-" + i, Texts.value(random, i, 20, 60)));
        }
        Map<String, Object> h = new HangingTransaction(leader.bootstrap()).append(LEDGER, 1, records);
        h.put("leader", info.leader().id());
        h.put("replicas", ids(info.replicas()));
        expected.put("hangingTransaction", h);
        count("transactions.hanging", 1);
        step("hanging transaction: producer id " + h.get("producerId") + " (from InitProducerId, no transactional id) appended a "
                + "transactional batch of 3 records to " + LEDGER + "-1 at offset " + h.get("baseOffset")
                + " with a raw Produce v11 request; no coordinator knows it");
    }

    private void openTransaction() throws Exception {
        KafkaProducer<String, String> p = producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, OPEN_TXN_ID,
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "900000"));
        liveClients.add(p);
        p.initTransactions();
        p.beginTransaction();
        Map<Integer, Long> first = new TreeMap<>();
        List<java.util.concurrent.Future<RecordMetadata>> fs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            int q = i % 2 == 0 ? 0 : 2;
            fs.add(p.send(new ProducerRecord<>(LEDGER, q, nextTimestamp(), "open-" + i, Texts.value(random, i, 20, 60))));
        }
        p.flush();
        for (java.util.concurrent.Future<RecordMetadata> f : fs) {
            RecordMetadata m = f.get(60, TimeUnit.SECONDS);
            first.merge(m.partition(), m.offset(), Math::min);
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("transactionalId", OPEN_TXN_ID);
        o.put("transactionTimeoutMs", 900000);
        Map<String, Long> starts = new TreeMap<>();
        first.forEach((q, off) -> starts.put(LEDGER + "-" + q, off));
        o.put("firstOffsets", starts);
        expected.put("openTransaction", o);
        count("transactions.open", 1);
        step("left transaction " + OPEN_TXN_ID + " open (8 records to " + LEDGER + "-0 and -2, no commit) through the snapshot and shutdown");
    }

    void closeClients() {
        for (AutoCloseable c : liveClients) {
            try {
                if (c instanceof KafkaProducer) {
                    ((KafkaProducer<?, ?>) c).close(Duration.ZERO);
                } else {
                    c.close();
                }
            } catch (Exception ignored) {
                // the brokers are gone
            }
        }
        liveClients.clear();
        admin.close(Duration.ofSeconds(5));
    }
}
