package io.segscope.format.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.coordinator.metadata.ControlValue;
import io.segscope.format.coordinator.metadata.ControlValueDecoder;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataResult;
import io.segscope.format.coordinator.metadata.MetadataUnknown;
import java.io.IOException;
import java.nio.ByteBuffer;

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
    private MetadataJson() {
    }

    /**
     * Writes a struct as {@code JsonConverter.write} does at {@code version}, which must lie in
     * the schema's valid versions (use the schema's {@code layoutVersion}).
     */
    public static void writeStruct(JsonGenerator g, StructValue v, int version) throws IOException {
        StructJson.writeStruct(g, v, version, StructJson.Nesting.OUTER_VERSION);
    }

    /** Only the record's {@code data} object: {@code MetadataJsonConverters.writeJson(message, version)}. */
    public static String dataText(MetadataDecoded d) {
        return StructJson.render(g -> writeStruct(g, d.value(), d.value().version()));
    }

    /** {@code {"type":"PARTITION_RECORD","version":2,"data":{...}}}. */
    public static String payloadText(MetadataDecoded d) {
        return StructJson.render(g -> {
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
        return StructJson.render(g -> writeControlData(g, m));
    }

    /** {@link #controlText} of the value decoded from {@code buf[off, off+len)} (null buffer or -1: null value). */
    public static String controlText(short typeId, ByteBuffer buf, int off, int len) {
        return controlText(ControlValueDecoder.decode(typeId, buf, off, len));
    }
}
