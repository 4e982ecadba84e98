package io.segscope.testdata.generator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * {@code testdata/corpus-zookeeper/kafka-3.9.1-zk}: a real Kafka 3.9.1 broker in ZooKeeper mode
 * (with the ZooKeeper 3.8.4 server of its own distribution, both child JVMs with the jars the
 * standalone {@code testdata/generator-3.9.1/pom.xml} resolves) writes its metadata into
 * ZooKeeper, while old consumers ({@link ZkWorkload}, part {@code kafka}) keep offsets under
 * {@code /consumers} and some of the same groups commit other offsets to
 * {@code __consumer_offsets} (Kafka 4.4.0's Admin API, as 0.8.2's dual commit would). The broker
 * stops cleanly first, then the tree is read back and ZooKeeper stops. Both the ZooKeeper data dir
 * ({@code data/}) and the broker's log dir ({@code logdir/}) are committed.
 */
final class ZkKafkaRun {
    static final String NAME = "kafka-3.9.1-zk";
    private static final Map<String, Integer> TOPICS = Map.of("orders", 3, "page.views", 2);

    private ZkKafkaRun() {
    }

    static void generate(ZkCorpusGenerator gen, Path root, Path work) throws Exception {
        long started = System.nanoTime();
        System.out.println("== " + NAME);
        Path scratch = work.resolve(NAME);
        Trees.deleteTree(scratch);
        Path data = Files.createDirectories(scratch.resolve("data"));
        Path logDir = Files.createDirectories(scratch.resolve("logdir"));
        Path out = Files.createDirectories(scratch.resolve("out"));
        String cp391 = LegacyCorpusGenerator.resolveKafka391(root, Files.createDirectories(work.resolve("kafka-3.9.1")));
        int zkPort = ChildJvms.freePort();
        int brokerPort = ChildJvms.freePort();
        Files.writeString(scratch.resolve("zookeeper.properties"), String.join("\n",
                "dataDir=" + data, "clientPort=" + zkPort, "clientPortAddress=127.0.0.1", "maxClientCnxns=0",
                "admin.enableServer=false", "4lw.commands.whitelist=", "tickTime=2000", ""));
        Files.writeString(scratch.resolve("server.properties"), String.join("\n",
                "broker.id=0",
                "listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
                "zookeeper.connect=127.0.0.1:" + zkPort,
                "zookeeper.session.timeout.ms=18000",
                "log.dirs=" + logDir,
                "num.partitions=1",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=3",
                "offsets.topic.segment.bytes=16384",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=false",
                "log.cleaner.enable=false",
                "log.segment.bytes=16384",
                "log.retention.hours=-1",
                "controlled.shutdown.enable=true",
                ""));
        Map<String, String> zkProps = new LinkedHashMap<>();
        zkProps.put("zookeeper.snapCount", "100");
        zkProps.put("zookeeper.preAllocSize", "4");
        zkProps.put("zookeeper.admin.enableServer", "false");
        List<String> zkCmd = new ArrayList<>(List.of(ChildJvms.javaBin(), "-Xmx192m",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=info"));
        zkProps.forEach((k, v) -> zkCmd.add("-D" + k + "=" + v));
        zkCmd.addAll(List.of("-cp", cp391, "org.apache.zookeeper.server.quorum.QuorumPeerMain",
                scratch.resolve("zookeeper.properties").toString()));
        Process zk = new ProcessBuilder(zkCmd).redirectErrorStream(true)
                .redirectOutput(scratch.resolve("zookeeper.out").toFile()).start();
        Runtime.getRuntime().addShutdownHook(new Thread(zk::destroyForcibly));
        Process broker = null;
        Process client = null;
        List<Map<String, Object>> dual = new ArrayList<>();
        try {
            LegacyCorpusGenerator.waitForPort(zkPort, 60, zk, scratch.resolve("zookeeper.out"));
            broker = LegacyCorpusGenerator.startJvm(cp391, "768m", "kafka.Kafka", scratch.resolve("server.properties"),
                    scratch.resolve("broker.out"));
            Process b = broker;
            Runtime.getRuntime().addShutdownHook(new Thread(b::destroyForcibly));
            LegacyCorpusGenerator.waitForPort(brokerPort, 120, broker, scratch.resolve("broker.out"));
            String bootstrap = "127.0.0.1:" + brokerPort;
            produce(bootstrap);

            Properties job = new Properties();
            job.setProperty("connect", "127.0.0.1:" + zkPort);
            job.setProperty("out", out.toString());
            job.setProperty("run", NAME);
            job.setProperty("seed", Integer.toString(ZkCorpusGenerator.SEED));
            job.setProperty("multi", "true");
            job.setProperty("serverVersion", "3.8.4");
            job.setProperty("part", "kafka");
            client = gen.startClient("3.4.6", scratch, job, "client.out");
            BufferedReader fromClient = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
            ZkCorpusGenerator.expectLine(fromClient, "ZK-WRITES-DONE", client, scratch);

            dual = commitKafkaSide(bootstrap, out.resolve("zk-offsets.tsv"));
            LegacyCorpusGenerator.stop(broker, "broker", 180);
            broker = null;
            try (Writer w = new OutputStreamWriter(client.getOutputStream(), StandardCharsets.UTF_8)) {
                w.write("READBACK\n");
                w.flush();
                ZkCorpusGenerator.expectLine(fromClient, "READBACK-DONE", client, scratch);
                LegacyCorpusGenerator.stop(zk, "zookeeper", 60);
            }
            client.waitFor(30, TimeUnit.SECONDS);
        } finally {
            if (client != null && client.isAlive()) {
                client.destroyForcibly();
            }
            if (broker != null) {
                broker.destroyForcibly();
            }
            if (zk.isAlive()) {
                zk.destroyForcibly();
            }
        }

        Path target = root.resolve("testdata/corpus-zookeeper").resolve(NAME);
        Trees.deleteTree(target);
        Trees.copyTree(data, target.resolve("data"));
        Trees.copyTree(logDir, target.resolve("logdir"));
        Files.copy(out.resolve("history.json"), target.resolve("history.json"));
        Files.copy(out.resolve("expected.json"), target.resolve("expected.json"));

        List<Map<String, Object>> files = new ArrayList<>();
        for (String f : ZkCorpusGenerator.listFiles(target.resolve("data"))) {
            Path file = target.resolve("data").resolve(f);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("path", "data/" + f);
            m.put("bytes", Files.size(file));
            m.put("sha256", ZkCorpusGenerator.sha256(file));
            files.add(m);
        }
        Map<String, Object> runJson = new LinkedHashMap<>();
        runJson.put("run", NAME);
        runJson.put("description", "a Kafka 3.9.1 broker in ZooKeeper mode writing its metadata, old consumers' offsets"
                + " under /consumers and the same groups' commits in __consumer_offsets (dual commit)");
        runJson.put("serverVersion", "3.8.4");
        runJson.put("clientVersion", "3.4.6");
        runJson.put("kafkaVersion", "3.9.1");
        Map<String, Object> phase = new LinkedHashMap<>();
        phase.put("serverVersion", "3.8.4");
        phase.put("ended", "clean");
        runJson.put("phases", List.of(phase));
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("snapCount", 100);
        settings.put("snapshotSizeFactor", null);
        settings.put("compression", "none");
        settings.put("digest", true);
        settings.put("preAllocSizeKb", 4);
        settings.put("dataLogDir", false);
        settings.put("tickTime", 2000);
        settings.put("sessionTimeoutMs", ZkWorkload.SESSION_TIMEOUT_MS);
        settings.put("systemProperties", zkProps);
        runJson.put("settings", settings);
        runJson.put("ended", "clean");
        runJson.put("lastAcknowledged", null);
        runJson.put("lastSent", null);
        runJson.put("purge", null);
        runJson.put("archive", null);
        runJson.put("logDir", "logdir");
        runJson.put("dualCommit", dual);
        runJson.put("files", files);
        runJson.put("seed", ZkCorpusGenerator.SEED);
        ZkJson.write(target.resolve("run.json"), runJson);
        System.out.printf("== %s done in %d s%n", NAME, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
    }

    /** 150 records into every partition of the two topics. */
    private static void produce(String bootstrap) throws Exception {
        Properties a = new Properties();
        a.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(a)) {
            List<NewTopic> topics = new ArrayList<>();
            TOPICS.forEach((t, n) -> topics.add(new NewTopic(t, n, (short) 1)));
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        }
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (Map.Entry<String, Integer> t : new TreeMap<>(TOPICS).entrySet()) {
                for (int part = 0; part < t.getValue(); part++) {
                    for (int i = 0; i < 150; i++) {
                        producer.send(new ProducerRecord<>(t.getKey(), part, null,
                                ("record " + i).getBytes(StandardCharsets.UTF_8)));
                    }
                }
            }
            producer.flush();
        }
    }

    /**
     * The Kafka side of the dual commit, from the ZooKeeper offsets the old consumers wrote:
     * {@code dual-commit-group} commits ahead on some partitions, behind on one, equal on one and
     * not at all on one; {@code migrated group} commits past where its ZooKeeper offsets stopped;
     * {@code kafka-only-group} commits to Kafka only; {@code zk-only-group} to ZooKeeper only.
     */
    private static List<Map<String, Object>> commitKafkaSide(String bootstrap, Path zkOffsets) throws Exception {
        Map<String, Map<TopicPartition, OffsetAndMetadata>> commits = new TreeMap<>();
        Map<String, Long> zk = new TreeMap<>();
        for (String line : Files.readAllLines(zkOffsets, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t");
            String key = f[0] + "\t" + f[1] + "\t" + f[2];
            long z = Long.parseLong(f[3]);
            zk.put(key, z);
            TopicPartition tp = new TopicPartition(f[1], Integer.parseInt(f[2]));
            Long kafka = switch (f[0]) {
                case "dual-commit-group" -> switch (f[1] + "/" + f[2]) {
                    case "orders/0" -> z + 25;
                    case "orders/1" -> z - 5;
                    case "orders/2" -> z;
                    case "page.views/0" -> z + 1;
                    default -> null;
                };
                case "migrated group" -> z + 60;
                default -> null;
            };
            if (kafka != null) {
                commits.computeIfAbsent(f[0], g -> new LinkedHashMap<>()).put(tp, new OffsetAndMetadata(kafka));
            }
        }
        Map<TopicPartition, OffsetAndMetadata> kafkaOnly = new LinkedHashMap<>();
        for (int p = 0; p < 3; p++) {
            kafkaOnly.put(new TopicPartition("orders", p), new OffsetAndMetadata(30 + p));
        }
        commits.put("kafka-only-group", kafkaOnly);
        Properties a = new Properties();
        a.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(a)) {
            for (Map.Entry<String, Map<TopicPartition, OffsetAndMetadata>> e : commits.entrySet()) {
                admin.alterConsumerGroupOffsets(e.getKey(), e.getValue()).all().get(60, TimeUnit.SECONDS);
            }
        }
        Map<String, Map<String, Object>> rows = new TreeMap<>();
        zk.forEach((key, z) -> rows.put(key, row(key, z, null)));
        commits.forEach((g, m) -> m.forEach((tp, o) -> {
            String key = g + "\t" + tp.topic() + "\t" + tp.partition();
            rows.computeIfAbsent(key, k -> row(k, null, null)).put("kafkaOffset", o.offset());
        }));
        return new ArrayList<>(rows.values());
    }

    private static Map<String, Object> row(String key, Long zk, Long kafka) {
        String[] f = key.split("\t");
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("group", f[0]);
        r.put("topic", f[1]);
        r.put("partition", Integer.parseInt(f[2]));
        r.put("zkOffset", zk);
        r.put("kafkaOffset", kafka);
        return r;
    }
}
