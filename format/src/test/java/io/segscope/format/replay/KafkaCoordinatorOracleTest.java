package io.segscope.format.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.testkit.Tries;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.coordinator.common.runtime.Deserializer.UnknownRecordTypeException;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.requests.TransactionResult;
import org.apache.kafka.common.utils.internals.LogContext;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.coordinator.group.GroupCoordinatorShard;
import org.apache.kafka.timeline.SnapshotRegistry;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka 4.4.0's own group coordinator as the oracle: random {@code __consumer_offsets} logs
 * ({@link RandomOffsetsLog}, built with Kafka's generated record classes) are replayed record by
 * record into a real {@link GroupCoordinatorShard} ({@code replay(offset, producerId, epoch,
 * record)} and {@code replayEndTransactionMarker}, as {@code CoordinatorLoaderImpl} does, records
 * deserialized by Kafka's {@link GroupCoordinatorRecordSerde}) and by segscope's
 * {@link OffsetsReplay} from the written segment; committed and pending offsets (every field and
 * the record offset), group ids, types and states must be equal. Where Kafka's replay throws (the
 * load would fail), segscope must report a problem at that offset, and both states are compared
 * just before it.
 */
class KafkaCoordinatorOracleTest {
    static final int TRIES = 400;

    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> sameOffsetsAndGroupsAsKafkasCoordinator() {
        return Tries.of(0x5e65c09eL, TRIES, gen -> {
            RandomOffsetsLog log = new RandomOffsetsLog(gen);
            Path dir = Files.createTempDirectory(tmp, "t");
            long[] clock = {0};
            GroupCoordinatorShard shard = newShard(clock);
            GroupCoordinatorRecordSerde serde = new GroupCoordinatorRecordSerde();
            int failedAt = -1;
            for (RandomOffsetsLog.Event e : log.events) {
                try {
                    if (e.marker() != null) {
                        shard.replayEndTransactionMarker(e.producerId(), (short) 0,
                                e.marker() == org.apache.kafka.common.record.internal.ControlRecordType.COMMIT
                                        ? TransactionResult.COMMIT : TransactionResult.ABORT);
                        continue;
                    }
                    CoordinatorRecord rec;
                    try {
                        rec = serde.deserialize(ByteBuffer.wrap(e.key()), e.value() == null ? null : ByteBuffer.wrap(e.value()));
                    } catch (UnknownRecordTypeException skipped) {
                        continue; // CoordinatorLoaderImpl: WARN and skip
                    }
                    shard.replay(e.offset(), e.producerId(), (short) 0, rec);
                } catch (IllegalStateException failed) {
                    failedAt = (int) e.offset();
                    break;
                }
            }
            List<io.segscope.format.logdir.LogFile> files = log.write(dir, log.events.size());
            ReplayResult full = OffsetsReplay.replay(files, AsOf.END);
            ReplayResult ours = full;
            if (failedAt >= 0) {
                long at = failedAt;
                assertThat(full.problems()).as("Kafka's load fails at offset %d", at)
                        .anyMatch(p -> p.baseOffset() == at);
                ours = OffsetsReplay.replay(files, AsOf.endOffset(at));
                // Kafka's shard threw at the record: its state is the state before it (the checks come first)
            } else {
                assertThat(full.problems()).isEmpty();
            }
            assertThat(offsets(ours)).isEqualTo(kafkaOffsets(shard));
            assertThat(pending(ours)).isEqualTo(kafkaPending(shard));
            assertThat(groups(ours)).isEqualTo(kafkaGroups(shard));
            // on several threads (groups in shards) too
            ReplayResult sharded = OffsetsReplay.replay(files, failedAt >= 0 ? AsOf.endOffset(failedAt) : AsOf.END, 3);
            assertThat(offsets(sharded)).isEqualTo(kafkaOffsets(shard));
            assertThat(pending(sharded)).isEqualTo(kafkaPending(shard));
            assertThat(groups(sharded)).isEqualTo(kafkaGroups(shard));

            // offset expiration: Kafka's cleanupExpiredOffsets per group at a "now" near the retention boundary
            long now = log.events.isEmpty() ? 0 : log.events.get(log.events.size() - 1).timestamp()
                    + ReplayResult.DEFAULT_RETENTION_MS + gen.intBetween(-600_000, 600_000);
            clock[0] = now;
            java.util.Set<String> expected = new java.util.TreeSet<>();
            Object om = offsetManager(shard);
            Method cleanup = om.getClass().getMethod("cleanupExpiredOffsets", String.class, List.class);
            for (String g : kafkaGroups(shard).keySet()) {
                List<CoordinatorRecord> records = new ArrayList<>();
                cleanup.invoke(om, g, records);
                for (CoordinatorRecord rec : records) {
                    org.apache.kafka.coordinator.group.generated.OffsetCommitKey k =
                            (org.apache.kafka.coordinator.group.generated.OffsetCommitKey) rec.key();
                    expected.add(k.group() + "|" + k.topic() + "|" + k.partition());
                }
            }
            java.util.Set<String> actual = new java.util.TreeSet<>();
            for (ExpiredOffset x : ours.expiredOffsets(ReplayResult.DEFAULT_RETENTION_MS, now)) {
                actual.add(x.offset().group() + "|" + x.offset().topic() + "|" + x.offset().partition());
            }
            assertThat(actual).as("expired at %d", now).isEqualTo(expected);
        });
    }

    /** A clock the test sets. */
    static GroupCoordinatorShard newShard(long[] clock) {
        LogContext lc = new LogContext();
        return KafkaShards.newShard(new KafkaShards.Clock(clock), lc, new SnapshotRegistry(lc),
                new TopicPartition("__consumer_offsets", 7));
    }

    // ------------------------------------------------------------ segscope's side

    static Map<String, String> offsets(ReplayResult r) {
        Map<String, String> out = new TreeMap<>();
        for (CommittedOffset o : r.offsets()) {
            out.put(o.group() + "|" + o.topic() + "|" + o.partition(), text(o));
        }
        return out;
    }

    static String text(CommittedOffset o) {
        return o.offset() + " epoch " + o.leaderEpoch() + " md " + o.metadata() + " ts " + o.commitTimestamp()
                + " exp " + o.expireTimestamp() + " id " + (o.topicId() == null ? "-" : o.topicId().toString())
                + " rec " + o.source().logOffset();
    }

    static Map<String, String> pending(ReplayResult r) {
        Map<String, String> out = new TreeMap<>();
        for (CommittedOffset o : r.pendingOffsets()) {
            out.put(o.producerId() + "|" + o.group() + "|" + o.topic() + "|" + o.partition(), text(o));
        }
        return out;
    }

    static Map<String, String> groups(ReplayResult r) {
        Map<String, String> out = new TreeMap<>();
        r.groups().forEach((id, g) -> out.put(id, g.type().display().toLowerCase() + "/" + g.state()));
        return out;
    }

    // ------------------------------------------------------------ Kafka's side

    static Object offsetManager(GroupCoordinatorShard shard) throws ReflectiveOperationException {
        Field f = GroupCoordinatorShard.class.getDeclaredField("offsetMetadataManager");
        f.setAccessible(true);
        return f.get(shard);
    }

    static String kafkaText(Object oam) throws ReflectiveOperationException {
        Class<?> c = oam.getClass();
        long committed = (long) field(c, "committedOffset").get(oam);
        java.util.OptionalInt epoch = (java.util.OptionalInt) field(c, "leaderEpoch").get(oam);
        String md = (String) field(c, "metadata").get(oam);
        long ts = (long) field(c, "commitTimestampMs").get(oam);
        java.util.OptionalLong exp = (java.util.OptionalLong) field(c, "expireTimestampMs").get(oam);
        org.apache.kafka.common.Uuid id = (org.apache.kafka.common.Uuid) field(c, "topicId").get(oam);
        long rec = (long) field(c, "recordOffset").get(oam);
        return committed + " epoch " + epoch.orElse(-1) + " md " + md + " ts " + ts + " exp " + exp.orElse(-1)
                + " id " + (id.equals(org.apache.kafka.common.Uuid.ZERO_UUID) ? "-" : id.toString()) + " rec " + rec;
    }

    static Field field(Class<?> c, String name) throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    static Map<String, String> kafkaOffsets(GroupCoordinatorShard shard) throws ReflectiveOperationException {
        Object om = offsetManager(shard);
        Method offset = om.getClass().getDeclaredMethod("offset", String.class, String.class, int.class);
        offset.setAccessible(true);
        Map<String, String> out = new TreeMap<>();
        for (String g : RandomOffsetsLog.GROUPS) {
            for (String t : RandomOffsetsLog.TOPICS) {
                for (int p = 0; p < RandomOffsetsLog.PARTITIONS; p++) {
                    Object o = offset.invoke(om, g, t, p);
                    if (o != null) {
                        out.put(g + "|" + t + "|" + p, kafkaText(o));
                    }
                }
            }
        }
        return out;
    }

    static Map<String, String> kafkaPending(GroupCoordinatorShard shard) throws ReflectiveOperationException {
        Object om = offsetManager(shard);
        Method pending = om.getClass().getDeclaredMethod("pendingTransactionalOffset", long.class, String.class, String.class, int.class);
        pending.setAccessible(true);
        Map<String, String> out = new TreeMap<>();
        for (long pid : RandomOffsetsLog.PRODUCERS) {
            for (String g : RandomOffsetsLog.GROUPS) {
                for (String t : RandomOffsetsLog.TOPICS) {
                    for (int p = 0; p < RandomOffsetsLog.PARTITIONS; p++) {
                        Object o = pending.invoke(om, pid, g, t, p);
                        if (o != null) {
                            out.put(pid + "|" + g + "|" + t + "|" + p, kafkaText(o));
                        }
                    }
                }
            }
        }
        return out;
    }

    static Map<String, String> kafkaGroups(GroupCoordinatorShard shard) {
        Map<String, String> out = new TreeMap<>();
        for (ListGroupsResponseData.ListedGroup g : shard.listGroups(List.of(), List.of(), Long.MAX_VALUE)) {
            out.put(g.groupId(), g.groupType() + "/" + g.groupState());
        }
        return out;
    }

}
