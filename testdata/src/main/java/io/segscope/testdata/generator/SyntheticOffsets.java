package io.segscope.testdata.generator;

import static io.segscope.testdata.generator.SyntheticBatches.T0;
import static io.segscope.testdata.generator.SyntheticBatches.legacy;
import static io.segscope.testdata.generator.SyntheticBatches.v2;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.segscope.testdata.generator.SyntheticBatches.PartitionWriter;
import io.segscope.testdata.generator.SyntheticBatches.Rec;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue.MemberMetadata;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitValue;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;

/**
 * A synthetic {@code __consumer_offsets-0} holding the coordinator value versions no 4.x broker
 * writes (docs/format.md 2.2, 2.3): key type 0 with LegacyOffsetCommitValue v0, key type 1 with
 * OffsetCommitValue v0 to v3, GroupMetadataValue v0 to v3 (key type 2), and tombstones of a
 * deleted group and a deleted offset, inside magic 0, magic 1 and magic 2 batches. Keys and
 * values are serialized by Kafka 4.4.0's generated classes and {@code MessageUtil}; the
 * subscription and assignment bytes by {@code ConsumerProtocol} at matching old versions.
 *
 * <p>Every group id hashes to partition 0 of the default 50 (Kafka's {@code partitionFor}), so
 * the partition is one a broker could have written.
 */
final class SyntheticOffsets {
    static final int PARTITIONS = 50;

    private SyntheticOffsets() {
    }

    /** The first {@code base + "-" + i} (i = 0, 1, ...) that lands on partition 0. */
    static String groupOnPartition0(String base) {
        for (int i = 0; ; i++) {
            String g = base + "-" + i;
            int h = g.hashCode();
            int abs = h == Integer.MIN_VALUE ? 0 : Math.abs(h);
            if (abs % PARTITIONS == 0) {
                return g;
            }
        }
    }

    static void write(Path dir) throws IOException {
        String gA = groupOnPartition0("legacy-group");
        String gB = groupOnPartition0("gr\u00fcppe \"quoted\", with comma");
        String gC = groupOnPartition0("line\nbreak-group");
        String gD = groupOnPartition0("deleted-group");
        String meta = "meta, with \"quotes\"\nnew line \u00e9\u6f22\u5b57";
        List<Rec> r;
        try (PartitionWriter w = new PartitionWriter(dir)) {
            w.roll(0);
            // Magic 0, uncompressed: the 0.8.2/0.9 era.
            long o = 0;
            r = new ArrayList<>();
            r.add(rec(o++, NONE, legacyKey(gA, "orders", 0), value(0, new LegacyOffsetCommitValue()
                    .setOffset(42).setMetadata("").setCommitTimestamp(T0))));
            r.add(rec(o++, NONE, legacyKey(gA, "orders", 1), value(0, new LegacyOffsetCommitValue()
                    .setOffset(17).setMetadata(meta).setCommitTimestamp(T0 + 1))));
            r.add(rec(o++, NONE, key(gA, "orders", 0), value(0, commit(43, "", T0 + 2))));
            r.add(rec(o++, NONE, key(gA, "orders", 1), value(0, commit(18, meta, T0 + 3))));
            r.add(rec(o++, NONE, groupKey(gA), value(0, group(gA, 1, (short) 0, (short) 0, false))));
            w.append(legacy(RecordBatch.MAGIC_VALUE_V0, Compression.NONE, TimestampType.NO_TIMESTAMP_TYPE, NONE, r));

            // Magic 0, gzip wrapper.
            r = new ArrayList<>();
            r.add(rec(o++, NONE, key(gB, "payments", 0), value(0, commit(100, meta, T0 + 10))));
            r.add(rec(o++, NONE, key(gB, "payments", 1), value(0, commit(101, "", T0 + 11))));
            r.add(rec(o++, NONE, groupKey(gB), value(0, group(gB, 1, (short) 0, (short) 0, false))));
            w.append(legacy(RecordBatch.MAGIC_VALUE_V0, Compression.gzip().build(), TimestampType.NO_TIMESTAMP_TYPE, NONE, r));

            // Magic 1, snappy, CreateTime: v1 commits carry an expire timestamp; GroupMetadataValue v1.
            r = new ArrayList<>();
            r.add(rec(o++, T0 + 20, key(gA, "orders", 0), value(1, commit(50, "", T0 + 20).setExpireTimestamp(T0 + 86_400_020))));
            r.add(rec(o++, T0 + 21, key(gA, "orders", 1), value(1, commit(20, meta, T0 + 21).setExpireTimestamp(-1))));
            r.add(rec(o++, T0 + 22, groupKey(gA), value(1, group(gA, 2, (short) 0, (short) 1, false))));
            w.append(legacy(RecordBatch.MAGIC_VALUE_V1, Compression.snappy().build(), TimestampType.CREATE_TIME, NONE, r));

            // Magic 1, uncompressed, LogAppendTime: GroupMetadataValue v2 (currentStateTimestamp).
            r = new ArrayList<>();
            r.add(rec(o++, T0 + 30, key(gC, "line\nbreak-topic", 0), value(1, commit(7, meta, T0 + 30).setExpireTimestamp(T0 + 40))));
            r.add(rec(o++, T0 + 31, groupKey(gC), value(2, group(gC, 1, (short) 1, (short) 2, false))));
            w.append(legacy(RecordBatch.MAGIC_VALUE_V1, Compression.NONE, TimestampType.LOG_APPEND_TIME, T0 + 35, r));

            // Magic 1, lz4: OffsetCommitValue v2, GroupMetadataValue v2.
            r = new ArrayList<>();
            r.add(rec(o++, T0 + 40, key(gB, "payments", 0), value(2, commit(110, "", T0 + 40))));
            r.add(rec(o++, T0 + 41, key(gB, "payments", 1), value(2, commit(111, meta, T0 + 41))));
            r.add(rec(o++, T0 + 42, groupKey(gB), value(2, group(gB, 2, (short) 1, (short) 2, false))));
            w.append(legacy(RecordBatch.MAGIC_VALUE_V1, Compression.lz4().build(), TimestampType.CREATE_TIME, NONE, r));

            // Magic 2, uncompressed: v2 and v3 commits (leader epoch), GroupMetadataValue v3 with a static member.
            r = new ArrayList<>();
            r.add(rec(o++, T0 + 50, key(gA, "orders", 0), value(2, commit(60, "", T0 + 50))));
            r.add(rec(o++, T0 + 51, key(gA, "orders", 0), value(3, commit(61, meta, T0 + 51).setLeaderEpoch(5))));
            r.add(rec(o++, T0 + 52, key(gA, "orders", 1), value(3, commit(30, "", T0 + 52).setLeaderEpoch(-1))));
            r.add(rec(o++, T0 + 53, groupKey(gA), value(3, group(gA, 3, (short) 3, (short) 3, true))));
            w.append(v2().leaderEpoch(0).build(r));

            // Magic 2, gzip: a group that is then deleted (its empty-group record, then tombstones).
            r = new ArrayList<>();
            r.add(rec(o++, T0 + 60, key(gD, "orders", 0), value(3, commit(5, "", T0 + 60).setLeaderEpoch(0))));
            r.add(rec(o++, T0 + 61, groupKey(gD), value(3, new GroupMetadataValue().setProtocolType("consumer")
                    .setGeneration(2).setProtocol(null).setLeader(null).setCurrentStateTimestamp(T0 + 61)
                    .setMembers(List.of()))));
            w.append(v2().leaderEpoch(0).compression(Compression.gzip().build()).build(r));

            r = new ArrayList<>();
            r.add(rec(o++, T0 + 70, key(gD, "orders", 0), null));
            r.add(rec(o++, T0 + 70, groupKey(gD), null));
            r.add(rec(o++, T0 + 71, key(gA, "orders", 1), null));
            w.append(v2().leaderEpoch(0).build(r));
        }
    }

    private static final long NONE = RecordBatch.NO_TIMESTAMP;

    private static Rec rec(long offset, long timestamp, byte[] key, byte[] value) {
        return new Rec(offset, timestamp, key, value, new org.apache.kafka.common.header.Header[0]);
    }

    private static byte[] legacyKey(String group, String topic, int partition) {
        return MessageUtil.toCoordinatorTypePrefixedBytes(new LegacyOffsetCommitKey()
                .setGroup(group).setTopic(topic).setPartition(partition));
    }

    private static byte[] key(String group, String topic, int partition) {
        return MessageUtil.toCoordinatorTypePrefixedBytes(new OffsetCommitKey()
                .setGroup(group).setTopic(topic).setPartition(partition));
    }

    private static byte[] groupKey(String group) {
        return MessageUtil.toCoordinatorTypePrefixedBytes(new GroupMetadataKey().setGroup(group));
    }

    private static byte[] value(int version, ApiMessage m) {
        return MessageUtil.toVersionPrefixedBytes((short) version, m);
    }

    private static OffsetCommitValue commit(long offset, String metadata, long ts) {
        return new OffsetCommitValue().setOffset(offset).setMetadata(metadata).setCommitTimestamp(ts);
    }

    /**
     * A stable classic consumer group. {@code protocolVersion} is the ConsumerProtocol version of
     * the subscription and assignment bytes; with {@code staticMember} the second member has a
     * {@code groupInstanceId} (value v3 only).
     */
    private static GroupMetadataValue group(String groupId, int generation, short protocolVersion, short valueVersion,
                                            boolean staticMember) {
        List<MemberMetadata> members = new ArrayList<>();
        int count = staticMember ? 2 : 1;
        for (int m = 0; m < count; m++) {
            String memberId = "consumer-" + groupId.length() + "-" + (m + 1) + "-0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f" + m;
            List<TopicPartition> owned = protocolVersion >= 1 ? List.of(new TopicPartition("orders", m)) : List.of();
            ByteBuffer sub = ConsumerProtocol.serializeSubscription(new Subscription(List.of("orders", "payments"),
                    ByteBuffer.wrap(new byte[] {1, 2, 3}), owned, generation, Optional.ofNullable(m == 0 ? "rack-\u00e9" : null)),
                    protocolVersion);
            ByteBuffer asg = ConsumerProtocol.serializeAssignment(new Assignment(List.of(
                    new TopicPartition("orders", m), new TopicPartition("payments", m)), null), protocolVersion);
            members.add(new MemberMetadata()
                    .setMemberId(memberId)
                    .setGroupInstanceId(staticMember && m == 1 ? "static-instance-1" : null)
                    .setClientId("client-" + (m + 1))
                    .setClientHost("/127.0.0." + (m + 1))
                    .setRebalanceTimeout(300_000)
                    .setSessionTimeout(45_000)
                    .setSubscription(bytes(sub))
                    .setAssignment(bytes(asg)));
        }
        return new GroupMetadataValue()
                .setProtocolType("consumer")
                .setGeneration(generation)
                .setProtocol("range")
                .setLeader(members.get(0).memberId())
                .setCurrentStateTimestamp(valueVersion >= 2 ? T0 + generation * 1000L : -1)
                .setMembers(members);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
