package io.segscope.format.json;

import io.segscope.format.coordinator.Bytes;
import io.segscope.format.coordinator.EmbeddedProtocol;
import io.segscope.format.coordinator.Field;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.io.KafkaUuid;
import java.util.List;
import java.util.Objects;

/**
 * The struct writer behind {@link CoordinatorJson} and {@link MetadataJson}: a {@link StructValue}
 * as Kafka's generated {@code JsonConverter.write(message, version)} prints it (docs/format.md
 * 2.9). Fields in schema order under their schema names with the first letter lower-cased, only
 * those of the version, tagged fields only when they differ from their default (a null one is
 * printed as {@code null} unless null is the default); uuids URL-safe base64 without padding, bytes
 * standard base64; a consumer embedded protocol as its struct when DumpLogSegments decodes it,
 * else as base64.
 */
final class StructJson {
    /** Each schema field's JSON name, encoded once (fields are compared by identity). */
    private static final java.util.Map<Field, JsonOut.Name> NAMES = new java.util.concurrent.ConcurrentHashMap<>();
    /** The field's JSON name, encoded once. */
    static JsonOut.Name name(Field f) {
        return NAMES.computeIfAbsent(f, k -> JsonOut.name(k.jsonName()));
    }

    /** The version a nested struct is written at. */
    enum Nesting {
        /** Each struct at the version it was read at (a field's default struct is at version 0). */
        OWN_VERSION,
        /** Every nested struct at the version given for the outermost one. */
        OUTER_VERSION
    }

    private StructJson() {
    }

    /**
     * Writes {@code v} at {@code version}. A field with value names ({@link Field#named}, e.g. a
     * {@code TransactionLogValue}'s {@code TransactionStatus}) is written as the name.
     */
    static void writeStruct(JsonOut g, StructValue v, int version, Nesting nesting) {
        g.writeStartObject();
        List<Field> fields = v.schema().fields();
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            Object value = v.get(i);
            if (f.taggedVersions().contains(version)) {
                if (Objects.equals(value, f.defaultValue())) {
                    continue;
                }
            } else if (!f.versions().contains(version)) {
                continue;
            }
            g.writeFieldName(name(f));
            if (f.hasValueNames()) {
                g.writeString(f.valueName(value));
            } else {
                writeValue(g, value, version, nesting);
            }
        }
        g.writeEndObject();
    }

    private static void writeValue(JsonOut g, Object value, int version, Nesting nesting) {
        if (value == null) {
            g.writeNull();
        } else if (value instanceof Long) {
            g.writeNumber((Long) value);
        } else if (value instanceof Integer) {
            g.writeNumber((Integer) value);
        } else if (value instanceof Short) {
            g.writeNumber((Short) value);
        } else if (value instanceof Byte) {
            g.writeNumber((Byte) value);
        } else if (value instanceof String) {
            g.writeString((String) value);
        } else if (value instanceof KafkaUuid) {
            g.writeString(value.toString());
        } else if (value instanceof Bytes) {
            g.writeBinary(((Bytes) value).array());
        } else if (value instanceof StructValue) {
            StructValue s = (StructValue) value;
            writeStruct(g, s, nesting == Nesting.OWN_VERSION ? s.version() : version, nesting);
        } else if (value instanceof EmbeddedProtocol) {
            EmbeddedProtocol p = (EmbeddedProtocol) value;
            if (p.dumpToolReadable()) {
                writeStruct(g, p.struct(), p.struct().version(), nesting);
            } else {
                g.writeBinary(p.raw().array());
            }
        } else if (value instanceof List) {
            g.writeStartArray();
            for (Object e : (List<?>) value) {
                writeValue(g, e, version, nesting);
            }
            g.writeEndArray();
        } else if (value instanceof Boolean) {
            g.writeBoolean((Boolean) value);
        } else if (value instanceof Double) {
            g.writeNumber((Double) value);
        } else {
            throw new IllegalStateException("unexpected value " + value.getClass());
        }
    }

    /** What {@link #render} writes. */
    interface Body {
        void write(JsonOut g);
    }

    /** The compact JSON text {@code body} writes. */
    static String render(Body body) {
        JsonOut g = new JsonOut(256);
        body.write(g);
        return g.toString();
    }
}
