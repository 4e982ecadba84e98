package io.segscope.inspector.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.metadata.ControlValue;
import io.segscope.format.coordinator.metadata.ControlValueDecoder;
import io.segscope.format.coordinator.metadata.ControlValueSchemas.ControlValueSchema;
import io.segscope.format.coordinator.metadata.ControlValueSchemas;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataOracle;
import io.segscope.format.coordinator.metadata.MetadataRecordDecoder;
import io.segscope.format.coordinator.metadata.MetadataResult;
import io.segscope.format.coordinator.metadata.MetadataRoundTripTest.Cell;
import io.segscope.format.coordinator.metadata.MetadataRoundTripTest;
import io.segscope.format.coordinator.metadata.MetadataUnknown;
import io.segscope.format.coordinator.metadata.MetadataUnknownReason;
import io.segscope.format.coordinator.metadata.RandomMetadata;
import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.testkit.Tries;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link KafkaDumpText}'s metadata payloads and control record texts against what Kafka's
 * DumpLogSegments prints for the same bytes: records labelled with versions outside their schema,
 * every KRaft control value type, transaction markers and unknown control types, and truncated,
 * extended, garbled and re-framed metadata record values and control record values (segscope never
 * throws, and prints {@code Error at <offset>, skipping. <message>} where Kafka does; a control
 * value that Kafka's printer fails on is a {@link ControlValue.Malformed}).
 */
class MetadataDumpTextTest {

    private static final List<Cell> CELLS = MetadataRoundTripTest.cells();

    @TestFactory
    Stream<DynamicTest> mutatedMetadataRecordsPrintLikeKafka() {
        return Tries.of(9093, 4000, gen -> mutatedMetadataRecordsPrintLikeKafka(gen.choose(CELLS), gen.random()));
    }

    private static void mutatedMetadataRecordsPrintLikeKafka(Cell cell, Random random) {
        byte[] value = MetadataOracle.frame(MetadataRoundTripTest.kafkaMessage(cell, random), cell.version());
        value = random.nextInt(5) == 0 ? reframe(value, random) : mutate(value, random);
        String kafka = MetadataOracle.dumpPayload(value);
        MetadataResult r = MetadataRecordDecoder.decode(value);
        assertThat(KafkaDumpText.metadataPayloadText(r, 0)).as("%s %s", cell, r).isEqualTo(kafka);
        if (r instanceof MetadataUnknown) {
            MetadataUnknown u = (MetadataUnknown) r;
            assertThat(u.value().array()).isEqualTo(value);
            FormatException e = u.toException("00000000000000000000.log", 100, 7);
            assertThat(e.violation()).isEqualTo(Violation.INVALID_METADATA_RECORD);
        }
    }

    @TestFactory
    Stream<DynamicTest> mutatedControlValuesPrintLikeKafka() {
        return Tries.of(9094, 2000, gen -> mutatedControlValuesPrintLikeKafka(gen.choose(ControlValueSchemas.ALL), gen.random()));
    }

    private static void mutatedControlValuesPrintLikeKafka(ControlValueSchema schema, Random random) {
        String className = MetadataOracle.MESSAGE_PACKAGE + schema.value().name();
        Object message = MetadataOracle.readJson(className, new RandomMetadata(random).json(schema.value(), (short) 0), (short) 0);
        byte[] value = mutate(MetadataOracle.bare(message, (short) 0), random);
        assertSameControlText(schema.type().id, value);
    }

    @Test
    void nullAndEmptyValues() {
        assertThat(KafkaDumpText.metadataPayloadText(MetadataRecordDecoder.decode((byte[]) null), 12)).isEqualTo("Error at 12, skipping. Error while reading frame version");
        assertThat(KafkaDumpText.metadataPayloadText(MetadataRecordDecoder.decode(new byte[0]), 0)).isEqualTo(MetadataOracle.dumpPayload(new byte[0]));
        assertThat(MetadataRecordDecoder.decode((byte[]) null)).isInstanceOfSatisfying(MetadataUnknown.class,
                u -> assertThat(u.reason()).isEqualTo(MetadataUnknownReason.NULL_VALUE));
        for (ControlValueSchema s : ControlValueSchemas.ALL) {
            assertThat(ControlValueDecoder.decode(s.type().id, null, 0, -1)).isInstanceOf(ControlValue.Malformed.class);
            assertSameControlText(s.type().id, new byte[0]);
        }
        assertSameControlText((short) 0, new byte[0]);
        assertSameControlText((short) 1, new byte[] {0, 0, 0, 0, 0, 5});
        assertSameControlText((short) 1, new byte[] {0, 3, 0, 0, 0, 5, 9});
        assertSameControlText((short) 0, new byte[] {-1, -1, 0, 0, 0, 5});
        assertSameControlText((short) 42, new byte[] {1});
        assertSameControlText((short) -7, null);
    }

    @Test
    void everyHeaderFailurePrintsKafkasMessage() {
        byte[][] values = {
            {0, 2, 0, 0},                       // frame version 0
            {2, 2, 0, 0},                       // frame version 2
            {(byte) 0xff, (byte) 0xff, 3},      // frame version 65535: too large
            {(byte) 0x81, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x0f, 2, 0, 0}, // wraps to a negative int: low 16 bits 1
            {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1}, // six-byte varint
            {1},                                // no type
            {1, 6, 0, 0},                       // apiKey 6: not defined
            {1, 13, 0, 0},
            {1, 16, 0, 0},
            {1, 30, 0, 0},
            {1, (byte) 0xff, (byte) 0xff, 1, 0, 0}, // apiKey 32767
            {1, (byte) 0xff, (byte) 0xff, 3, 0, 0}, // apiKey too large
            {1, 20},                            // NoOpRecord without version
            {1, 20, 0},                         // NoOpRecord without tagged fields
            {1, 20, 0, 0},                      // NoOpRecord v0
            {1, 20, 0, 0, 0},                   // garbage after
            {1, 20, 5, 0},                      // NoOpRecord v5: read as v0
            {1, 20, 0, 1, 3, 1, 7},             // an unknown tag
            {1, 20, 0, 1, 3, 9, 7},             // an unknown tag longer than the value
        };
        for (byte[] v : values) {
            MetadataResult r = MetadataRecordDecoder.decode(v);
            assertThat(KafkaDumpText.metadataPayloadText(r, 0)).as(Arrays.toString(v)).isEqualTo(MetadataOracle.dumpPayload(v));
        }
        assertThat(((MetadataDecoded) MetadataRecordDecoder.decode(new byte[] {1, 20, 0, 1, 3, 1, 7})).unknownTaggedFields()).isEqualTo(1);
    }

    @Test
    void markersAndUnknownTypes() {
        byte[] commit = {0, 0, 0, 0, 0, 42};
        assertThat(KafkaDumpText.controlText(ControlValueDecoder.decode((short) 1, ByteBuffer.wrap(commit), 0, 6)))
                .isEqualTo(" endTxnMarker: COMMIT coordinatorEpoch: 42");
        assertThat(KafkaDumpText.controlText(ControlValueDecoder.decode((short) 77, null, 0, -1))).isEqualTo(" controlType: UNKNOWN(77)");
        assertThat(KafkaDumpText.controlText(ControlValueDecoder.decode((short) 0, ByteBuffer.wrap(new byte[] {0, 0, 1}), 0, 3))).isNull();
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
        assertThat(KafkaDumpText.controlText(v)).as("type %d value %s: %s", type, value == null ? null : Arrays.toString(value), v).isEqualTo(kafka);
        assertThat(v.typeId()).isEqualTo(type);
    }

    /** A valid record re-framed with random header values. */
    private static byte[] reframe(byte[] value, Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int[] frame = {0, 1, 1, 1, 2, 32767, 32768, -1, 0x10001};
        int[] keys = {0, 3, 6, 13, 16, 29, 30, 127, 128, 32767, -3};
        MetadataRoundTripTest.writeVarint(out, frame[random.nextInt(frame.length)]);
        MetadataRoundTripTest.writeVarint(out, random.nextBoolean() ? value[1] : keys[random.nextInt(keys.length)]);
        MetadataRoundTripTest.writeVarint(out, random.nextInt(4) == 0 ? random.nextInt(8) : value[2]);
        out.write(value, 3, value.length - 3);
        return out.toByteArray();
    }

    /** One or two random damages: truncation, extension, a flipped byte, a set byte, an insertion or a removal. */
    static byte[] mutate(byte[] b, Random random) {
        int n = 1 + random.nextInt(2);
        for (int i = 0; i < n; i++) {
            switch (random.nextInt(6)) {
                case 0:
                    b = Arrays.copyOf(b, random.nextInt(b.length + 1));
                    break;
                case 1: {
                    byte[] longer = Arrays.copyOf(b, b.length + 1 + random.nextInt(6));
                    for (int j = b.length; j < longer.length; j++) {
                        longer[j] = (byte) random.nextInt(256);
                    }
                    b = longer;
                    break;
                }
                case 2:
                    if (b.length > 0) {
                        b[random.nextInt(b.length)] ^= (byte) (1 << random.nextInt(8));
                    }
                    break;
                case 3:
                    if (b.length > 0) {
                        b[random.nextInt(b.length)] = (byte) (random.nextBoolean() ? 0xff : random.nextInt(256));
                    }
                    break;
                case 4: {
                    int at = random.nextInt(b.length + 1);
                    byte[] c = new byte[b.length + 1];
                    System.arraycopy(b, 0, c, 0, at);
                    c[at] = (byte) random.nextInt(256);
                    System.arraycopy(b, at, c, at + 1, b.length - at);
                    b = c;
                    break;
                }
                default:
                    if (b.length > 0) {
                        int at = random.nextInt(b.length);
                        byte[] c = new byte[b.length - 1];
                        System.arraycopy(b, 0, c, 0, at);
                        System.arraycopy(b, at + 1, c, at, b.length - at - 1);
                        b = c;
                    }
            }
        }
        return b;
    }

    static ByteBuffer wrap(byte[] b) {
        return ByteBuffer.wrap(b);
    }
}
