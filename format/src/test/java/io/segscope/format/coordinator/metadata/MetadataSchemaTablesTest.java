package io.segscope.format.coordinator.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.segscope.format.coordinator.Field;
import io.segscope.format.coordinator.StructSchema;
import io.segscope.format.coordinator.Versions;
import io.segscope.format.coordinator.metadata.ControlValueSchemas.ControlValueSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
    private static final Path SCHEMAS = Path.of(System.getProperty("segscope.root", "..")).resolve("testdata/schemas/kafka-4.4.0");
    private static final JsonFactory JSON = JsonFactory.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).build();

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
            compareStruct(name, table.value(), fields(json), commonStructs(json));
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
            compareStruct(s.value().name(), s.value(), fields(json), commonStructs(json));
            assertThat(ControlValueSchemas.forType(s.type())).isSameAs(s);
            assertThat(ControlRecordType.fromTypeId(s.type().id).name()).isEqualTo(s.type().name());
        }
        assertThat(ControlValueSchemas.LEADER_CHANGE.readVersion()).isEqualTo(ControlRecordUtils.LEADER_CHANGE_CURRENT_VERSION);
        assertThat(ControlValueSchemas.SNAPSHOT_HEADER.readVersion()).isEqualTo(ControlRecordUtils.SNAPSHOT_HEADER_CURRENT_VERSION);
        assertThat(ControlValueSchemas.SNAPSHOT_FOOTER.readVersion()).isEqualTo(ControlRecordUtils.SNAPSHOT_FOOTER_CURRENT_VERSION);
        assertThat(ControlValueSchemas.KRAFT_VERSION.readVersion()).isEqualTo(ControlRecordUtils.KRAFT_VERSION_CURRENT_VERSION);
        assertThat(ControlValueSchemas.KRAFT_VOTERS.readVersion()).isEqualTo(ControlRecordUtils.KRAFT_VOTERS_CURRENT_VERSION);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> fields(Map<String, Object> node) {
        Object f = node.get("fields");
        return f == null ? List.of() : (List<Map<String, Object>>) f;
    }

    private static Map<String, List<Map<String, Object>>> commonStructs(Map<String, Object> root) {
        Map<String, List<Map<String, Object>>> m = new HashMap<>();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> cs = (List<Map<String, Object>>) root.getOrDefault("commonStructs", List.of());
        for (Map<String, Object> c : cs) {
            m.put((String) c.get("name"), fields(c));
        }
        return m;
    }

    private static void compareStruct(String path, StructSchema table, List<Map<String, Object>> json,
                                      Map<String, List<Map<String, Object>>> common) {
        List<String> names = new ArrayList<>();
        for (Map<String, Object> f : json) {
            names.add((String) f.get("name"));
        }
        assertThat(table.fields()).extracting(Field::name).as(path).containsExactlyElementsOf(names);
        for (int i = 0; i < json.size(); i++) {
            Map<String, Object> jf = json.get(i);
            Field f = table.fields().get(i);
            String where = path + "." + f.name();
            String type = (String) jf.get("type");
            assertThat(f.schemaType()).as(where + " type").isEqualTo(type);
            String versions = (String) (jf.containsKey("versions") ? jf.get("versions") : jf.get("taggedVersions"));
            assertThat(f.versions()).as(where + " versions").isEqualTo(Versions.parse(versions));
            assertThat(f.nullableVersions()).as(where + " nullableVersions").isEqualTo(Versions.parse((String) jf.get("nullableVersions")));
            assertThat(f.tag()).as(where + " tag").isEqualTo(jf.containsKey("tag") ? ((Number) jf.get("tag")).intValue() : Field.NO_TAG);
            assertThat(f.taggedVersions()).as(where + " taggedVersions").isEqualTo(Versions.parse((String) jf.get("taggedVersions")));
            Object d = jf.get("default");
            assertThat(f.defaultSpec()).as(where + " default").isEqualTo(d == null ? null : d.toString());
            assertThat(f.isIgnorable()).as(where + " ignorable").isEqualTo(Boolean.TRUE.equals(jf.get("ignorable")));
            if (f.struct() != null) {
                String structName = type.startsWith("[]") ? type.substring(2) : type;
                assertThat(f.struct().name()).as(where).isEqualTo(structName);
                List<Map<String, Object>> nested = jf.containsKey("fields") ? fields(jf) : common.get(structName);
                assertThat(nested).as(where + " struct " + structName).isNotNull();
                compareStruct(where, f.struct(), nested, common);
            }
        }
    }

    /** A JSON file (with // comments) as maps, lists, strings, numbers, booleans and nulls. */
    private static Map<String, Object> read(Path file) throws IOException {
        try (JsonParser p = JSON.createParser(file.toFile())) {
            p.nextToken();
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) value(p);
            return m;
        }
    }

    private static Object value(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT: {
                Map<String, Object> m = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    m.put(name, value(p));
                }
                return m;
            }
            case START_ARRAY: {
                List<Object> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    l.add(value(p));
                }
                return l;
            }
            case VALUE_STRING: return p.getText();
            case VALUE_NUMBER_INT: return p.getLongValue();
            case VALUE_TRUE: return Boolean.TRUE;
            case VALUE_FALSE: return Boolean.FALSE;
            case VALUE_NULL: return null;
            default: return p.getText();
        }
    }
}
