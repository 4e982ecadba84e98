package io.segscope.format.coordinator.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.metadata.ControlValueSchemas.ControlValueSchema;
import io.segscope.format.coordinator.metadata.MetadataRoundTripTest.Cell;
import io.segscope.inspector.output.KafkaDumpText;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link KafkaDumpText}'s metadata payloads and control record texts against what Kafka's
 * DumpLogSegments prints for the same bytes: records labelled with versions outside their schema,
 * every KRaft control value type, transaction markers and unknown control types.
 */
class MetadataDumpTextTest {

    @Test
    void markersUnknownTypesAndUndecodableRecords() {
        byte[] commit = {0, 0, 0, 0, 0, 42};
        assertThat(KafkaDumpText.controlText(ControlValueDecoder.decode((short) 1, ByteBuffer.wrap(commit), 0, 6)))
                .isEqualTo(" endTxnMarker: COMMIT coordinatorEpoch: 42");
        assertThat(KafkaDumpText.controlText(ControlValueDecoder.decode((short) 77, null, 0, -1))).isEqualTo(" controlType: UNKNOWN(77)");
        assertThat(KafkaDumpText.controlText(ControlValueDecoder.decode((short) 0, ByteBuffer.wrap(new byte[] {0, 0, 1}), 0, 3))).isNull();
        assertThat(KafkaDumpText.metadataPayloadText(MetadataRecordDecoder.decode((byte[]) null), 12))
                .isEqualTo("Error at 12, skipping. Error while reading frame version");
    }

    @Provide
    Arbitrary<Cell> cell() {
        return Arbitraries.of(MetadataRoundTripTest.cells());
    }

    @Provide
    Arbitrary<ControlValueSchema> control() {
        return Arbitraries.of(ControlValueSchemas.ALL);
    }

    /**
     * A record labelled with a version outside its type's valid versions (newer, or a varint that
     * wraps to a negative short): Kafka reads it with the nearest version's layout and prints the
     * label; segscope does the same.
     */
    @Property(tries = 600, seed = "4401")
    void versionsOutsideTheSchemaReadLikeKafka(@ForAll("cell") Cell cell, @ForAll Random random) {
        boolean high = cell.version() == cell.schema().validVersions().highest() && random.nextBoolean();
        boolean low = cell.version() == cell.schema().validVersions().lowest();
        if (!high && !low) {
            return;
        }
        byte[] value = MetadataOracle.frame(MetadataRoundTripTest.kafkaMessage(cell, random), cell.version());
        int label = high ? cell.version() + 1 + random.nextInt(200) : -1 - random.nextInt(70000);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(1);
        MetadataRoundTripTest.writeVarint(out, cell.schema().apiKey());
        MetadataRoundTripTest.writeVarint(out, label);
        out.write(value, 3, value.length - 3);
        byte[] relabelled = out.toByteArray();

        MetadataResult r = MetadataRecordDecoder.decode(relabelled);
        String kafka = MetadataOracle.dumpPayload(relabelled);
        assertThat(KafkaDumpText.metadataPayloadText(r, 0)).as(cell + " labelled " + label).isEqualTo(kafka);
        if (r instanceof MetadataDecoded) {
            assertThat(((MetadataDecoded) r).versionKnown()).isFalse();
            assertThat(((MetadataDecoded) r).version()).isEqualTo((short) label);
        }
    }

    @Property(tries = 1500, seed = "4402")
    void controlValuesPrintLikeKafka(@ForAll("control") ControlValueSchema schema, @ForAll Random random) {
        // LeaderChange values are also written at version 1, which Kafka still reads at version 0
        short writeVersion = (short) (schema.validVersions().highest() > 0 && random.nextInt(4) == 0 ? 1 : 0);
        String className = MetadataOracle.MESSAGE_PACKAGE + (schema == ControlValueSchemas.LEADER_CHANGE ? "LeaderChangeMessage" : schema.value().name());
        Object message = MetadataOracle.readJson(className, new RandomMetadata(random).json(schema.value(), writeVersion), writeVersion);
        byte[] value = MetadataOracle.bare(message, writeVersion);
        if (random.nextInt(5) == 0) {
            // trailing bytes, which both ignore
            value = Arrays.copyOf(value, value.length + 1 + random.nextInt(4));
        }
        assertSameControlText(schema.type().id, value);
    }

    @Property(tries = 500, seed = "4403")
    void markersAndUnknownControlTypesPrintLikeKafka(@ForAll Random random) {
        short type = (short) (random.nextInt(3) == 0 ? random.nextInt(20) - 3 : random.nextInt(2));
        byte[] value = new byte[random.nextInt(9)];
        random.nextBytes(value);
        if (random.nextBoolean() && value.length >= 2) {
            ByteBuffer.wrap(value).putShort(0, (short) random.nextInt(3));
        }
        if (type >= 2 && type <= 6) {
            type = 7;
        }
        assertSameControlText(type, random.nextInt(10) == 0 ? null : value);
    }

    static void assertSameControlText(short type, byte[] value) {
        String kafka = MetadataOracle.controlText(type, value);
        ControlValue v = ControlValueDecoder.decode(type, value == null ? null : ByteBuffer.wrap(value), 0, value == null ? -1 : value.length);
        assertThat(KafkaDumpText.controlText(v)).as("type %d value %s: %s", type, value == null ? null : Arrays.toString(value), v).isEqualTo(kafka);
        assertThat(v.typeId()).isEqualTo(type);
    }
}
