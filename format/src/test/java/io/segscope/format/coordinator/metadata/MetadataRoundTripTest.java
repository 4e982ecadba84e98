package io.segscope.format.coordinator.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.json.MetadataJson;
import io.segscope.testkit.Tries;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.metadata.MetadataJsonConverters;
import org.apache.kafka.common.protocol.ApiMessage;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * For every KRaft metadata record type and version of Kafka 4.4.0: random contents built and
 * serialized by Kafka's generated classes, decoded by segscope, rendered, and compared with the
 * payload Kafka's DumpLogSegments prints for the same bytes (its {@code --cluster-metadata-decoder}
 * parser) and with {@code MetadataJsonConverters.writeJson}. The texts around it, and control
 * records, are checked in the inspector ({@code MetadataDumpTextTest}).
 */
public class MetadataRoundTripTest {

    /** One (record type, version) cell of the matrix. */
    public record Cell(MetadataRecordSchema schema, short version) {
        @Override
        public String toString() {
            return schema.name() + " v" + version;
        }
    }

    public static List<Cell> cells() {
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
    public static Object kafkaMessage(Cell cell, Random random) {
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
        assertThat(MetadataJson.payloadText(d)).isEqualTo(MetadataOracle.dumpPayload(value));

        // the same bytes in a larger buffer, at an offset
        byte[] padded = new byte[value.length + 7];
        System.arraycopy(value, 0, padded, 3, value.length);
        assertThat(MetadataJson.payloadText((MetadataDecoded) MetadataRecordDecoder.decode(ByteBuffer.wrap(padded), 3, value.length)))
                .isEqualTo(MetadataJson.payloadText(d));
    }

    public static void writeVarint(ByteArrayOutputStream out, int value) {
        int v = value;
        while ((v & 0xffffff80) != 0) {
            out.write((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }
}
