package io.segscope.format.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * JSON of what a {@link io.segscope.format.walk.spi.RecordDecoder} returns: maps (objects, in their
 * iteration order, keys by {@code String.valueOf}), lists and arrays of objects, strings, numbers,
 * booleans and null; anything else as the string of its {@code toString()}.
 */
public final class PluginJson {
    private static final int MAX_DEPTH = 64;

    private PluginJson() {
    }

    /** Writes {@code v} as one JSON value. */
    public static void write(JsonOut g, Object v) {
        write(g, v, 0);
    }

    /** {@code v} as compact JSON text. */
    public static String text(Object v) {
        return StructJson.render(g -> write(g, v, 0));
    }

    /** What Kafka's tool style prints for a decoder's result: strings as they are, the rest as JSON. */
    public static String plainText(Object v) {
        return v instanceof String s ? s : text(v);
    }

    private static void write(JsonOut g, Object v, int depth) {
        if (depth > MAX_DEPTH) {
            g.writeString("...");
            return;
        }
        if (v == null) {
            g.writeNull();
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            g.writeNumber(((Number) v).longValue());
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isFinite(d)) {
                g.writeNumber(d);
            } else {
                g.writeString(Double.toString(d));
            }
        } else if (v instanceof BigInteger b) {
            g.writeNumber(b);
        } else if (v instanceof BigDecimal b) {
            g.writeNumber(b);
        } else if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                write(g, e.getValue(), depth + 1);
            }
            g.writeEndObject();
        } else if (v instanceof List<?> l) {
            g.writeStartArray();
            for (Object o : l) {
                write(g, o, depth + 1);
            }
            g.writeEndArray();
        } else if (v instanceof Object[] a) {
            write(g, java.util.Arrays.asList(a), depth);
        } else {
            g.writeString(v.toString());
        }
    }
}
