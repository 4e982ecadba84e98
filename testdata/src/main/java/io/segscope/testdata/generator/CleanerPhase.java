package io.segscope.testdata.generator;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The compressed run's last phase: makes Kafka's log cleaner compact the busy
 * {@code __consumer_offsets} partition while the test watches {@code cleaner-offset-checkpoint}.
 */
final class CleanerPhase {
    private final Workload w;
    private KafkaProducer<String, String> tickProducer;

    CleanerPhase(Workload w) {
        this.w = w;
    }

    /**
     * Keeps appending to the busy offsets partition (and the compacted user topic) so that
     * segments roll by time and Kafka's cleaner compacts them: phase-A tombstones first get a
     * delete horizon and, once it has passed, are removed; phase-B tombstones are cleaned once
     * and keep their horizon.
     */
    Map<String, Object> run() throws Exception {
        String partitionName = "__consumer_offsets-" + w.busyPartition();
        TopicPartition busy = new TopicPartition("__consumer_offsets", w.busyPartition());
        long retentionMs = Long.parseLong(w.spec().brokerOverrides().get("log.cleaner.delete.retention.ms"));
        tickProducer = w.producer(Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd"));
        Map<String, Object> cleaner = new LinkedHashMap<>();
        cleaner.put("partition", partitionName);
        try (KafkaConsumer<String, String> c = w.consumer(w.busyGroupIds().get(0), "classic", "ticker")) {
            List<TopicPartition> tps = w.committedPartitions(w.busyGroupIds().get(0)).subList(0, 2);
            c.assign(tps);
            cleaner.put("firstClean", tickUntil(c, tps, () -> cleanerOffset(partitionName) > 0, 240,
                    "first clean of " + partitionName));
            // Phase A: tombstones that get a delete horizon, then are removed once it has passed.
            String groupA = adminDeleteInBusyPartition(0);
            long endA = endOffset(busy);
            tickUntil(c, tps, () -> cleanerOffset(partitionName) > endA, 240, "clean past phase-A tombstones");
            long horizonA = System.currentTimeMillis() + retentionMs;
            tickUntil(c, tps, () -> System.currentTimeMillis() > horizonA + 3000, 240, "phase-A delete horizon");
            long afterHorizon = cleanerOffset(partitionName);
            tickUntil(c, tps, () -> cleanerOffset(partitionName) > afterHorizon, 240,
                    "a clean after the phase-A horizon (removes its tombstones)");
            // Phase B: tombstones cleaned once, so their batches keep a delete horizon.
            String groupB = adminDeleteInBusyPartition(1);
            long endB = endOffset(busy);
            tickUntil(c, tps, () -> cleanerOffset(partitionName) > endB
                    && cleanerOffset(Workload.COMPACTED_TOPIC + "-0") > 0, 240, "clean past phase-B tombstones");
            cleaner.put("phaseA", Map.of("deletedGroup", groupA, "endOffsetAfterDelete", endA));
            cleaner.put("phaseB", Map.of("deletedGroup", groupB, "endOffsetAfterDelete", endB));
            cleaner.put("finalCleanerOffset", cleanerOffset(partitionName));
            return cleaner;
        } finally {
            tickProducer.close(Duration.ofSeconds(30));
        }
    }

    /** Compressed run: a group in the busy partition commits and is deleted, plus one busy-group offset. */
    private String adminDeleteInBusyPartition(int which) throws Exception {
        String group = Texts.groupInPartition("doomed-late-", w.busyPartition(), w.spec().offsetsPartitions(), which);
        try (KafkaConsumer<String, String> c = w.consumer(group, "classic", "late-client")) {
            List<TopicPartition> tps = w.randomPartitions(3);
            c.assign(tps);
            Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
            for (TopicPartition tp : tps) {
                m.put(tp, w.nextCommit(group, tp));
            }
            c.commitSync(m, Duration.ofSeconds(60));
        }
        String busyGroup = w.busyGroupIds().get(1);
        TopicPartition tp = w.committedPartitions(busyGroup).get(which);
        w.admin().deleteConsumerGroupOffsets(busyGroup, Set.of(tp)).all().get(60, TimeUnit.SECONDS);
        w.admin().deleteConsumerGroups(List.of(group)).all().get(60, TimeUnit.SECONDS);
        w.count("w.admin().deleteConsumerGroupOffsets", 1);
        w.count("w.admin().deleteConsumerGroups", 1);
        w.step("admin: tombstones in __consumer_offsets-" + w.busyPartition() + ": deleted group '" + group
                + "' and " + tp + " of '" + busyGroup + "'");
        return group;
    }

    private long tickUntil(KafkaConsumer<String, String> c, List<TopicPartition> tps, BooleanSupplier done,
                           int timeoutSeconds, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        int ticks = 0;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + timeoutSeconds + " s waiting for " + what);
            }
            Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
            for (TopicPartition tp : tps) {
                m.put(tp, w.nextCommit(w.busyGroupIds().get(0), tp, Texts.longMetadata(w.random(), 600)));
            }
            c.commitSync(m, Duration.ofSeconds(60));
            String key = "user-" + w.random().nextInt(25);
            String value = w.random().nextInt(5) == 0 ? null : Texts.value(w.random(), ticks, 20, 100);
            tickProducer.send(new ProducerRecord<>(Workload.COMPACTED_TOPIC, 0, (Long) null, key, value));
            tickProducer.flush();
            w.count("commitSync.tick", 1);
            ticks++;
            Thread.sleep(500);
        }
        w.step("waited for " + what + " (" + ticks + " ticks), cleaner offset now " + cleanerOffsets(w.logDir()));
        return cleanerOffset("__consumer_offsets-" + w.busyPartition());
    }

    private long endOffset(TopicPartition tp) throws Exception {
        return w.admin().listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp)
                .get(60, TimeUnit.SECONDS).offset();
    }

    /** The cleaner's checkpoint for one partition dir name, or -1. */
    private long cleanerOffset(String partitionDir) {
        Long v = cleanerOffsets(w.logDir()).get(partitionDir);
        return v == null ? -1 : v;
    }

    static Map<String, Long> cleanerOffsets(Path logDir) {
        Map<String, Long> out = new TreeMap<>();
        Path f = logDir.resolve("cleaner-offset-checkpoint");
        try {
            if (!Files.exists(f)) {
                return out;
            }
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                String[] parts = line.trim().split(" ");
                if (parts.length == 3) {
                    out.put(parts[0] + "-" + parts[1], Long.parseLong(parts[2]));
                }
            }
        } catch (Exception e) {
            // The broker rewrites the file by rename; try again on the next poll.
        }
        return out;
    }
}
