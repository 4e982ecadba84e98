package io.segscope.testdata.generator;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListStreamsGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Drives one run's workload against a live broker: user topics with every codec, headers, null
 * keys and values, idempotent and transactional producers, and consumer groups of every kind
 * committing ordinary and hostile metadata. What it did is collected in {@link #report()}.
 *
 * <p>Live members (classic, consumer-protocol and share) stay open until {@link #closeClients()},
 * which the generator calls only after the broker is gone, so that the log and the Admin
 * snapshot see them as members.
 */
final class Workload {
    static final List<String> CODECS = List.of("none", "gzip", "snappy", "lz4", "zstd");
    static final String LOG_APPEND_TOPIC = "events-log-append-time";
    static final String COMPACTED_TOPIC = "compacted-state";
    static final String TXN_TOPIC = "txn-orders";
    static final String SHARE_TOPIC = "share-work";
    static final String STREAMS_OUT_TOPIC = "streams-out";
    static final String REGEX_GROUP = "regex-group,ü";
    static final String STREAMS_APP_ID = "streams app é";

    private static final Duration POLL = Duration.ofMillis(200);

    private final RunSpec spec;
    private final Broker broker;
    private final Path logDir;
    private final Random random;
    private final Admin admin;
    private final List<AutoCloseable> liveClients = new ArrayList<>();
    private final Map<String, Object> report = new LinkedHashMap<>();
    private final Map<String, Integer> counters = new TreeMap<>();
    private final List<String> steps = new ArrayList<>();
    /** Last committed offset per group and partition, so that repeated commits move forward. */
    private final Map<String, Map<TopicPartition, Long>> positions = new HashMap<>();
    private final List<TopicPartition> userPartitions = new ArrayList<>();
    private final int busyPartition;
    private final List<String> busyGroups = new ArrayList<>();
    /** Groups with two live members that must be Stable before the snapshot. */
    private final List<String> stableGroups = new ArrayList<>();
    /** Workload parts the broker's release cannot do, with the reason (run.json "skipped"). */
    private final Map<String, String> skipped = new LinkedHashMap<>();

    Workload(RunSpec spec, Broker broker, Path logDir) {
        this.spec = spec;
        this.broker = broker;
        this.logDir = logDir;
        this.random = new Random(spec.seed());
        this.admin = broker.admin();
        this.busyPartition = Texts.offsetsPartition("busy-é,\"q\"", spec.offsetsPartitions());
        for (int i = 0; i < 2; i++) {
            busyGroups.add(Texts.groupInPartition("busy-é,\"q\"-", busyPartition, spec.offsetsPartitions(), i));
        }
    }

    Admin admin() {
        return admin;
    }

    Path logDir() {
        return logDir;
    }

    RunSpec spec() {
        return spec;
    }

    Random random() {
        return random;
    }

    int busyPartition() {
        return busyPartition;
    }

    List<String> busyGroupIds() {
        return busyGroups;
    }

    /** Partitions a group has committed so far, in a stable order. */
    List<TopicPartition> committedPartitions(String group) {
        return new ArrayList<>(positions.get(group).keySet());
    }

    /** Adds a section to {@link #report()}. */
    void putReport(String key, Object value) {
        report.put(key, value);
    }

    Map<String, Object> report() {
        report.put("steps", steps);
        report.put("counts", counters);
        report.put("busyGroups", busyGroups);
        report.put("busyOffsetsPartition", busyPartition);
        report.put("skipped", skipped);
        return report;
    }

    /** Everything up to (not including) the Admin snapshot. */
    void run() throws Exception {
        createTopics();
        produceCodecTopics();
        produceLogAppendTime();
        produceCompacted(300);
        transactions();
        simpleGroups();
        busyGroups();
        adminAlterAndDelete();
        liveGroups("classic", "classic groups",
                List.of("classic-live,1", "classic live \"2\" ü", "classic-live-日本"), "classic-emptied-🚀");
        if (spec.consumerProtocolGroups()) {
            liveGroups("consumer", "consumer-protocol groups",
                    List.of("kip848-live,1", "kip848 live \"2\" é", "kip848-live-日本"), "kip848-emptied-🔥");
        } else {
            skipped.put("consumerProtocolGroups", "Kafka " + spec.kafkaVersion() + " has no consumer rebalance protocol (KIP-848, 3.9 on)");
            step("skipped consumer-protocol groups: Kafka " + spec.kafkaVersion() + " has none");
        }
        if (spec.regexAndStreamsGroups()) {
            regexGroup();
            streamsApp();
        }
        if (spec.shareGroups()) {
            shareGroup();
        } else {
            skipped.put("shareGroup", "Kafka " + spec.kafkaVersion() + " has no share groups (KIP-932 arrived in 4.0)");
            step("skipped share group: Kafka " + spec.kafkaVersion() + " has none");
        }
        if (spec.kind() == RunSpec.Kind.COMPRESSED) {
            // Last, so that no later append makes the cleaner run again past the phase-B horizon.
            report.put("cleaner", new CleanerPhase(this).run());
        }
        if (spec.kind() == RunSpec.Kind.CRASHED) {
            openTransaction();
        }
        waitForStableGroups();
    }

    void step(String s) {
        steps.add(s);
        System.out.println("[" + spec.name() + "] " + s);
    }

    void count(String key, int n) {
        counters.merge(key, n, Integer::sum);
    }

    // ---------------------------------------------------------------- topics and producers

    private void createTopics() throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        for (String codec : CODECS) {
            topics.add(new NewTopic("codec-" + codec, 2, (short) 1));
        }
        topics.add(new NewTopic(LOG_APPEND_TOPIC, 2, (short) 1)
                .configs(Map.of("message.timestamp.type", "LogAppendTime")));
        Map<String, String> compacted = new HashMap<>();
        compacted.put("cleanup.policy", "compact");
        compacted.put("min.cleanable.dirty.ratio", "0.01");
        topics.add(new NewTopic(COMPACTED_TOPIC, 1, (short) 1).configs(compacted));
        topics.add(new NewTopic(TXN_TOPIC, 2, (short) 1));
        if (spec.shareGroups()) {
            topics.add(new NewTopic(SHARE_TOPIC, 1, (short) 1));
        }
        if (spec.regexAndStreamsGroups()) {
            topics.add(new NewTopic(STREAMS_OUT_TOPIC, 2, (short) 1));
        }
        admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        for (NewTopic t : topics) {
            for (int p = 0; p < t.numPartitions(); p++) {
                userPartitions.add(new TopicPartition(t.name(), p));
            }
        }
        step("created " + topics.size() + " user topics");
    }

    KafkaProducer<String, String> producer(Map<String, Object> extra) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.putAll(extra);
        return new KafkaProducer<>(p);
    }

    private RecordHeaders headers(int i) {
        RecordHeaders h = new RecordHeaders();
        switch (i % 4) {
            case 0:
                h.add("trace-id", ("t-" + i).getBytes(StandardCharsets.UTF_8));
                break;
            case 1:
                h.add("trace-id", ("t-" + i).getBytes(StandardCharsets.UTF_8));
                h.add("null-value-header", null);
                break;
            case 2:
                h.add("ключ-日本語-🚀", "värde,\"x\"".getBytes(StandardCharsets.UTF_8));
                h.add("", new byte[0]);
                break;
            default:
                break;
        }
        return h;
    }

    private void produceCodecTopics() throws Exception {
        for (String codec : CODECS) {
            try (KafkaProducer<String, String> p = producer(Map.of(
                    ProducerConfig.COMPRESSION_TYPE_CONFIG, codec,
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                    ProducerConfig.CLIENT_ID_CONFIG, "producer-" + codec))) {
                int n = 80 + random.nextInt(40);
                for (int i = 0; i < n; i++) {
                    String key = random.nextInt(5) == 0 ? null : "key-" + (i % 17);
                    String value = random.nextInt(10) == 0 ? null : Texts.value(random, i, 40, 400);
                    p.send(new ProducerRecord<>("codec-" + codec, i % 2, null, key, value, headers(i)));
                    if (i % 25 == 24) {
                        p.flush();
                    }
                }
                p.flush();
                count("records.codec-" + codec, n);
            }
        }
        step("produced to codec-{none,gzip,snappy,lz4,zstd} with idempotent producers");
    }

    private void produceLogAppendTime() throws Exception {
        try (KafkaProducer<String, String> p = producer(Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, "gzip"))) {
            for (int i = 0; i < 60; i++) {
                // The producer's timestamp is replaced by the broker's append time.
                p.send(new ProducerRecord<>(LOG_APPEND_TOPIC, i % 2, 1_000_000_000_000L + i, "k" + i,
                        Texts.value(random, i, 20, 120), headers(i)));
            }
            p.flush();
        }
        count("records." + LOG_APPEND_TOPIC, 60);
        step("produced to " + LOG_APPEND_TOPIC);
    }

    private void produceCompacted(int n) throws Exception {
        try (KafkaProducer<String, String> p = producer(Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"))) {
            for (int i = 0; i < n; i++) {
                String value = random.nextInt(7) == 0 ? null : Texts.value(random, i, 20, 200);
                p.send(new ProducerRecord<>(COMPACTED_TOPIC, 0, null, "user-" + random.nextInt(25), value, headers(i)));
            }
            p.flush();
        }
        count("records." + COMPACTED_TOPIC, n);
        step("produced " + n + " keyed records (some tombstones) to " + COMPACTED_TOPIC);
    }

    private void transactions() throws Exception {
        List<String> groups = List.of("txn-group,é", "txn \"group\" 2");
        int committed = 0;
        int aborted = 0;
        try (KafkaProducer<String, String> p = producer(Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "txn-producer-ü-1",
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "snappy"))) {
            p.initTransactions();
            for (int t = 0; t < 8; t++) {
                p.beginTransaction();
                int n = 5 + random.nextInt(10);
                for (int i = 0; i < n; i++) {
                    p.send(new ProducerRecord<>(TXN_TOPIC, random.nextInt(2), null, "order-" + t + "-" + i,
                            Texts.value(random, i, 30, 150), headers(i)));
                }
                String group = groups.get(t % 2);
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                for (int q = 0; q < 2; q++) {
                    TopicPartition tp = new TopicPartition("codec-none", q);
                    offsets.put(tp, nextCommit(group, tp));
                }
                p.sendOffsetsToTransaction(offsets, new ConsumerGroupMetadata(group));
                boolean abort = t % 3 == 1;
                // Without a flush, abortTransaction may drop unsent batches, and a partition that
                // never got data gets no ABORT marker and no .txnindex entry.
                p.flush();
                if (abort) {
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
        step("transactional producer: " + committed + " committed, " + aborted
                + " aborted transactions with sendOffsetsToTransaction for " + groups);
    }

    /** Crashed run only: a transaction that is still open when the broker dies. */
    private void openTransaction() throws Exception {
        KafkaProducer<String, String> p = producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "txn-producer-open"));
        liveClients.add(p);
        p.initTransactions();
        p.beginTransaction();
        for (int i = 0; i < 10; i++) {
            p.send(new ProducerRecord<>(TXN_TOPIC, i % 2, null, "open-" + i, Texts.value(random, i, 30, 90)));
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = Map.of(new TopicPartition("codec-none", 0),
                nextCommit("txn-group-open", new TopicPartition("codec-none", 0)));
        p.sendOffsetsToTransaction(offsets, new ConsumerGroupMetadata("txn-group-open"));
        p.flush();
        count("transactions.open", 1);
        step("left a transaction open (records + sendOffsetsToTransaction, no commit)");
    }

    // ---------------------------------------------------------------- offset commits

    OffsetAndMetadata nextCommit(String group, TopicPartition tp) {
        return nextCommit(group, tp, Texts.metadata(random));
    }

    OffsetAndMetadata nextCommit(String group, TopicPartition tp, String metadata) {
        long offset = positions.computeIfAbsent(group, g -> new HashMap<>())
                .merge(tp, 1L + random.nextInt(20), Long::sum);
        Optional<Integer> epoch = random.nextBoolean() ? Optional.of(random.nextInt(3)) : Optional.empty();
        count(epoch.isPresent() ? "commits.withLeaderEpoch" : "commits.withoutLeaderEpoch", 1);
        return new OffsetAndMetadata(offset, epoch, metadata);
    }

    List<TopicPartition> randomPartitions(int n) {
        List<TopicPartition> all = new ArrayList<>();
        for (TopicPartition tp : userPartitions) {
            if (tp.topic().startsWith("codec-") || tp.topic().equals(TXN_TOPIC)) {
                all.add(tp);
            }
        }
        java.util.Collections.shuffle(all, random);
        return all.subList(0, n);
    }

    KafkaConsumer<String, String> consumer(String group, String protocol, String clientId) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        return new KafkaConsumer<>(p);
    }

    /** Groups that only assign() and commit: offset commits and no group metadata. */
    private void simpleGroups() {
        List<String> groups = new ArrayList<>(Texts.SIMPLE_GROUPS);
        groups.add("doomed-group-1 é");
        groups.add("doomed,group\"2\"");
        for (String group : groups) {
            try (KafkaConsumer<String, String> c = consumer(group, "classic", "simple-client")) {
                List<TopicPartition> tps = randomPartitions(2 + random.nextInt(3));
                c.assign(tps);
                int rounds = 2 + random.nextInt(4);
                for (int r = 0; r < rounds; r++) {
                    Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
                    for (TopicPartition tp : tps) {
                        m.put(tp, nextCommit(group, tp));
                    }
                    c.commitSync(m, Duration.ofSeconds(60));
                    count("commitSync.simple", 1);
                }
            }
        }
        step("simple groups (assign + commitSync): " + groups.size());
    }

    /** Two groups in one offsets partition, committing ~2 KB metadata until it spans several segments. */
    private void busyGroups() {
        for (String group : busyGroups) {
            try (KafkaConsumer<String, String> c = consumer(group, "classic", "busy-client")) {
                List<TopicPartition> tps = randomPartitions(4);
                c.assign(tps);
                for (int r = 0; r < spec.busyRounds(); r++) {
                    Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
                    for (TopicPartition tp : tps) {
                        String meta = r % 10 == 9 ? Texts.hostile(random) : Texts.longMetadata(random, 2000);
                        m.put(tp, nextCommit(group, tp, meta));
                    }
                    c.commitSync(m, Duration.ofSeconds(60));
                    count("commitSync.busy", 1);
                }
            }
        }
        step("busy groups " + busyGroups + " -> __consumer_offsets-" + busyPartition + ", "
                + spec.busyRounds() + " rounds each");
    }

    /** Admin API: set offsets, delete some offsets, delete whole groups (tombstones). */
    private void adminAlterAndDelete() throws Exception {
        for (String group : List.of("simple group with spaces", "admin-only-group-ü")) {
            Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
            for (TopicPartition tp : randomPartitions(3)) {
                m.put(tp, nextCommit(group, tp));
            }
            admin.alterConsumerGroupOffsets(group, m).all().get(60, TimeUnit.SECONDS);
            count("admin.alterConsumerGroupOffsets", 1);
        }
        String victim = "simple,comma,group";
        Set<TopicPartition> some = Set.copyOf(new ArrayList<>(positions.get(victim).keySet()).subList(0, 1));
        admin.deleteConsumerGroupOffsets(victim, some).all().get(60, TimeUnit.SECONDS);
        count("admin.deleteConsumerGroupOffsets", 1);
        admin.deleteConsumerGroups(List.of("doomed-group-1 é", "doomed,group\"2\"")).all().get(60, TimeUnit.SECONDS);
        count("admin.deleteConsumerGroups", 2);
        step("admin: altered offsets of 2 groups, deleted " + some + " of '" + victim
                + "', deleted groups 'doomed-group-1 é' and 'doomed,group\"2\"'");
    }

    /** The cleaner's checkpoint ({@code cleaner-offset-checkpoint}) by partition dir name. */
    Map<String, Long> cleanerOffsets() {
        return CleanerPhase.cleanerOffsets(logDir);
    }

    // ---------------------------------------------------------------- live groups

    /**
     * Groups of {@code protocol} whose members stay: each of {@code groups} with two members, then
     * {@code emptied} with one member that leaves.
     */
    private void liveGroups(String protocol, String what, List<String> groups, String emptied) throws Exception {
        for (String g : groups) {
            joinAndCommit(g, protocol, 2, true);
            stableGroups.add(g);
        }
        joinAndCommit(emptied, protocol, 1, false);
        step(what + " with live members: " + groups + ", emptied: " + emptied);
    }

    private void joinAndCommit(String group, String protocol, int members, boolean stayLive) throws Exception {
        joinAndCommit(group, protocol, members, stayLive, null);
    }

    /**
     * As above; with a {@code pattern}, the members subscribe to it instead of two topics. A
     * {@link SubscriptionPattern} is resolved by the broker (a {@code java.util.regex.Pattern}
     * would be matched in the client and sent as topic names).
     */
    private void joinAndCommit(String group, String protocol, int members, boolean stayLive,
                               SubscriptionPattern pattern)
            throws Exception {
        List<KafkaConsumer<String, String>> cs = new ArrayList<>();
        List<String> topics = List.of("codec-" + CODECS.get(random.nextInt(5)), TXN_TOPIC);
        for (int i = 0; i < members; i++) {
            KafkaConsumer<String, String> c = consumer(group, protocol, group.replaceAll("[^A-Za-z0-9-]", "_") + "-m" + i);
            if (pattern == null) {
                c.subscribe(topics);
            } else {
                c.subscribe(pattern);
            }
            cs.add(c);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            for (KafkaConsumer<String, String> c : cs) {
                c.poll(POLL);
            }
            if (allAssigned(cs) && stable(group, members)) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("group " + group + " did not stabilise in 120 s");
            }
        }
        for (int round = 0; round < 2; round++) {
            for (KafkaConsumer<String, String> c : cs) {
                Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
                for (TopicPartition tp : c.assignment()) {
                    m.put(tp, nextCommit(group, tp));
                }
                c.commitSync(m, Duration.ofSeconds(60));
                count("commitSync.member." + protocol, 1);
            }
        }
        if (stayLive) {
            liveClients.addAll(cs);
        } else {
            for (KafkaConsumer<String, String> c : cs) {
                c.close(Duration.ofSeconds(30));
            }
        }
    }

    private static boolean allAssigned(List<KafkaConsumer<String, String>> cs) {
        for (KafkaConsumer<String, String> c : cs) {
            if (c.assignment().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private boolean stable(String group, int members) throws Exception {
        ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group)
                .get(30, TimeUnit.SECONDS);
        return d.groupState() == GroupState.STABLE && d.members().size() == members;
    }

    /**
     * A consumer-protocol group whose two members subscribe with a regular expression: the
     * coordinator resolves it server side and keeps the result as a ConsumerGroupRegularExpression
     * record (key type 16). The members stay live.
     */
    private void regexGroup() throws Exception {
        SubscriptionPattern pattern = new SubscriptionPattern("codec-.*");
        joinAndCommit(REGEX_GROUP, "consumer", 2, true, pattern);
        stableGroups.add(REGEX_GROUP);
        step("consumer-protocol group '" + REGEX_GROUP + "' subscribed to /" + pattern + "/ with 2 live members");
    }

    /**
     * A Kafka Streams application on the streams rebalance protocol (KIP-1071): codec-none
     * upper-cased into streams-out. Waits until the streams group is Stable and has committed
     * offsets for every source partition; the application stays live.
     */
    private void streamsApp() throws Exception {
        String source = "codec-none";
        Path stateDir = logDir.toAbsolutePath().getParent().resolve("streams-state");
        StreamsApp app = StreamsApp.start(broker.bootstrap(), STREAMS_APP_ID, source, STREAMS_OUT_TOPIC, stateDir);
        liveClients.add(app);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            String state = app.state();
            if (state.equals("ERROR") || state.startsWith("PENDING_ERROR")) {
                throw new IllegalStateException("streams application failed: " + state);
            }
            if (state.equals("RUNNING") && streamsStable() && streamsCommitted(source)) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("streams group '" + STREAMS_APP_ID + "' did not commit in 120 s (state "
                        + state + ")");
            }
            Thread.sleep(500);
        }
        step("streams application '" + STREAMS_APP_ID + "' (group.protocol=streams): " + source + " -> "
                + STREAMS_OUT_TOPIC + ", Stable with committed offsets; stays live");
    }

    private boolean streamsStable() throws Exception {
        StreamsGroupDescription d;
        try {
            d = admin.describeStreamsGroups(List.of(STREAMS_APP_ID)).describedGroups().get(STREAMS_APP_ID)
                    .get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return false; // not created yet
        }
        return d.groupState() == GroupState.STABLE && d.members().size() == 1;
    }

    private boolean streamsCommitted(String source) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offs;
        try {
            offs = admin.listStreamsGroupOffsets(Map.of(STREAMS_APP_ID, new ListStreamsGroupOffsetsSpec()))
                    .partitionsToOffsetAndMetadata(STREAMS_APP_ID).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return false;
        }
        for (int q = 0; q < 2; q++) {
            if (offs.get(new TopicPartition(source, q)) == null) {
                return false;
            }
        }
        return true;
    }

    private void shareGroup() throws Exception {
        String group = "share-group-ü,\"1\"";
        try (KafkaProducer<String, String> p = producer(Map.of())) {
            for (int i = 0; i < 30; i++) {
                p.send(new ProducerRecord<>(SHARE_TOPIC, 0, "job-" + i, Texts.value(random, i, 20, 80)));
            }
            p.flush();
        }
        ConfigResource res = new ConfigResource(ConfigResource.Type.GROUP, group);
        admin.incrementalAlterConfigs(Map.of(res, List.of(new AlterConfigOp(
                new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET))))
                .all().get(60, TimeUnit.SECONDS);
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "share-member");
        props.put("share.acknowledgement.mode", "explicit");
        KafkaShareConsumer<String, String> c = new KafkaShareConsumer<>(props, new StringDeserializer(), new StringDeserializer());
        liveClients.add(c);
        c.subscribe(List.of(SHARE_TOPIC));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        int accepted = 0;
        int released = 0;
        int rejected = 0;
        while (accepted + rejected < 20) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("share consumer got no records in 120 s");
            }
            ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(500));
            for (ConsumerRecord<String, String> r : records) {
                int k = (int) (r.offset() % 7);
                AcknowledgeType type = k == 3 ? AcknowledgeType.REJECT : k == 5 && released < 3 ? AcknowledgeType.RELEASE : AcknowledgeType.ACCEPT;
                c.acknowledge(r, type);
                if (type == AcknowledgeType.REJECT) {
                    rejected++;
                } else if (type == AcknowledgeType.RELEASE) {
                    released++;
                } else {
                    accepted++;
                }
            }
            if (!records.isEmpty()) {
                c.commitSync(Duration.ofSeconds(60));
            }
        }
        count("share.accepted", accepted);
        count("share.released", released);
        count("share.rejected", rejected);
        step("share group '" + group + "' acknowledged " + accepted + " accept, " + released + " release, "
                + rejected + " reject; member stays live");
    }

    private void waitForStableGroups() throws Exception {
        List<String> live = stableGroups;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            boolean all = true;
            for (String g : live) {
                all &= stable(g, 2);
            }
            if (all) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("live groups not all stable in 120 s");
            }
            Thread.sleep(500);
        }
    }

    /** Closes every live client with a short timeout; called after the broker has stopped. */
    void closeClients() {
        List<AutoCloseable> all = new ArrayList<>(liveClients);
        liveClients.clear();
        Thread t = new Thread(() -> {
            for (AutoCloseable c : all) {
                try {
                    if (c instanceof KafkaConsumer) {
                        ((KafkaConsumer<?, ?>) c).close(Duration.ZERO);
                    } else if (c instanceof KafkaShareConsumer) {
                        ((KafkaShareConsumer<?, ?>) c).close(Duration.ZERO);
                    } else if (c instanceof KafkaProducer) {
                        ((KafkaProducer<?, ?>) c).close(Duration.ZERO);
                    } else {
                        c.close();
                    }
                } catch (Exception ignored) {
                    // the broker is gone; nothing to tell it
                }
            }
        }, "close-clients");
        t.setDaemon(true);
        t.start();
        try {
            t.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        admin.close(Duration.ZERO);
    }
}
