package io.segscope.format.json;

import io.segscope.format.coordinator.StructValue;
import io.segscope.format.coordinator.metadata.ControlValue;
import io.segscope.format.coordinator.metadata.MetadataDecoded;

/**
 * JSON text of KRaft metadata records and control record values, byte-identical to the JSON Kafka
 * 4.4.0's DumpLogSegments prints: the {@code --cluster-metadata-decoder} payload
 * {@code {"type":"<MetadataRecordType name>","version":<n>,"data":{...}}} ({@link #payloadText}) and
 * the data of a KRaft control record ({@link #controlDataText}); the lines around them are the
 * inspector's {@code --format kafka} writer's.
 * Structs are written as Kafka's generated {@code JsonConverter.write(message, version)} does:
 * fields in schema order under their schema names with the first letter lower-cased, only those
 * of the version, tagged fields only when they differ from their default; uuids URL-safe base64
 * without padding, bytes standard base64. Written with {@link JsonOut}.
 */
public final class MetadataJson {
    private static final JsonOut.Name TYPE = JsonOut.name("type");
    private static final JsonOut.Name VERSION = JsonOut.name("version");
    private static final JsonOut.Name DATA = JsonOut.name("data");
    private MetadataJson() {
    }

    /**
     * Writes a struct as {@code JsonConverter.write} does at {@code version}, which must lie in
     * the schema's valid versions (use the schema's {@code layoutVersion}).
     */
    public static void writeStruct(JsonOut g, StructValue v, int version) {
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
            g.writeStringField(TYPE, d.typeName());
            g.writeNumberField(VERSION, d.version());
            g.writeFieldName(DATA);
            writeStruct(g, d.value(), d.value().version());
            g.writeEndObject();
        });
    }

    /** The data object of a KRaft control value, at the version Kafka prints it at. */
    public static void writeControlData(JsonOut g, ControlValue.Message m) {
        writeStruct(g, m.value(), m.schema().layoutVersion(m.printVersion()));
    }

    /** {@link #writeControlData} as text. */
    public static String controlDataText(ControlValue.Message m) {
        return StructJson.render(g -> writeControlData(g, m));
    }
}
