package io.segscope.format.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.error.Violation;
import io.segscope.format.json.CoordinatorJson;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ConsumerProtocolAssignment;
import org.apache.kafka.common.message.ConsumerProtocolSubscription;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupPartitionMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupPartitionMetadataValue;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.apache.kafka.coordinator.transaction.generated.TransactionLogKey;
import org.apache.kafka.coordinator.transaction.generated.TransactionLogValue;
import org.junit.jupiter.api.Test;

/**
 * Decoder results on hand-built records, checked against real DumpLogSegments 4.4.0 lines quoted
 * in docs/format.md 2.9, and every kind of {@link Unknown}.
 */
public class CoordinatorRecordDecoderTest {
    private static final CoordinatorRecordDecoder OFFSETS = CoordinatorRecordDecoder.consumerOffsets();

    /** OffsetCommit key (39 bytes) and v4 value (49 bytes), byte by byte as docs/format.md 2.1/2.2 lays them out. */
    public static byte[][] realOffsetCommit(boolean extraTag) {
        ByteBuffer k = ByteBuffer.allocate(39);
        k.putShort((short) 1);
        putString16(k, "quote\"group");
        putString16(k, "weird_topic-name.1");
        k.putInt(0);
        ByteBuffer v = ByteBuffer.allocate(extraTag ? 49 + 5 : 49);
        v.putShort((short) 4).putLong(5).putInt(0);
        byte[] meta = "q\"meta\"".getBytes(StandardCharsets.UTF_8);
        v.put((byte) (meta.length + 1)).put(meta).putLong(1796002544333L);
        v.put((byte) (extraTag ? 2 : 1));
        Uuid id = Uuid.fromString("ovg8G8h6Sj2XwouCs2oc5Q");
        v.put((byte) 0).put((byte) 16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        if (extraTag) {
            v.put((byte) 5).put((byte) 3).put(new byte[] {1, 2, 3});
        }
        return new byte[][] {k.array(), v.array()};
    }

    private static void putString16(ByteBuffer b, String s) {
        byte[] u = s.getBytes(StandardCharsets.UTF_8);
        b.putShort((short) u.length).put(u);
    }

    @Test
    void offsetCommitPrintsAsRealDumpLogSegments() {
        byte[][] r = realOffsetCommit(false);
        Decoded d = (Decoded) OFFSETS.decode(r[0], r[1]);
        assertThat(CoordinatorJson.keyText(d))
                .isEqualTo("{\"type\":\"1\",\"data\":{\"group\":\"quote\\\"group\",\"topic\":\"weird_topic-name.1\",\"partition\":0}}");
        assertThat(CoordinatorJson.valueText(d)).isEqualTo("{\"version\":\"4\",\"data\":{\"offset\":5,\"leaderEpoch\":0,"
                + "\"metadata\":\"q\\\"meta\\\"\",\"commitTimestamp\":1796002544333,\"topicId\":\"ovg8G8h6Sj2XwouCs2oc5Q\"}}");
        assertThat(d.key().getString("group")).isEqualTo("quote\"group");
        assertThat(d.value().getLong("offset")).isEqualTo(5);
        assertThat(d.value().get("expireTimestamp")).isEqualTo(-1L);
    }

    @Test
    void unknownTaggedFieldsAreSkippedAndCounted() {
        byte[][] plain = realOffsetCommit(false);
        byte[][] r = realOffsetCommit(true);
        Decoded d = (Decoded) OFFSETS.decode(r[0], r[1]);
        assertThat(d.unknownTaggedFields()).isEqualTo(1);
        assertThat(d.value().unknownTaggedFields()).isEqualTo(1);
        assertThat(CoordinatorJson.valueText(d)).isEqualTo(CoordinatorJson.valueText((Decoded) OFFSETS.decode(plain[0], plain[1])));
        assertThat(KafkaOracle.dump(CoordinatorTopic.CONSUMER_OFFSETS, r[0], r[1])[1]).isEqualTo(CoordinatorJson.valueText(d));
    }

    @Test
    void tombstone() {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new GroupMetadataKey().setGroup("to-be-deleted"));
        CoordinatorResult r = OFFSETS.decode(key, null);
        assertThat(r).isInstanceOf(Decoded.class);
        assertThat(((Decoded) r).isTombstone()).isTrue();
        assertThat(CoordinatorJson.keyText((Decoded) r)).isEqualTo("{\"type\":\"2\",\"data\":{\"group\":\"to-be-deleted\"}}");
        assertThat(CoordinatorJson.valueText((Decoded) r)).isEqualTo("<DELETE>");
    }

    @Test
    void transactionLogPrintsStateNames() {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new TransactionLogKey().setTransactionalId("holdout-txn-producer"));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 1, new TransactionLogValue().setProducerId(5)
                .setPreviousProducerId(5).setProducerEpoch((short) 0).setTransactionTimeoutMs(60000)
                .setTransactionStatus((byte) 1)
                .setTransactionPartitions(List.of(new TransactionLogValue.PartitionsSchema()
                        .setTopic("__consumer_offsets").setPartitionIds(List.of(4))))
                .setTransactionLastUpdateTimestampMs(1796002547198L).setTransactionStartTimestampMs(1796002547198L)
                .setClientTransactionVersion((short) 2));
        CoordinatorResult r = CoordinatorRecordDecoder.transactionState().decode(key, value);
        assertThat(CoordinatorJson.keyText((Decoded) r)).isEqualTo("{\"type\":\"0\",\"data\":{\"transactionalId\":\"holdout-txn-producer\"}}");
        assertThat(CoordinatorJson.valueText((Decoded) r)).isEqualTo("{\"version\":\"1\",\"data\":{\"producerId\":5,"
                + "\"previousProducerId\":5,\"producerEpoch\":0,\"transactionTimeoutMs\":60000,\"transactionStatus\":\"Ongoing\","
                + "\"transactionPartitions\":[{\"topic\":\"__consumer_offsets\",\"partitionIds\":[4]}],"
                + "\"transactionLastUpdateTimestampMs\":1796002547198,\"transactionStartTimestampMs\":1796002547198,"
                + "\"clientTransactionVersion\":2}}");
        Decoded d = (Decoded) r;
        assertThat(d.value().get("NextProducerId")).isEqualTo(-1L);
        assertThat(d.value().get("NextProducerEpoch")).isEqualTo((short) -1);
    }

    @Test
    void consumerGroupMemberWithNullClassicMetadata() {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new ConsumerGroupMemberMetadataKey()
                .setGroupId("kip848-live").setMemberId("FhZ2ReFTT42FA0tIZrW9fA"));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 0, new ConsumerGroupMemberMetadataValue()
                .setInstanceId(null).setRackId(null).setServerAssignor(null).setClientId("kip848-member-2").setClientHost("/127.0.0.1").setSubscribedTopicNames(List.of("orders", "payments.v2"))
                .setSubscribedTopicRegex("").setRebalanceTimeoutMs(300000).setClassicMemberMetadata(null));
        CoordinatorResult r = OFFSETS.decode(key, value);
        assertThat(CoordinatorJson.valueText((Decoded) r)).isEqualTo("{\"version\":\"0\",\"data\":{\"instanceId\":null,\"rackId\":null,"
                + "\"clientId\":\"kip848-member-2\",\"clientHost\":\"/127.0.0.1\",\"subscribedTopicNames\":[\"orders\",\"payments.v2\"],"
                + "\"subscribedTopicRegex\":\"\",\"rebalanceTimeoutMs\":300000,\"serverAssignor\":null,\"classicMemberMetadata\":null}}");
    }

    @Test
    void classicConsumerGroupMembersShowDecodedProtocol() {
        byte[] sub = MessageUtil.toVersionPrefixedBytes((short) 3, new ConsumerProtocolSubscription().setTopics(List.of("weird_topic-name.1")));
        ConsumerProtocolAssignment.TopicPartitionCollection parts = new ConsumerProtocolAssignment.TopicPartitionCollection();
        parts.add(new ConsumerProtocolAssignment.TopicPartition().setTopic("weird_topic-name.1").setPartitions(List.of(0, 1)));
        byte[] asg = MessageUtil.toVersionPrefixedBytes((short) 3, new ConsumerProtocolAssignment().setAssignedPartitions(parts));
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new GroupMetadataKey().setGroup("g"));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 3, new GroupMetadataValue().setProtocolType("consumer")
                .setGeneration(1).setProtocol("range").setLeader("m").setCurrentStateTimestamp(1796002547636L)
                .setMembers(List.of(new GroupMetadataValue.MemberMetadata().setMemberId("m").setClientId("c").setClientHost("/h")
                        .setRebalanceTimeout(300000).setSessionTimeout(45000).setSubscription(sub).setAssignment(asg))));
        Decoded d = (Decoded) OFFSETS.decode(key, value);
        String text = CoordinatorJson.valueText(d);
        assertThat(text).contains("\"subscription\":{\"topics\":[\"weird_topic-name.1\"],\"userData\":null,\"ownedPartitions\":[],"
                + "\"generationId\":-1,\"rackId\":null},\"assignment\":{\"assignedPartitions\":[{\"topic\":\"weird_topic-name.1\","
                + "\"partitions\":[0,1]}],\"userData\":null}");
        assertThat(text).isEqualTo(KafkaOracle.dump(CoordinatorTopic.CONSUMER_OFFSETS, key, value)[1]);
        EmbeddedProtocol p = (EmbeddedProtocol) ((StructValue) ((List<?>) d.value().get("members")).get(0)).get("subscription");
        assertThat(p.version()).isEqualTo((short) 3);
        assertThat(p.raw().array()).isEqualTo(sub);

        byte[] empty = MessageUtil.toVersionPrefixedBytes((short) 3, new GroupMetadataValue().setProtocolType("")
                .setGeneration(0).setProtocol(null).setLeader(null).setCurrentStateTimestamp(1796002547636L));
        assertThat(CoordinatorJson.valueText((Decoded) OFFSETS.decode(key, empty))).isEqualTo("{\"version\":\"3\",\"data\":{"
                + "\"protocolType\":\"\",\"generation\":0,\"protocol\":null,\"leader\":null,\"currentStateTimestamp\":1796002547636,\"members\":[]}}");
    }

    @Test
    void removedTypes9And18DecodeWithTheirLastSchema() {
        // types 9 and 18 had the layout that type 4 still has
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new ConsumerGroupPartitionMetadataKey().setGroupId("old"));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 0, new ConsumerGroupPartitionMetadataValue().setTopics(List.of(
                new ConsumerGroupPartitionMetadataValue.TopicMetadata().setTopicId(Uuid.fromString("ovg8G8h6Sj2XwouCs2oc5Q"))
                        .setTopicName("orders").setNumPartitions(3))));
        String expected = CoordinatorJson.valueText((Decoded) OFFSETS.decode(key, value));
        for (short type : new short[] {9, 18}) {
            ByteBuffer.wrap(key).putShort(0, type);
            Decoded d = (Decoded) OFFSETS.decode(key, value);
            assertThat(d.schema().inKafka440()).isFalse();
            assertThat(d.key().getString("GroupId")).isEqualTo("old");
            assertThat(CoordinatorJson.valueText(d)).isEqualTo(expected);
        }
    }

    @Test
    void unknownResults() {
        byte[][] r = realOffsetCommit(false);

        Unknown missing = (Unknown) OFFSETS.decode(null, r[1]);
        assertThat(missing.reason()).isEqualTo(UnknownReason.MISSING_KEY);
        assertThat(missing.value().array()).isEqualTo(r[1]);

        Unknown shortKey = (Unknown) OFFSETS.decode(new byte[] {0}, r[1]);
        assertThat(shortKey.reason()).isEqualTo(UnknownReason.MALFORMED_KEY);
        assertThat(shortKey.recordType()).isEqualTo((short) -1);
        assertThat(shortKey.kafkaMessage()).isEqualTo("Could not read version from key's buffer.");

        byte[] type24 = r[0].clone();
        type24[1] = 24;
        Unknown newer = (Unknown) OFFSETS.decode(type24, r[1]);
        assertThat(newer.reason()).isEqualTo(UnknownReason.UNKNOWN_RECORD_TYPE);
        assertThat(newer.recordType()).isEqualTo((short) 24);
        assertThat(newer.key().array()).isEqualTo(type24);
        assertThat(newer.reason().violation()).isEqualTo(Violation.UNKNOWN_RECORD_TYPE);

        byte[] v5 = r[1].clone();
        v5[1] = 5;
        Unknown version = (Unknown) OFFSETS.decode(r[0], v5);
        assertThat(version.reason()).isEqualTo(UnknownReason.UNKNOWN_VALUE_VERSION);
        assertThat(version.valueVersion()).isEqualTo((short) 5);
        assertThat(version.decodedKey().getString("topic")).isEqualTo("weird_topic-name.1");
        assertThat(version.kafkaMessage()).isEqualTo("Found an unknown record version 5 for 1 type");
        assertThat(KafkaOracle.dump(CoordinatorTopic.CONSUMER_OFFSETS, r[0], v5)[0]).endsWith(" skipping. " + version.kafkaMessage());

        byte[] truncated = Arrays.copyOf(r[1], 20);
        Unknown malformed = (Unknown) OFFSETS.decode(r[0], truncated);
        assertThat(malformed.reason()).isEqualTo(UnknownReason.MALFORMED_VALUE);
        assertThat(malformed.valueVersion()).isEqualTo((short) 4);
        assertThat(malformed.field()).isEqualTo("OffsetCommitValue.metadata");
        assertThat(malformed.position()).isEqualTo(2 + 8 + 4 + 1); // after the length varint, 7 bytes needed, 5 left
        assertThat(malformed.detail()).isEqualTo("needs 7 bytes, 5 remain");
        assertThat(malformed.value().array()).isEqualTo(truncated);
        assertThat(malformed.toException("00000000000000000000.log", 4096, 17).getMessage())
                .startsWith("00000000000000000000.log position 4096: invalid-coordinator-value (baseOffset 17) field OffsetCommitValue.metadata");

        Unknown oneByteValue = (Unknown) OFFSETS.decode(r[0], new byte[] {4});
        assertThat(oneByteValue.reason()).isEqualTo(UnknownReason.MALFORMED_VALUE);
        assertThat(oneByteValue.kafkaMessage()).isEqualTo("Could not read version from value's buffer.");
    }

    @Test
    void trailingBytesAreReportedNotRejected() {
        byte[][] r = realOffsetCommit(false);
        byte[] longer = Arrays.copyOf(r[1], r[1].length + 3);
        Decoded d = (Decoded) OFFSETS.decode(r[0], longer);
        assertThat(d.valueTrailingBytes()).isEqualTo(3);
        assertThat(CoordinatorJson.valueText(d)).isEqualTo(KafkaOracle.dump(CoordinatorTopic.CONSUMER_OFFSETS, r[0], longer)[1]);
    }
}
