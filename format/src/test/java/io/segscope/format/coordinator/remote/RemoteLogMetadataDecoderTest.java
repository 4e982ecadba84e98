package io.segscope.format.coordinator.remote;

import static io.segscope.format.coordinator.KafkaSchemaFiles.SCHEMAS;
import static io.segscope.format.coordinator.KafkaSchemaFiles.compareStruct;
import static io.segscope.format.coordinator.KafkaSchemaFiles.read;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.segscope.format.coordinator.Versions;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataRecordSchema;
import io.segscope.format.coordinator.metadata.MetadataResult;
import io.segscope.format.coordinator.metadata.MetadataUnknown;
import io.segscope.format.json.MetadataJson;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.apache.kafka.server.common.serialization.BytesApiMessageSerde;
import org.apache.kafka.server.log.remote.metadata.storage.generated.MetadataRecordType;
import org.apache.kafka.server.log.remote.metadata.storage.serialization.RemoteLogMetadataSerde;
import org.apache.kafka.server.log.remote.storage.RemoteLogMetadata;
import org.junit.jupiter.api.Test;

/**
 * {@code __remote_log_metadata} against Kafka 4.4.0's own code: the tables against the vendored
 * {@code message/Remote*Record.json} and kafka-storage's {@code MetadataRecordType}; values written
 * by {@code RemoteLogMetadataSerde} from random objects decoded field for field as Kafka's generated
 * JSON converters print the same messages; the {@code payload:} text against DumpLogSegments'
 * {@code --remote-log-metadata-decoder} parser, also for damaged values (every single-byte change
 * and truncation of a sample of values, and state ids Kafka does not know).
 */
class RemoteLogMetadataDecoderTest {
    private static final RemoteLogMetadataSerde SERDE = new RemoteLogMetadataSerde();

    @Test
    void tablesMatchTheVendoredSchemas() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(SCHEMAS.resolve("kafka-storage"))) {
            files = s.filter(p -> p.getFileName().toString().endsWith("Record.json")).sorted().toList();
        }
        assertThat(files).hasSize(4);
        for (Path file : files) {
            Map<String, Object> json = read(file);
            int apiKey = ((Number) json.get("apiKey")).intValue();
            String name = (String) json.get("name");
            MetadataRecordSchema table = RemoteLogMetadataSchemas.forApiKey(apiKey);
            assertThat(table).as(name).isNotNull();
            assertThat(table.name()).isEqualTo(name);
            assertThat(table.validVersions()).isEqualTo(Versions.parse((String) json.get("validVersions")));
            assertThat(table.flexibleVersions()).isEqualTo(Versions.parse((String) json.get("flexibleVersions")));
            compareStruct(name, table.value(), json);
        }
    }

    @Test
    void typeNamesMatchKafkasMetadataRecordType() {
        assertThat(RemoteLogMetadataSchemas.RECORDS).hasSize(MetadataRecordType.values().length);
        for (MetadataRecordType t : MetadataRecordType.values()) {
            MetadataRecordSchema table = RemoteLogMetadataSchemas.forApiKey(t.id());
            assertThat(table.typeName()).isEqualTo(t.toString());
            assertThat(table.validVersions()).isEqualTo(new Versions(t.lowestSupportedVersion(), t.highestSupportedVersion()));
            assertThat(t.newMetadataRecord().getClass().getSimpleName()).isEqualTo(table.name());
        }
        assertThat(RemoteLogMetadataSchemas.forApiKey(4)).isNull();
        assertThat(RemoteLogMetadataSchemas.forApiKey(-1)).isNull();
    }

    @Test
    void decodesWhatKafkaWritesFieldForField() throws Exception {
        Random random = new Random(44);
        for (int i = 0; i < 2000; i++) {
            int kind = i % 4;
            RemoteLogMetadata m = RemoteLogMetadataOracle.random(kind, random);
            byte[] value = SERDE.serialize(m);
            MetadataResult result = RemoteLogMetadataDecoder.decode(value);
            assertThat(result).as("%s", m).isInstanceOf(MetadataDecoded.class);
            MetadataDecoded d = (MetadataDecoded) result;
            assertThat((int) d.apiKey()).isEqualTo(kind);
            // field for field: segscope's JSON of the struct equals Kafka's generated converter's on the message
            ApiMessageAndVersion amv = new BytesApiMessageSerde() {
                @Override
                public ApiMessage apiMessageFor(short apiKey) {
                    return MetadataRecordType.fromId(apiKey).newMetadataRecord();
                }
            }.deserialize(value);
            assertThat(MetadataJson.dataText(d)).as("%s", m).isEqualTo(kafkaJson(amv).toString());
            // Kafka's objects: the tool prints toString()
            assertThat(RemoteLogMetadataText.payloadText(result, i)).isEqualTo(m.toString())
                    .isEqualTo(SERDE.deserialize(value).toString())
                    .isEqualTo(RemoteLogMetadataOracle.dumpPayload(value, i));
        }
    }

    @Test
    void damagedValuesPrintWhatTheToolPrints() {
        Random random = new Random(45);
        int errors = 0;
        for (int i = 0; i < 40; i++) {
            byte[] value = SERDE.serialize(RemoteLogMetadataOracle.random(i % 4, random));
            for (int p = 0; p < value.length; p++) {
                for (int x : new int[] {0x01, 0x80, 0xff}) {
                    byte[] v = value.clone();
                    v[p] ^= (byte) x;
                    errors += check(v, p) ? 1 : 0;
                }
                errors += check(java.util.Arrays.copyOf(value, p), p) ? 1 : 0;
            }
        }
        assertThat(errors).isGreaterThan(1000);
        // states Kafka does not know, negative and inverted offsets, no epochs, unknown apiKey, null value
        assertThat(check(null, 7)).isTrue();
        assertThat(check(new byte[] {1, 9, 0, 0}, 8)).isTrue();
    }

    /** Compares segscope's payload text with the tool's for one value; true when both print an error. */
    private static boolean check(byte[] v, long offset) {
        String kafka = RemoteLogMetadataOracle.dumpPayload(v, offset);
        MetadataResult r = RemoteLogMetadataDecoder.decode(v);
        assertThat(RemoteLogMetadataText.payloadText(r, offset)).as("value %s", v == null ? null : java.util.HexFormat.of().formatHex(v))
                .isEqualTo(kafka);
        if (r instanceof MetadataUnknown) {
            assertThat(kafka).startsWith("Error at offset " + offset + ", skipping. ");
        }
        return kafka.startsWith("Error at offset");
    }

    private static JsonNode kafkaJson(ApiMessageAndVersion amv) throws Exception {
        Class<?> converter = Class.forName(amv.message().getClass().getName() + "JsonConverter");
        Method write = converter.getMethod("write", amv.message().getClass(), short.class);
        return (JsonNode) write.invoke(null, amv.message(), amv.version());
    }
}
