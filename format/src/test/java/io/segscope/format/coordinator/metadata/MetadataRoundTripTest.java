package io.segscope.format.coordinator.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.metadata.ControlValueSchemas.ControlValueSchema;
import io.segscope.format.json.MetadataJson;
import io.segscope.testkit.Tries;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.metadata.MetadataJsonConverters;
import org.apache.kafka.common.protocol.ApiMessage;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * For every KRaft metadata record type and version of Kafka 4.4.0, and every control record
 * value: random contents built and serialized by Kafka's generated classes, decoded by segscope,
 * rendered, and compared with what Kafka's DumpLogSegments prints for the same bytes (its
 * {@code --cluster-metadata-decoder} parser and its control record printer), and with
 * {@code MetadataJsonConverters.writeJson}.
 */
class MetadataRoundTripTest {

    /** One (record type, version) cell of the matrix. */
    record Cell(MetadataRecordSchema schema, short version) {
        @Override
        public String toString() {
            return schema.name() + " v" + version;
        }
    }

    static List<Cell> cells() {
        List<Cell> cells = new ArrayList<>();
        for (MetadataRecordSchema s : MetadataSchemas.RECORDS) {
            for (int v = s.validVersions().lowest(); v <= s.validVersions().highest(); v++) {
                cells.add(new Cell(s, (short) v));
            }
        }
        return cells;
    }

    private static final List<Cell> CELLS = cells();

    @Test
    void matrixCoversEveryTypeAndVersion() {
        // 23 types at v0 only; PartitionRecord, PartitionChangeRecord v0-2; BrokerRegistrationChangeRecord v0-3;
        // RegisterBrokerRecord v0-4
        assertThat(cells()).hasSize(23 + 3 + 3 + 4 + 5);
    }

    /** A random message of this cell built by Kafka's JsonConverter. */
    static Object kafkaMessage(Cell cell, Random random) {
        return MetadataOracle.readJson(MetadataOracle.METADATA_PACKAGE + cell.schema().name(),
                new RandomMetadata(random).json(cell.schema().value(), cell.version()), cell.version());
    }

    @TestFactory
    Stream<DynamicTest> decodesAndPrintsLikeKafka() {
        return Tries.of(4400, 3000, gen -> decodesAndPrintsLikeKafka(gen.choose(CELLS), gen.random()));
    }

    private static void decodesAndPrintsLikeKafka(Cell cell, Random random) {
        Object message = kafkaMessage(cell, random);
        byte[] value = MetadataOracle.frame(message, cell.version());

        MetadataResult r = MetadataRecordDecoder.decode(value);
        assertThat(r).as(cell.toString()).isInstanceOf(MetadataDecoded.class);
        MetadataDecoded d = (MetadataDecoded) r;
        assertThat(d.schema()).isSameAs(cell.schema());
        assertThat(d.version()).isEqualTo(cell.version());
        assertThat(d.versionKnown()).isTrue();
        assertThat(d.unknownTaggedFields()).isZero();
        assertThat(MetadataJson.dataText(d)).isEqualTo(MetadataJsonConverters.writeJson((ApiMessage) message, cell.version()).toString());
        assertThat(MetadataJson.dumpPayloadText(d, 0)).isEqualTo(MetadataOracle.dumpPayload(value));

        // the same bytes in a larger buffer, at an offset
        byte[] padded = new byte[value.length + 7];
        System.arraycopy(value, 0, padded, 3, value.length);
        assertThat(MetadataJson.dumpPayloadText(MetadataRecordDecoder.decode(ByteBuffer.wrap(padded), 3, value.length), 0))
                .isEqualTo(MetadataJson.dumpPayloadText(d, 0));
    }

    /**
     * A record labelled with a version outside its type's valid versions (newer, or a varint that
     * wraps to a negative short): Kafka reads it with the nearest version's layout and prints the
     * label; segscope does the same.
     */
    @TestFactory
    Stream<DynamicTest> versionsOutsideTheSchemaReadLikeKafka() {
        return Tries.of(4401, 600, gen -> versionsOutsideTheSchemaReadLikeKafka(gen.choose(CELLS), gen.random()));
    }

    private static void versionsOutsideTheSchemaReadLikeKafka(Cell cell, Random random) {
        boolean high = cell.version() == cell.schema().validVersions().highest() && random.nextBoolean();
        boolean low = cell.version() == cell.schema().validVersions().lowest();
        if (!high && !low) {
            return;
        }
        byte[] value = MetadataOracle.frame(kafkaMessage(cell, random), cell.version());
        int label = high ? cell.version() + 1 + random.nextInt(200) : -1 - random.nextInt(70000);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(1);
        writeVarint(out, cell.schema().apiKey());
        writeVarint(out, label);
        out.write(value, 3, value.length - 3);
        byte[] relabelled = out.toByteArray();

        MetadataResult r = MetadataRecordDecoder.decode(relabelled);
        String kafka = MetadataOracle.dumpPayload(relabelled);
        assertThat(MetadataJson.dumpPayloadText(r, 0)).as(cell + " labelled " + label).isEqualTo(kafka);
        if (r instanceof MetadataDecoded) {
            assertThat(((MetadataDecoded) r).versionKnown()).isFalse();
            assertThat(((MetadataDecoded) r).version()).isEqualTo((short) label);
        }
    }

    @TestFactory
    Stream<DynamicTest> controlValuesPrintLikeKafka() {
        return Tries.of(4402, 1500, gen -> controlValuesPrintLikeKafka(gen.choose(ControlValueSchemas.ALL), gen.random()));
    }

    private static void controlValuesPrintLikeKafka(ControlValueSchema schema, Random random) {
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

    @TestFactory
    Stream<DynamicTest> markersAndUnknownControlTypesPrintLikeKafka() {
        return Tries.of(4403, 500, gen -> markersAndUnknownControlTypesPrintLikeKafka(gen.random()));
    }

    private static void markersAndUnknownControlTypesPrintLikeKafka(Random random) {
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
        assertThat(MetadataJson.controlText(v)).as("type %d value %s: %s", type, value == null ? null : Arrays.toString(value), v).isEqualTo(kafka);
        assertThat(v.typeId()).isEqualTo(type);
    }

    static void writeVarint(ByteArrayOutputStream out, int value) {
        int v = value;
        while ((v & 0xffffff80) != 0) {
            out.write((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }
}
