package io.segscope.format.coordinator.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.StructValue;
import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.KafkaUuid;
import io.segscope.format.json.MetadataJson;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import org.apache.kafka.common.message.LeaderChangeMessage;
import org.apache.kafka.common.metadata.PartitionRecord;
import org.apache.kafka.common.metadata.TopicRecord;
import org.junit.jupiter.api.Test;

/** Worked examples of the metadata and control value decoders, each checked against Kafka's own output. */
class MetadataRecordDecoderTest {
    private static final org.apache.kafka.common.Uuid TOPIC_ID = new org.apache.kafka.common.Uuid(0x0123456789abcdefL, 0x1122334455667788L);

    @Test
    void partitionRecordFieldsAndText() {
        PartitionRecord p = new PartitionRecord().setPartitionId(3).setTopicId(TOPIC_ID).setReplicas(List.of(1, 2))
                .setIsr(List.of(1)).setLeader(1).setLeaderEpoch(7).setPartitionEpoch(9)
                .setDirectories(List.of(org.apache.kafka.common.Uuid.ZERO_UUID, TOPIC_ID)).setEligibleLeaderReplicas(List.of(2));
        byte[] value = MetadataOracle.frame(p, (short) 2);

        MetadataDecoded d = (MetadataDecoded) MetadataRecordDecoder.decode(value);
        assertThat(d.typeName()).isEqualTo("PARTITION_RECORD");
        assertThat(d.version()).isEqualTo((short) 2);
        StructValue v = d.value();
        assertThat(v.getInt("PartitionId")).isEqualTo(3);
        assertThat(v.get("TopicId")).isEqualTo(new KafkaUuid(0x0123456789abcdefL, 0x1122334455667788L));
        assertThat(v.get("Replicas")).isEqualTo(List.of(1, 2));
        assertThat(v.get("LeaderRecoveryState")).isEqualTo((byte) 0);
        assertThat(v.get("EligibleLeaderReplicas")).isEqualTo(List.of(2));
        assertThat(v.get("LastKnownElr")).isNull();
        String text = "{\"type\":\"PARTITION_RECORD\",\"version\":2,\"data\":{\"partitionId\":3,\"topicId\":\"ASNFZ4mrze8RIjNEVWZ3iA\","
                + "\"replicas\":[1,2],\"isr\":[1],\"removingReplicas\":[],\"addingReplicas\":[],\"leader\":1,\"leaderEpoch\":7,"
                + "\"partitionEpoch\":9,\"directories\":[\"AAAAAAAAAAAAAAAAAAAAAA\",\"ASNFZ4mrze8RIjNEVWZ3iA\"],\"eligibleLeaderReplicas\":[2]}}";
        assertThat(MetadataJson.payloadText(d)).isEqualTo(text);
        assertThat(MetadataOracle.dumpPayload(value)).isEqualTo(text);
    }

    @Test
    void aKnownTagAtAVersionOutsideItsTaggedVersionsFailsAsInKafka() {
        byte[] v1 = MetadataOracle.frame(new PartitionRecord().setTopicId(TOPIC_ID).setReplicas(List.of(1)), (short) 1);
        assertThat(v1[v1.length - 1]).isZero(); // no tagged fields
        // tag 1 (EligibleLeaderReplicas, tagged versions 2+) at version 1, holding a null array
        byte[] tagged = Arrays.copyOf(v1, v1.length + 3);
        tagged[v1.length - 1] = 1;
        tagged[v1.length] = 1;
        tagged[v1.length + 1] = 1;
        tagged[v1.length + 2] = 0;
        MetadataResult r = MetadataRecordDecoder.decode(tagged);
        assertThat(r).isInstanceOfSatisfying(MetadataUnknown.class, u -> {
            assertThat(u.reason()).isEqualTo(MetadataUnknownReason.MALFORMED_VALUE);
            assertThat(u.detail()).isEqualTo("tag 1 is not valid for version 1");
        });
        assertThat(((MetadataUnknown) r).kafkaMessage()).isEqualTo("Failed to deserialize record with type 3");
        assertThat(MetadataOracle.dumpPayload(tagged)).isEqualTo("Error at 0, skipping. Failed to deserialize record with type 3");
        // the same bytes labelled version 2 decode
        tagged[2] = 2;
        assertThat(MetadataRecordDecoder.decode(tagged)).isInstanceOf(MetadataDecoded.class);
        assertThat(MetadataJson.payloadText((MetadataDecoded) MetadataRecordDecoder.decode(tagged))).isEqualTo(MetadataOracle.dumpPayload(tagged));
    }

    @Test
    void everyReasonHasItsKafkaMessage() {
        byte[] topic = MetadataOracle.frame(new TopicRecord().setName("t").setTopicId(TOPIC_ID), (short) 0);
        byte[][] values = {
            null,
            {1, (byte) 0x80},
            {0, 2, 0, 0},
            {1, 6, 0, 0},
            Arrays.copyOf(topic, topic.length - 1),
            Arrays.copyOf(topic, topic.length + 2),
        };
        EnumSet<MetadataUnknownReason> seen = EnumSet.noneOf(MetadataUnknownReason.class);
        for (byte[] v : values) {
            MetadataUnknown u = (MetadataUnknown) MetadataRecordDecoder.decode(v);
            seen.add(u.reason());
            assertThat(MetadataOracle.dumpPayload(v)).isEqualTo("Error at 0, skipping. " + u.kafkaMessage());
        }
        assertThat(seen).isEqualTo(EnumSet.allOf(MetadataUnknownReason.class));
        MetadataUnknown trailing = (MetadataUnknown) MetadataRecordDecoder.decode(values[5]);
        assertThat(trailing.kafkaMessage()).isEqualTo("Found 2 byte(s) of garbage after 2");
        assertThat(trailing.position()).isEqualTo(topic.length);
        FormatException e = trailing.toException("00000000000000000000.log", 4096, 17);
        assertThat(e.violation()).isEqualTo(Violation.INVALID_METADATA_RECORD);
        assertThat(e.getMessage()).contains("00000000000000000000.log").contains("4096").contains("invalid-metadata-record");
    }

    @Test
    void aSliceOfALargerBufferIsReadInPlace() {
        byte[] topic = MetadataOracle.frame(new TopicRecord().setName("orders").setTopicId(TOPIC_ID), (short) 0);
        ByteBuffer big = ByteBuffer.allocateDirect(topic.length + 20);
        big.position(11);
        big.put(topic);
        MetadataDecoded d = (MetadataDecoded) MetadataRecordDecoder.decode(big, 11, topic.length);
        assertThat(d.value().getString("Name")).isEqualTo("orders");
        assertThat(MetadataJson.dataText(d)).isEqualTo("{\"name\":\"orders\",\"topicId\":\"ASNFZ4mrze8RIjNEVWZ3iA\"}");
    }

    @Test
    void leaderChangeIsReadAtVersionZeroAndPrintedAtItsVersionField() {
        LeaderChangeMessage m = new LeaderChangeMessage().setVersion((short) 1).setLeaderId(2)
                .setVoters(List.of(new LeaderChangeMessage.Voter().setVoterId(1), new LeaderChangeMessage.Voter().setVoterId(2)))
                .setGrantingVoters(List.of(new LeaderChangeMessage.Voter().setVoterId(2)));
        byte[] value = MetadataOracle.bare(m, (short) 0);
        ControlValue v = ControlValueDecoder.decode((short) 2, ByteBuffer.wrap(value), 0, value.length);
        assertThat(v).isInstanceOfSatisfying(ControlValue.Message.class, msg -> {
            assertThat(msg.printVersion()).isEqualTo((short) 1);
            assertThat(msg.value().version()).isZero();
            assertThat(msg.trailingBytes()).isZero();
        });
        String text = "{\"version\":1,\"leaderId\":2,\"voters\":[{\"voterId\":1,\"voterDirectoryId\":\"AAAAAAAAAAAAAAAAAAAAAA\"},"
                + "{\"voterId\":2,\"voterDirectoryId\":\"AAAAAAAAAAAAAAAAAAAAAA\"}],\"grantingVoters\":[{\"voterId\":2,\"voterDirectoryId\":\"AAAAAAAAAAAAAAAAAAAAAA\"}]}";
        assertThat(MetadataJson.controlDataText((ControlValue.Message) v)).isEqualTo(text);
        assertThat(MetadataOracle.controlText((short) 2, value)).isEqualTo(" LeaderChange: " + text);
        m.setVersion((short) 0);
        byte[] v0 = MetadataOracle.bare(m, (short) 0);
        ControlValue.Message atV0 = (ControlValue.Message) ControlValueDecoder.decode((short) 2, ByteBuffer.wrap(v0), 0, v0.length);
        assertThat(" LeaderChange: " + MetadataJson.controlDataText(atV0))
                .isEqualTo(" LeaderChange: {\"version\":0,\"leaderId\":2,\"voters\":[{\"voterId\":1},{\"voterId\":2}],\"grantingVoters\":[{\"voterId\":2}]}")
                .isEqualTo(MetadataOracle.controlText((short) 2, v0));
    }

    @Test
    void markersAndUnknownTypes() {
        byte[] commit = {0, 0, 0, 0, 0, 42};
        assertThat(ControlValueDecoder.decode((short) 1, ByteBuffer.wrap(commit), 0, 6))
                .isEqualTo(new ControlValue.EndTxnMarker(io.segscope.format.record.ControlRecord.Type.COMMIT, (short) 0, 42));
        assertThat(MetadataOracle.controlText((short) 1, commit)).isEqualTo(" endTxnMarker: COMMIT coordinatorEpoch: 42");
        assertThat(ControlValueDecoder.decode((short) 77, null, 0, -1)).isEqualTo(new ControlValue.UnknownType((short) 77));
        assertThat(ControlValueDecoder.decode((short) 0, ByteBuffer.wrap(new byte[] {0, 0, 1}), 0, 3)).isInstanceOf(ControlValue.Malformed.class);
        assertThat(MetadataOracle.controlText((short) 0, new byte[] {0, 0, 1})).isNull();
    }
}
