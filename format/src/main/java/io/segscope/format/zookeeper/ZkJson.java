package io.segscope.format.zookeeper;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The small JSON values Kafka kept in znodes, read into maps, lists, strings, numbers and booleans. */
final class ZkJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private ZkJson() {
    }

    /** The value, or null when the text is not JSON. */
    static Object parse(String text) {
        if (text == null) {
            return null;
        }
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return null;
            }
            Object v = value(p, t, 0);
            return p.nextToken() == null ? v : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static Object value(JsonParser p, JsonToken t, int depth) throws IOException {
        if (depth > 32) {
            throw new IOException("too deep");
        }
        switch (t) {
            case START_OBJECT: {
                Map<String, Object> m = new LinkedHashMap<>();
                while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                    String k = p.currentName();
                    m.put(k, value(p, p.nextToken(), depth + 1));
                }
                return m;
            }
            case START_ARRAY: {
                List<Object> l = new ArrayList<>();
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    l.add(value(p, t, depth + 1));
                }
                return l;
            }
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
                return p.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return null;
            default:
                throw new IOException("unexpected " + t);
        }
    }

    static Map<?, ?> object(Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }
}
