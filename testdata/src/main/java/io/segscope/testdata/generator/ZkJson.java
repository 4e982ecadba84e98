package io.segscope.testdata.generator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;

/**
 * The ZooKeeper corpus's JSON layout: a top-level object with one field per line, and each
 * element of a top-level array of objects (writes, nodes, offsets) compact on a line of its own,
 * so that the files stay small and a diff shows one write or znode per line. Strings are escaped by
 * jackson-core; non-ASCII text is written as UTF-8.
 */
final class ZkJson {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();

    private ZkJson() {
    }

    static void write(Path file, Map<String, Object> top) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("{\n");
            int i = 0;
            for (Map.Entry<String, Object> e : top.entrySet()) {
                w.write("  " + compact(e.getKey()) + ": ");
                Object v = e.getValue();
                if (v instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof Map) {
                    w.write("[\n");
                    for (int j = 0; j < l.size(); j++) {
                        w.write("    " + compact(l.get(j)) + (j + 1 < l.size() ? ",\n" : "\n"));
                    }
                    w.write("  ]");
                } else {
                    w.write(compact(v));
                }
                w.write(++i < top.size() ? ",\n" : "\n");
            }
            w.write("}\n");
        }
    }

    static String compact(Object v) throws IOException {
        StringWriter s = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(s)) {
            value(g, v);
        }
        return s.toString();
    }

    private static void value(JsonGenerator g, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                value(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof Collection<?> c) {
            g.writeStartArray();
            for (Object o : c) {
                value(g, o);
            }
            g.writeEndArray();
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short) {
            g.writeNumber(((Number) v).longValue());
        } else if (v instanceof Number n) {
            g.writeNumber(n.doubleValue());
        } else {
            g.writeString(v.toString());
        }
    }
}
