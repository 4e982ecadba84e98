package io.segscope.inspector;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parses jsonl output into maps (numbers as Long, arrays as lists, null as null), for assertions. */
public final class JsonLines {
    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonLines() {
    }

    public static List<Map<String, Object>> parse(String text) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            try (JsonParser p = FACTORY.createParser(line)) {
                p.nextToken();
                @SuppressWarnings("unchecked")
                Map<String, Object> m = (Map<String, Object>) value(p);
                out.add(m);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + line, e);
            }
        }
        return out;
    }

    private static Object value(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                Map<String, Object> m = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    m.put(name, value(p));
                }
                return m;
            }
            case START_ARRAY -> {
                List<Object> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    l.add(value(p));
                }
                return l;
            }
            case VALUE_NUMBER_INT -> {
                return p.getLongValue();
            }
            case VALUE_NULL -> {
                return null;
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return p.getBooleanValue();
            }
            default -> {
                return p.getText();
            }
        }
    }
}
