package io.segscope.format.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.verify.KilledMidWrite;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.coordinator.group.GroupCoordinatorShard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offsets replay of the killed run ({@value KilledMidWrite#NAME}) against Kafka's own code on
 * the same bytes: each {@code __consumer_offsets} partition dir (the killed broker's, and the copy
 * taken while the groups were committing) is opened by Kafka's {@code UnifiedLog} as after an
 * unclean shutdown, and what recovery left is loaded into a real group coordinator shard
 * ({@link KafkaShards#load}); segscope replays the committed files as they are.
 */
class KilledMidWriteReplayTest {

    /** Kafka's committed (or, with {@code pending}, pending transactional) offsets, as {@link KafkaCoordinatorOracleTest#text}. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> kafka(GroupCoordinatorShard shard, boolean pending) throws ReflectiveOperationException {
        Object om = KafkaCoordinatorOracleTest.offsetManager(shard);
        Map<String, String> out = new TreeMap<>();
        if (pending) {
            Map<Long, Object> byProducer = (Map<Long, Object>) field(om, "pendingTransactionalOffsets");
            for (Map.Entry<Long, Object> e : byProducer.entrySet()) {
                collect(e.getValue(), e.getKey() + "|", out);
            }
        } else {
            collect(field(om, "offsets"), "", out);
        }
        return out;
    }

    private static void collect(Object offsets, String prefix, Map<String, String> out) throws ReflectiveOperationException {
        for (Map.Entry<?, ?> g : ((Map<?, ?>) field(offsets, "offsetsByGroup")).entrySet()) {
            for (Map.Entry<?, ?> t : ((Map<?, ?>) g.getValue()).entrySet()) {
                for (Map.Entry<?, ?> p : ((Map<?, ?>) t.getValue()).entrySet()) {
                    out.put(prefix + g.getKey() + "|" + t.getKey() + "|" + p.getKey(),
                            KafkaCoordinatorOracleTest.kafkaText(p.getValue()));
                }
            }
        }
    }

    private static Object field(Object o, String name) throws ReflectiveOperationException {
        return KafkaCoordinatorOracleTest.field(o.getClass(), name).get(o);
    }

    private static List<Path> logs(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("\\d{20}\\.log")).sorted().toList();
        }
    }

    /** segscope's replay of {@code dir} and Kafka's load of {@code dir} after its recovery agree offset for offset; returns segscope's. */
    private static ReplayResult sameAsKafka(Path dir, Path tmp) throws Exception {
        ReplayResult r = OffsetsReplay.replay(OffsetsReplay.logFiles(dir), AsOf.END);
        assertThat(r.problems()).isEmpty();
        Path copy = KilledMidWrite.copyPartition(dir, tmp.resolve(dir.getFileName().toString()));
        KilledMidWrite.recover(copy);
        GroupCoordinatorShard shard = KafkaShards.load(new KafkaShards.Clock(new long[] {0}), logs(copy));
        assertThat(KafkaCoordinatorOracleTest.offsets(r)).isEqualTo(kafka(shard, false)).isNotEmpty();
        assertThat(KafkaCoordinatorOracleTest.pending(r)).isEqualTo(kafka(shard, true));
        return r;
    }

    @Test
    void killedLogDirReplaysAsKafkaLoadsIt(@TempDir Path tmp) throws Exception {
        ReplayResult r = sameAsKafka(KilledMidWrite.logDir().resolve(KilledMidWrite.offsetsDir()), tmp);
        // two simple groups on burst-0 and burst-side-0..3, the subscribed classic member's group on
        // its assignment (burst-side-0..3), the transactional group on burst-side-0 and -1
        assertThat(r.offsets()).hasSize(5 + 5 + 4 + 2);
        assertThat(r.pendingOffsets()).isEmpty();
    }

    /**
     * The copy of __consumer_offsets-2 was taken while the groups committed: Kafka's load of it
     * and segscope's replay agree, and both are behind what the broker had when it was killed:
     * one simple group and the transactional one committed again after the copy.
     */
    @Test
    void copiedWhileCommittingReplaysAsKafkaLoadsItAndIsBehindTheKill(@TempDir Path tmp) throws Exception {
        ReplayResult copied = sameAsKafka(KilledMidWrite.copied().resolve(KilledMidWrite.offsetsDir()), tmp.resolve("c"));
        ReplayResult killed = OffsetsReplay.replay(OffsetsReplay.logFiles(
                KilledMidWrite.logDir().resolve(KilledMidWrite.offsetsDir())), AsOf.END);
        Map<String, String> before = KafkaCoordinatorOracleTest.offsets(copied);
        Map<String, String> after = KafkaCoordinatorOracleTest.offsets(killed);
        assertThat(before.keySet()).isEqualTo(after.keySet());
        Map<String, Integer> moved = new TreeMap<>();
        for (String k : before.keySet()) {
            if (!before.get(k).equals(after.get(k))) {
                moved.merge(k.substring(0, k.indexOf('|')), 1, Integer::sum);
            }
        }
        assertThat(moved).isEqualTo(Map.of("burst-txn-group-1", 2, "burst-é,\"g\"-5", 5));
    }
}
