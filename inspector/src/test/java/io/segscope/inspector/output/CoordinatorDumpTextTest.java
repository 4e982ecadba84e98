package io.segscope.inspector.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorRecordDecoderTest;
import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.KafkaOracle;
import io.segscope.format.coordinator.Unknown;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupPartitionMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupPartitionMetadataValue;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.junit.jupiter.api.Test;

/**
 * The {@code key:}/{@code payload:} texts {@link KafkaDumpText} prints for coordinator records
 * that are tombstones, of types Kafka 4.4.0 does not know, or do not decode, against Kafka's own
 * DumpLogSegments parsers where it prints them.
 */
class CoordinatorDumpTextTest {
    private static final CoordinatorRecordDecoder OFFSETS = CoordinatorRecordDecoder.consumerOffsets();

    @Test
    void aTombstonePrintsItsKeyAndDelete() {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new GroupMetadataKey().setGroup("to-be-deleted"));
        CoordinatorResult r = OFFSETS.decode(key, null);
        assertThat(KafkaDumpText.keyText(r, 12)).isEqualTo("{\"type\":\"2\",\"data\":{\"group\":\"to-be-deleted\"}}")
                .isEqualTo(KafkaOracle.dump(CoordinatorTopic.CONSUMER_OFFSETS, key, null)[0]);
        assertThat(KafkaDumpText.payloadText(r)).isEqualTo("<DELETE>")
                .isEqualTo(KafkaOracle.dump(CoordinatorTopic.CONSUMER_OFFSETS, key, null)[1]);
    }

    @Test
    void removedTypes9And18AreUnknownTypesToKafka440() {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new ConsumerGroupPartitionMetadataKey().setGroupId("old"));
        byte[] value = MessageUtil.toVersionPrefixedBytes((short) 0, new ConsumerGroupPartitionMetadataValue().setTopics(List.of(
                new ConsumerGroupPartitionMetadataValue.TopicMetadata().setTopicId(Uuid.fromString("ovg8G8h6Sj2XwouCs2oc5Q"))
                        .setTopicName("orders").setNumPartitions(3))));
        for (short type : new short[] {9, 18}) {
            ByteBuffer.wrap(key).putShort(0, type);
            CoordinatorResult d = OFFSETS.decode(key, value);
            assertThat(d).isInstanceOf(Decoded.class);
            assertThat(KafkaDumpText.keyText(d, 0)).isEqualTo(KafkaOracle.dump(CoordinatorTopic.CONSUMER_OFFSETS, key, value)[0])
                    .isEqualTo("Unknown record type " + type + " at offset 0, skipping.");
            assertThat(KafkaDumpText.payloadText(d)).isNull();
        }
    }

    @Test
    void unknownTypesAndUndecodableRecordsPrintSkipMessages() {
        byte[][] r = CoordinatorRecordDecoderTest.realOffsetCommit(false);

        Unknown shortKey = (Unknown) OFFSETS.decode(new byte[] {0}, r[1]);
        assertThat(KafkaDumpText.keyText(shortKey, 3)).isEqualTo("Error at offset 3, skipping. Could not read version from key's buffer.");
        assertThat(KafkaDumpText.payloadText(shortKey)).isNull();

        byte[] type24 = r[0].clone();
        type24[1] = 24;
        Unknown newer = (Unknown) OFFSETS.decode(type24, r[1]);
        assertThat(KafkaDumpText.keyText(newer, 7)).isEqualTo("Unknown record type 24 at offset 7, skipping.");
        assertThat(KafkaDumpText.payloadText(newer)).isNull();

        byte[] v5 = r[1].clone();
        v5[1] = 5;
        Unknown version = (Unknown) OFFSETS.decode(r[0], v5);
        assertThat(KafkaDumpText.keyText(version, 0))
                .isEqualTo(KafkaOracle.dump(CoordinatorTopic.CONSUMER_OFFSETS, r[0], v5)[0])
                .isEqualTo("Error at offset 0, skipping. Found an unknown record version 5 for 1 type");
    }
}
