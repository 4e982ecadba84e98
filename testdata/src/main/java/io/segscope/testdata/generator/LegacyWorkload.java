package io.segscope.testdata.generator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What the legacy brokers are made to write, through Kafka 4.4.0's clients: four user topics
 * (one per legacy codec, {@code enable.idempotence=false} so that the broker may store magic 0
 * or 1), several consumer groups committing offsets with awkward metadata and group ids, a
 * simple (assign-only) group, a group that is deleted, and for IBP 2.3+ a static member. Returns
 * the Admin API's view of groups and committed offsets as JSON.
 */
final class LegacyWorkload {
    static final List<String> CODECS = List.of("none", "gzip", "snappy", "lz4");
    static final int PARTITIONS = 2;
    static final int RECORDS_PER_TOPIC = 200;

    static final String MAIN_GROUP = "legacy.orders-consumers";
    static final String QUOTED_GROUP = "gr\u00fcppe \"zitat\", komma";
    static final String SIMPLE_GROUP = "simple\ngroup (assign only)";
    static final String DELETED_GROUP = "legacy-deleted-group";
    static final String STATIC_GROUP = "\u65e5\u672c\u8a9e-static-group";

    private LegacyWorkload() {
    }

    static String topic(String codec) {
        return "legacy-" + codec;
    }

    static String run(String bootstrap, LegacyCorpusGenerator.Run run) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000))) {
            List<NewTopic> topics = new ArrayList<>();
            for (String codec : CODECS) {
                topics.add(new NewTopic(topic(codec), PARTITIONS, (short) 1)
                        .configs(Map.of("segment.bytes", "16384")));
            }
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);

            for (String codec : CODECS) {
                produce(bootstrap, codec);
            }

            List<String> allTopics = CODECS.stream().map(LegacyWorkload::topic).toList();
            consumeAndCommit(bootstrap, MAIN_GROUP, null, allTopics, 12);
            consumeAndCommit(bootstrap, QUOTED_GROUP, null, List.of(topic("gzip"), topic("lz4")), 3);
            consumeAndCommit(bootstrap, DELETED_GROUP, null, List.of(topic("none")), 2);
            if (run.staticMembers()) {
                consumeAndCommit(bootstrap, STATIC_GROUP, "static-instance-1", List.of(topic("snappy")), 2);
            }
            simpleCommits(bootstrap);
            admin.deleteConsumerGroups(List.of(DELETED_GROUP)).all().get(60, TimeUnit.SECONDS);

            return adminJson(admin);
        }
    }

    /** 120 records per topic, flushed every 20 so that there are several wrappers/batches. */
    static void produce(String bootstrap, String codec) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec);
        p.put(ProducerConfig.LINGER_MS_CONFIG, "50");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, "131072");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, "1048576");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        // Larger than one compression block of the codec: 32 KiB snappy, 64 KiB lz4.
        int large = switch (codec) {
            case "lz4" -> 70 * 1024;
            case "snappy" -> 40 * 1024;
            default -> 8 * 1024;
        };
        String topic = topic(codec);
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int i = 0; i < RECORDS_PER_TOPIC; i++) {
                byte[] key = i % 10 == 3 ? null : bytes("key-" + (i % 25));
                byte[] value;
                if (i % 17 == 5) {
                    value = null;
                } else if (i % 19 == 7) {
                    value = new byte[0];
                } else if (i == 50) {
                    value = largeText(large);
                } else {
                    value = bytes(codec + " value " + i + ", \"quoted\" \u00fc\u6f22\u5b57 "
                            + new String(SyntheticBatches.filler(i, 80), StandardCharsets.US_ASCII));
                }
                sent.add(producer.send(new ProducerRecord<>(topic, i % PARTITIONS, key, value)));
                if (i % 20 == 19) {
                    producer.flush();
                }
            }
            producer.flush();
        }
        for (Future<RecordMetadata> f : sent) {
            f.get(); // a failed send fails the run
        }
    }

    /**
     * A value larger than one compression block that still compresses well, so that its wrapper
     * fits in a 16 KiB segment (a broker refuses a batch larger than {@code segment.bytes}).
     */
    static byte[] largeText(int length) {
        StringBuilder sb = new StringBuilder(length + 80);
        for (int line = 0; sb.length() < length; line++) {
            sb.append(String.format("large value line %05d: the quick brown fox jumps over the lazy dog%n", line));
        }
        return bytes(sb.substring(0, length));
    }

    /**
     * Metadata with commas, quotes, a newline and non-ASCII, padded with about 700 pseudo-random
     * letters (different per partition) so that it does not compress away and the 16 KiB offsets
     * segments roll.
     */
    static String metadata(String group, int round, TopicPartition tp) {
        long seed = 31L * (31L * round + group.hashCode()) + tp.hashCode();
        return "round " + round + ", group \"" + group + "\"\nline 2: \u00e9\u00e8 \u2603 \u6f22\u5b57, "
                + new String(SyntheticBatches.filler(seed, 700), StandardCharsets.US_ASCII);
    }

    /**
     * A subscribing consumer reads everything, committing after each poll, then commits
     * {@code rounds} more times with new metadata, then leaves (an empty-group record follows).
     */
    static void consumeAndCommit(String bootstrap, String group, String instanceId, List<String> topics, int rounds) {
        Properties p = consumerProps(bootstrap, group);
        if (instanceId != null) {
            p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
        }
        int expected = topics.size() * RECORDS_PER_TOPIC;
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            c.subscribe(topics);
            Map<TopicPartition, Long> next = new HashMap<>();
            int seen = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            int round = 0;
            while (seen < expected && System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> recs = c.poll(Duration.ofMillis(500));
                for (ConsumerRecord<byte[], byte[]> r : recs) {
                    next.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
                    seen++;
                }
                if (!recs.isEmpty()) {
                    c.commitSync(withMetadata(next, group, round++));
                }
            }
            if (seen < expected) {
                throw new IllegalStateException(group + " read " + seen + " of " + expected + " records");
            }
            for (int i = 0; i < rounds; i++) {
                c.commitSync(withMetadata(next, group, round++));
            }
        }
    }

    /** A group that only assigns partitions and commits: offsets but no group metadata record. */
    static void simpleCommits(String bootstrap) {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProps(bootstrap, SIMPLE_GROUP))) {
            Map<TopicPartition, OffsetAndMetadata> m = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
            m.put(new TopicPartition(topic("snappy"), 0), new OffsetAndMetadata(7, ""));
            m.put(new TopicPartition(topic("snappy"), 1), new OffsetAndMetadata(9, Optional.of(0), "assign-only, \"no\" group\n\u00e0"));
            c.assign(m.keySet());
            c.commitSync(m);
            m.put(new TopicPartition(topic("snappy"), 0), new OffsetAndMetadata(11, "second commit"));
            c.commitSync(m);
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> withMetadata(Map<TopicPartition, Long> next, String group, int round) {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        next.forEach((tp, off) -> out.put(tp, new OffsetAndMetadata(off, metadata(group, round, tp))));
        return out;
    }

    private static Properties consumerProps(String bootstrap, String group) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "legacy-corpus-" + Math.abs(group.hashCode() % 1000));
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return p;
    }

    /** {@code {"groups":[{groupId, simple, state, offsets:[{topic, partition, offset, leaderEpoch, metadata}]}]}}. */
    static String adminJson(Admin admin) throws Exception {
        Collection<ConsumerGroupListing> listings = admin.listConsumerGroups().all().get(60, TimeUnit.SECONDS);
        List<ConsumerGroupListing> sorted = new ArrayList<>(listings);
        sorted.sort(Comparator.comparing(ConsumerGroupListing::groupId));
        StringBuilder sb = new StringBuilder("{\n  \"groups\": [");
        for (int g = 0; g < sorted.size(); g++) {
            ConsumerGroupListing l = sorted.get(g);
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(l.groupId())
                    .partitionsToOffsetAndMetadata().get(60, TimeUnit.SECONDS);
            List<TopicPartition> tps = new ArrayList<>(offsets.keySet());
            tps.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
            sb.append(g == 0 ? "\n" : ",\n");
            sb.append("    {\"groupId\": ").append(json(l.groupId()))
                    .append(", \"simple\": ").append(l.isSimpleConsumerGroup())
                    .append(", \"state\": ").append(json(l.groupState().map(Object::toString).orElse(null)))
                    .append(", \"type\": ").append(json(l.type().map(Object::toString).orElse(null)))
                    .append(", \"offsets\": [");
            for (int i = 0; i < tps.size(); i++) {
                TopicPartition tp = tps.get(i);
                OffsetAndMetadata om = offsets.get(tp);
                sb.append(i == 0 ? "\n" : ",\n");
                sb.append("      {\"topic\": ").append(json(tp.topic()))
                        .append(", \"partition\": ").append(tp.partition());
                if (om == null) {
                    sb.append(", \"offset\": null}");
                    continue;
                }
                sb.append(", \"offset\": ").append(om.offset())
                        .append(", \"leaderEpoch\": ").append(om.leaderEpoch().map(String::valueOf).orElse("null"))
                        .append(", \"metadata\": ").append(json(om.metadata())).append('}');
            }
            sb.append(tps.isEmpty() ? "]}" : "\n    ]}");
        }
        sb.append(sorted.isEmpty() ? "]\n}\n" : "\n  ]\n}\n");
        return sb.toString();
    }

    static String json(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
