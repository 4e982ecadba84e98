package io.segscope.format.json;

import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.StructValue;

/**
 * JSON rendering of decoded coordinator records, byte-identical to the JSON Kafka 4.4.0's
 * {@code DumpLogSegments --offsets-decoder} / {@code --transaction-log-decoder} /
 * {@code --share-group-state-decoder} print (docs/format.md 2.9; the lines around it are the
 * inspector's {@code --format kafka} writer's):
 * <ul>
 * <li>key: {@code {"type":"<type>","data":{...}}}, value: {@code {"version":"<version>","data":{...}}};</li>
 * <li>field names are the schema names with the first letter lower-cased, in schema order, and
 *     only the fields that exist in the version;</li>
 * <li>a tagged field is left out when it equals its default (a null one is printed as
 *     {@code null} unless null is the default);</li>
 * <li>uuids are URL-safe base64 without padding, bytes standard base64;</li>
 * <li>a classic group with protocolType {@code consumer} shows members' subscription and
 *     assignment as objects when they parse;</li>
 * <li>{@code transactionStatus} is the state name ({@code "Ongoing"}), or the id as a string.</li>
 * </ul>
 * Written with {@link JsonOut}.
 */
public final class CoordinatorJson {
    /** The text DumpLogSegments prints for a tombstone value. */
    public static final String DELETE = "<DELETE>";
    private static final JsonOut.Name TYPE = JsonOut.name("type");
    private static final JsonOut.Name VERSION = JsonOut.name("version");
    private static final JsonOut.Name DATA = JsonOut.name("data");

    private CoordinatorJson() {
    }

    /** Writes {@code {"type":"N","data":{...}}}. */
    public static void writeKey(JsonOut g, Decoded d) {
        writeLabelled(g, TYPE, d.recordType(), d.key());
    }

    /** Writes {@code {"version":"N","data":{...}}}, or JSON null for a tombstone. */
    public static void writeValue(JsonOut g, Decoded d) {
        if (d.value() == null) {
            g.writeNull();
            return;
        }
        writeLabelled(g, VERSION, d.valueVersion(), d.value());
    }

    /** {@code {"<label>":"<number>","data":{...}}}, the number as a string as Kafka prints it. */
    private static void writeLabelled(JsonOut g, JsonOut.Name label, short number, StructValue data) {
        g.writeStartObject();
        g.writeStringField(label, Short.toString(number));
        g.writeFieldName(DATA);
        writeStruct(g, data);
        g.writeEndObject();
    }

    /** Writes one struct as Kafka's JsonConverter does, at the version it was read at. */
    public static void writeStruct(JsonOut g, StructValue v) {
        StructJson.writeStruct(g, v, v.version(), StructJson.Nesting.OWN_VERSION);
    }

    /** The key as compact JSON text: {@code {"type":"1","data":{"group":"g","topic":"t","partition":0}}}. */
    public static String keyText(Decoded d) {
        return StructJson.render(g -> writeKey(g, d));
    }

    /** The value as compact JSON text, or {@value #DELETE} for a tombstone. */
    public static String valueText(Decoded d) {
        return d.value() == null ? DELETE : StructJson.render(g -> writeValue(g, d));
    }

    /** Only the {@code data} object of the key. */
    public static String keyDataText(Decoded d) {
        return StructJson.render(g -> writeStruct(g, d.key()));
    }

    /** One struct (e.g. the key of a record whose value did not decode) as compact JSON text. */
    public static String structText(StructValue v) {
        return StructJson.render(g -> writeStruct(g, v));
    }

    /** Only the {@code data} object of the value (null for a tombstone). */
    public static String valueDataText(Decoded d) {
        return d.value() == null ? null : StructJson.render(g -> writeStruct(g, d.value()));
    }
}
