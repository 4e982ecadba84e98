package io.segscope.format.coordinator.metadata;

import io.segscope.format.coordinator.Field;
import io.segscope.format.coordinator.MalformedException;
import io.segscope.format.coordinator.StructReader;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.coordinator.metadata.ControlValueSchemas.ControlValueSchema;
import io.segscope.format.record.Batch;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.LogRecord;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/**
 * Decodes the value of a control record (docs/format.md 1.3) as Kafka 4.4.0's
 * {@code ControlRecordUtils} and {@code EndTransactionMarker} do:
 * <ul>
 * <li>KRaft values (types 2-6) are the bare struct, read at version 0 whatever their
 *     {@code Version} field says; bytes after the struct are ignored;</li>
 * <li>COMMIT and ABORT hold {@code int16 version} (negative fails; above 0 is read as 0) and
 *     {@code int32 coordinatorEpoch} ({@link ControlRecord#endTxnMarker} parses them);</li>
 * <li>other type ids are unknown and have no value to read.</li>
 * </ul>
 * Every outcome is a {@link ControlValue}; no bytes inside the given slice make it throw.
 * Stateless and thread-safe.
 */
public final class ControlValueDecoder {
    private ControlValueDecoder() {
    }

    /**
     * Decodes the value of a record of a control batch; the key must hold a type id
     * ({@link ControlRecord#typeId} throws a {@link io.segscope.format.error.FormatException} for a
     * key Kafka rejects: shorter than 4 bytes or a negative version).
     */
    public static ControlValue decode(Batch batch, LogRecord record) {
        return decode(ControlRecord.typeId(batch, record), record.buffer(), record.valueOffset(), record.valueLength());
    }

    /**
     * Decodes a control record's value.
     *
     * @param typeId the type id from the record's key ({@link ControlRecord#typeId})
     * @param buf the buffer holding the value, or null for a null value
     * @param len the value length, or -1 for a null value
     */
    public static ControlValue decode(short typeId, ByteBuffer buf, int off, int len) {
        ControlRecord.Type type = ControlRecord.Type.of(typeId);
        boolean isNull = buf == null || len < 0;
        switch (type) {
            case UNKNOWN:
                return new ControlValue.UnknownType(typeId);
            case ABORT:
            case COMMIT: {
                ControlRecord.EndTxnMarkerValue marker = ControlRecord.endTxnMarker(buf, off, len);
                if (marker instanceof ControlRecord.MarkerDefect d) {
                    return new ControlValue.Malformed(type, d.message(), d.field(), d.position());
                }
                ControlRecord.EndTxnMarker m = (ControlRecord.EndTxnMarker) marker;
                return new ControlValue.EndTxnMarker(type, m.version(), m.coordinatorEpoch());
            }
            default: {
                ControlValueSchema schema = ControlValueSchemas.forType(type);
                if (isNull) {
                    return new ControlValue.Malformed(type, "the record has a null value", null, -1);
                }
                int[] consumed = new int[1];
                StructValue value;
                try {
                    // every control value schema is flexible at its read version 0
                    value = new StructReader(true).read(schema.value(), schema.readVersion(), true, buf, off, len, consumed);
                } catch (MalformedException e) {
                    return new ControlValue.Malformed(type, e.getMessage(), e.field(), e.position() - off);
                }
                short printVersion = (Short) value.get("Version");
                String nonDefault = nonDefaultAbsentField(value, schema.layoutVersion(printVersion), schema.value().name());
                if (nonDefault != null) {
                    return new ControlValue.Malformed(type, "Attempted to write a non-default " + nonDefault + " at version "
                            + printVersion, nonDefault, -1);
                }
                return new ControlValue.Message(schema, value, printVersion, len - consumed[0]);
            }
        }
    }

    /**
     * The path of a field that holds a non-default value but does not exist at the print version
     * (Kafka's JsonConverter then throws), or null.
     */
    private static String nonDefaultAbsentField(StructValue v, short version, String path) {
        List<Field> fields = v.schema().fields();
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            Object value = v.get(i);
            boolean present = f.versions().contains(version) || f.taggedVersions().contains(version);
            if (!present && !Objects.equals(value, f.defaultValue())) {
                return path + "." + f.jsonName();
            }
            if (present && value instanceof StructValue) {
                String p = nonDefaultAbsentField((StructValue) value, version, path + "." + f.jsonName());
                if (p != null) {
                    return p;
                }
            } else if (present && value instanceof List) {
                for (Object e : (List<?>) value) {
                    if (e instanceof StructValue) {
                        String p = nonDefaultAbsentField((StructValue) e, version, path + "." + f.jsonName());
                        if (p != null) {
                            return p;
                        }
                    }
                }
            }
        }
        return null;
    }
}
