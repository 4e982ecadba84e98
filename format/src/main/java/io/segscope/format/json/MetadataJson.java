package io.segscope.format.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.coordinator.Bytes;
import io.segscope.format.coordinator.Field;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.coordinator.Uuid;
import io.segscope.format.coordinator.metadata.ControlValue;
import io.segscope.format.coordinator.metadata.ControlValueDecoder;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataResult;
import io.segscope.format.coordinator.metadata.MetadataUnknown;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/**
 * JSON text of KRaft metadata records and control record values, byte-identical to what Kafka
 * 4.4.0's DumpLogSegments prints:
 * <ul>
 * <li>{@code --cluster-metadata-decoder} payload: {@code {"type":"<MetadataRecordType name>","version":<n>,"data":{...}}},
 *     or {@code Error at <offset>, skipping. <message>} ({@link #dumpPayloadText});</li>
 * <li>after a control record's metadata: {@code " LeaderChange: {...}"}, {@code " SnapshotHeader {...}"},
 *     {@code " SnapshotFooter {...}"}, {@code " KRaftVersion {...}"}, {@code " KRaftVoters {...}"},
 *     {@code " endTxnMarker: COMMIT coordinatorEpoch: 5"}, {@code " controlType: UNKNOWN(9)"}
 *     ({@link #controlText}).</li>
 * </ul>
 * Structs are written as Kafka's generated {@code JsonConverter.write(message, version)} does:
 * fields in schema order under their schema names with the first letter lower-cased, only those
 * of the version, tagged fields only when they differ from their default; uuids URL-safe base64
 * without padding, bytes standard base64. Uses jackson-core's streaming generator only.
 */
public final class MetadataJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private MetadataJson() {
    }

    /**
     * Writes a struct as {@code JsonConverter.write} does at {@code version}, which must lie in
     * the schema's valid versions (use the schema's {@code layoutVersion}).
     */
    public static void writeStruct(JsonGenerator g, StructValue v, int version) throws IOException {
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
            g.writeFieldName(f.jsonName());
            writeValue(g, value, version);
        }
        g.writeEndObject();
    }

    private static void writeValue(JsonGenerator g, Object value, int version) throws IOException {
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
        } else if (value instanceof Uuid) {
            g.writeString(value.toString());
        } else if (value instanceof Bytes) {
            g.writeBinary(((Bytes) value).array());
        } else if (value instanceof StructValue) {
            writeStruct(g, (StructValue) value, version);
        } else if (value instanceof List) {
            g.writeStartArray();
            for (Object e : (List<?>) value) {
                writeValue(g, e, version);
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

    /** Only the record's {@code data} object: {@code MetadataJsonConverters.writeJson(message, version)}. */
    public static String dataText(MetadataDecoded d) {
        return render(g -> writeStruct(g, d.value(), d.value().version()));
    }

    /** {@code {"type":"PARTITION_RECORD","version":2,"data":{...}}}. */
    public static String payloadText(MetadataDecoded d) {
        return render(g -> {
            g.writeStartObject();
            g.writeStringField("type", d.typeName());
            g.writeNumberField("version", d.version());
            g.writeFieldName("data");
            writeStruct(g, d.value(), d.value().version());
            g.writeEndObject();
        });
    }

    /**
     * The {@code payload:} text DumpLogSegments 4.4.0 prints with {@code --cluster-metadata-decoder}
     * for the record at {@code offset}: {@link #payloadText}, or {@code Error at <offset>, skipping. <message>}.
     */
    public static String dumpPayloadText(MetadataResult r, long offset) {
        if (r instanceof MetadataDecoded) {
            return payloadText((MetadataDecoded) r);
        }
        return "Error at " + offset + ", skipping. " + ((MetadataUnknown) r).kafkaMessage();
    }

    /**
     * The text DumpLogSegments 4.4.0 prints after a control record's metadata (leading space
     * included), or null for a {@link ControlValue.Malformed} value, on which it stops with an
     * exception.
     */
    public static String controlText(ControlValue v) {
        if (v instanceof ControlValue.Message) {
            ControlValue.Message m = (ControlValue.Message) v;
            return m.schema().label() + controlDataText(m);
        }
        if (v instanceof ControlValue.EndTxnMarker) {
            ControlValue.EndTxnMarker e = (ControlValue.EndTxnMarker) v;
            return " endTxnMarker: " + e.type() + " coordinatorEpoch: " + e.coordinatorEpoch();
        }
        if (v instanceof ControlValue.UnknownType) {
            return " controlType: UNKNOWN(" + v.typeId() + ")";
        }
        return null;
    }

    /** The data object of a KRaft control value, at the version Kafka prints it at. */
    public static void writeControlData(JsonGenerator g, ControlValue.Message m) throws IOException {
        writeStruct(g, m.value(), m.schema().layoutVersion(m.printVersion()));
    }

    /** {@link #writeControlData} as text. */
    public static String controlDataText(ControlValue.Message m) {
        return render(g -> writeControlData(g, m));
    }

    /** {@link #controlText} of the value decoded from {@code buf[off, off+len)} (null buffer or -1: null value). */
    public static String controlText(short typeId, ByteBuffer buf, int off, int len) {
        return controlText(ControlValueDecoder.decode(typeId, buf, off, len));
    }

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static String render(Body body) {
        StringWriter w = new StringWriter(128);
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }
}
