package io.segscope.format.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kafka 4.4.0's message schema files as vendored under {@code testdata/schemas/kafka-4.4.0}, read
 * as plain maps, and the field-by-field comparison of one with segscope's {@link StructSchema}
 * tables (name, type, versions, nullable versions, tag, tagged versions, default, ignorable,
 * nested structs, inline or common).
 */
public final class KafkaSchemaFiles {
    /** The vendored schema tree. */
    public static final Path SCHEMAS = Path.of(System.getProperty("segscope.root", "..")).resolve("testdata/schemas/kafka-4.4.0");
    private static final JsonFactory JSON = JsonFactory.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).build();

    private KafkaSchemaFiles() {
    }

    /** Asserts that {@code table} has the fields of the message or struct {@code root} (with its common structs). */
    public static void compareStruct(String path, StructSchema table, Map<String, Object> root) {
        compareStruct(path, table, fields(root), commonStructs(root));
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
    public static Map<String, Object> read(Path file) throws IOException {
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
