package io.segscope.format.coordinator.metadata;

import static io.segscope.format.coordinator.KafkaSchemaFiles.SCHEMAS;
import static io.segscope.format.coordinator.KafkaSchemaFiles.compareStruct;
import static io.segscope.format.coordinator.KafkaSchemaFiles.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.Versions;
import io.segscope.format.coordinator.metadata.ControlValueSchemas.ControlValueSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.kafka.common.metadata.MetadataRecordType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.ControlRecordUtils;
import org.junit.jupiter.api.Test;

/**
 * Pins the KRaft tables to Kafka 4.4.0: every vendored {@code common/metadata/*Record.json}
 * (testdata/schemas/kafka-4.4.0/kafka-metadata) and control record value schema
 * (kafka-clients) is compared field by field with segscope's tables (name, type, versions,
 * nullable versions, tag, tagged versions, default, ignorable, nested structs), and the type
 * names and versions with Kafka's own {@code MetadataRecordType} and {@code ControlRecordUtils}.
 */
class MetadataSchemaTablesTest {
    @Test
    void metadataRecordsMatchKafka() throws IOException {
        TreeSet<Integer> inJars = new TreeSet<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(SCHEMAS.resolve("kafka-metadata"))) {
            files = s.filter(p -> p.getFileName().toString().endsWith("Record.json")).sorted().toList();
        }
        for (Path file : files) {
            Map<String, Object> json = read(file);
            int apiKey = ((Number) json.get("apiKey")).intValue();
            inJars.add(apiKey);
            MetadataRecordSchema table = MetadataSchemas.forApiKey(apiKey);
            String name = (String) json.get("name");
            assertThat(table).as("table for apiKey %d (%s)", apiKey, name).isNotNull();
            assertThat(json.get("type")).isEqualTo("metadata");
            assertThat(table.name()).isEqualTo(name);
            assertThat(table.value().name()).isEqualTo(name);
            assertThat(table.validVersions()).as(name).isEqualTo(Versions.parse((String) json.get("validVersions")));
            assertThat(table.flexibleVersions()).as(name).isEqualTo(Versions.parse((String) json.get("flexibleVersions")));
            compareStruct(name, table.value(), json);
        }
        TreeSet<Integer> inTables = new TreeSet<>();
        for (MetadataRecordSchema r : MetadataSchemas.RECORDS) {
            inTables.add((int) r.apiKey());
        }
        assertThat(inTables).isEqualTo(inJars);
        assertThat(inJars).hasSize(27);
    }

    @Test
    void metadataTypeNamesAndVersionsMatchMetadataRecordType() {
        assertThat(MetadataSchemas.RECORDS).hasSize(MetadataRecordType.values().length);
        for (MetadataRecordType t : MetadataRecordType.values()) {
            MetadataRecordSchema table = MetadataSchemas.forApiKey(t.id());
            assertThat(table).as(t.name()).isNotNull();
            assertThat(table.typeName()).isEqualTo(t.toString());
            assertThat(table.validVersions()).isEqualTo(new Versions(t.lowestSupportedVersion(), t.highestSupportedVersion()));
            assertThat(t.newMetadataRecord().getClass().getSimpleName()).isEqualTo(table.name());
        }
        for (int id : new int[] {-1, 6, 13, 16, 30, 31, Short.MAX_VALUE}) {
            assertThat(MetadataSchemas.forApiKey(id)).isNull();
        }
    }

    @Test
    void controlRecordValuesMatchKafka() throws IOException {
        for (ControlValueSchema s : ControlValueSchemas.ALL) {
            Map<String, Object> json = read(SCHEMAS.resolve("kafka-clients/" + s.value().name() + ".json"));
            assertThat(json.get("name")).isEqualTo(s.value().name());
            assertThat(s.validVersions()).as(s.value().name()).isEqualTo(Versions.parse((String) json.get("validVersions")));
            assertThat(json.get("flexibleVersions")).as(s.value().name()).isEqualTo("0+");
            compareStruct(s.value().name(), s.value(), json);
            assertThat(ControlValueSchemas.forType(s.type())).isSameAs(s);
            assertThat(ControlRecordType.fromTypeId(s.type().id).name()).isEqualTo(s.type().name());
        }
        assertThat(ControlValueSchemas.LEADER_CHANGE.readVersion()).isEqualTo(ControlRecordUtils.LEADER_CHANGE_CURRENT_VERSION);
        assertThat(ControlValueSchemas.SNAPSHOT_HEADER.readVersion()).isEqualTo(ControlRecordUtils.SNAPSHOT_HEADER_CURRENT_VERSION);
        assertThat(ControlValueSchemas.SNAPSHOT_FOOTER.readVersion()).isEqualTo(ControlRecordUtils.SNAPSHOT_FOOTER_CURRENT_VERSION);
        assertThat(ControlValueSchemas.KRAFT_VERSION.readVersion()).isEqualTo(ControlRecordUtils.KRAFT_VERSION_CURRENT_VERSION);
        assertThat(ControlValueSchemas.KRAFT_VOTERS.readVersion()).isEqualTo(ControlRecordUtils.KRAFT_VOTERS_CURRENT_VERSION);
    }
}
