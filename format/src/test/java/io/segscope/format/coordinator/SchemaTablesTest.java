package io.segscope.format.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.segscope.format.coordinator.group.ConsumerProtocol;
import io.segscope.format.coordinator.group.GroupCoordinatorSchemas;
import io.segscope.format.coordinator.share.ShareCoordinatorSchemas;
import io.segscope.format.coordinator.txn.TransactionLogSchemas;
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
import org.junit.jupiter.api.Test;

/**
 * Pins segscope's schema tables to Kafka 4.4.0: every vendored {@code common/message/*.json}
 * (testdata/schemas/kafka-4.4.0) is compared field by field (name, type, versions, nullable
 * versions, tag, tagged versions, default, ignorable, nested structs) with the tables, and every
 * table of a 4.4.0 type must have its file. A Kafka release that changes a schema fails here.
 */
class SchemaTablesTest {
    private static final Path SCHEMAS = Path.of(System.getProperty("segscope.root", "..")).resolve("testdata/schemas/kafka-4.4.0");
    private static final JsonFactory JSON = JsonFactory.builder().enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_JAVA_COMMENTS).build();

    @Test
    void groupCoordinatorMatchesKafka() throws IOException {
        checkTopic("kafka-group-coordinator", GroupCoordinatorSchemas.SCHEMAS, 22);
    }

    @Test
    void transactionCoordinatorMatchesKafka() throws IOException {
        checkTopic("kafka-transaction-coordinator", TransactionLogSchemas.SCHEMAS, 1);
    }

    @Test
    void shareCoordinatorMatchesKafka() throws IOException {
        checkTopic("kafka-share-coordinator", ShareCoordinatorSchemas.SCHEMAS, 2);
    }

    @Test
    void consumerProtocolMatchesKafka() throws IOException {
        for (StructSchema s : List.of(ConsumerProtocol.SUBSCRIPTION, ConsumerProtocol.ASSIGNMENT)) {
            Map<String, Object> json = read(SCHEMAS.resolve("kafka-clients/" + s.name() + ".json"));
            assertThat(json.get("validVersions")).isEqualTo(ConsumerProtocol.VERSIONS.toString());
            assertThat(json.get("flexibleVersions")).isEqualTo("none");
            compareStruct(s.name(), s, fields(json), commonStructs(json));
        }
    }

    private void checkTopic(String dir, SchemaSet set, int expectedTypes) throws IOException {
        TreeSet<Integer> typesInJars = new TreeSet<>();
        List<Path> keys;
        try (Stream<Path> files = Files.list(SCHEMAS.resolve(dir))) {
            keys = files.filter(p -> p.getFileName().toString().endsWith("Key.json")).sorted().toList();
        }
        for (Path keyFile : keys) {
            Map<String, Object> key = read(keyFile);
            String name = (String) key.get("name");
            Map<String, Object> value = read(keyFile.resolveSibling(name.substring(0, name.length() - 3) + "Value.json"));
            int type = ((Number) key.get("apiKey")).intValue();
            typesInJars.add(type);
            RecordSchema table = set.forType(type);
            assertThat(table).as("table for %s type %d", dir, type).isNotNull();
            assertThat(table.inKafka440()).isTrue();
            assertThat(value.get("apiKey")).isEqualTo(key.get("apiKey"));
            assertThat(key.get("type")).isEqualTo("coordinator-key");
            assertThat(value.get("type")).isEqualTo("coordinator-value");
            assertThat(key.get("validVersions")).as(name).isEqualTo("0");
            assertThat(key.get("flexibleVersions")).as(name).isEqualTo("none");
            assertThat(table.name() + "Key").isEqualTo(name);
            assertThat(table.valueVersions()).as(name).isEqualTo(Versions.parse((String) value.get("validVersions")));
            assertThat(table.flexibleVersions()).as(name).isEqualTo(Versions.parse((String) value.get("flexibleVersions")));
            compareStruct(name, table.key(), fields(key), commonStructs(key));
            compareStruct((String) value.get("name"), table.value(), fields(value), commonStructs(value));
        }
        TreeSet<Integer> typesInTables = new TreeSet<>();
        for (RecordSchema r : set.records()) {
            if (r.inKafka440()) {
                typesInTables.add((int) r.type());
            }
        }
        assertThat(typesInTables).isEqualTo(typesInJars);
        assertThat(typesInJars).hasSize(expectedTypes);
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
