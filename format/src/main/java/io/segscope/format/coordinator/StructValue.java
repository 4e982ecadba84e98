package io.segscope.format.coordinator;

import io.segscope.format.io.KafkaUuid;
import java.util.Arrays;

/**
 * A decoded struct: one value per field of its {@link StructSchema}, in schema order. Fields absent
 * at {@link #version()} (older version, missing tag) hold their default, as Kafka's generated
 * classes do. Values are {@code Boolean}, {@code Byte} (int8), {@code Short} (int16),
 * {@code Integer} (int32, uint16), {@code Long}, {@code Double}, {@code String}, {@link KafkaUuid},
 * {@link Bytes}, {@code java.util.List}, {@link StructValue}, {@link EmbeddedProtocol}, or null.
 */
public final class StructValue {
    private final StructSchema schema;
    private final short version;
    private final Object[] values;
    private final int unknownTaggedFields;

    public StructValue(StructSchema schema, short version, Object[] values, int unknownTaggedFields) {
        this.schema = schema;
        this.version = version;
        this.values = values;
        this.unknownTaggedFields = unknownTaggedFields;
    }

    public StructSchema schema() { return schema; }
    /** The version this struct was read at (0 for keys). */
    public short version() { return version; }
    /** Number of tagged fields with tags this schema does not know, skipped in this struct (not nested ones). */
    public int unknownTaggedFields() { return unknownTaggedFields; }

    public Object get(int index) {
        return values[index];
    }

    /** The value of the field with this schema name (e.g. {@code "GroupId"}); IllegalArgumentException if none. */
    public Object get(String fieldName) {
        int i = schema.indexOf(fieldName);
        if (i < 0) {
            throw new IllegalArgumentException(schema.name() + " has no field " + fieldName);
        }
        return values[i];
    }

    public String getString(String fieldName) { return (String) get(fieldName); }
    public int getInt(String fieldName) { return ((Number) get(fieldName)).intValue(); }
    public long getLong(String fieldName) { return ((Number) get(fieldName)).longValue(); }

    /** A copy with one value replaced (used to attach decoded consumer protocol bytes). */
    public StructValue with(int index, Object value) {
        Object[] copy = values.clone();
        copy[index] = value;
        return new StructValue(schema, version, copy, unknownTaggedFields);
    }

    /** Unknown tagged fields in this struct and every nested struct. */
    public int totalUnknownTaggedFields() {
        int n = unknownTaggedFields;
        for (Object v : values) {
            n += nestedUnknown(v);
        }
        return n;
    }

    private static int nestedUnknown(Object v) {
        if (v instanceof StructValue) {
            return ((StructValue) v).totalUnknownTaggedFields();
        }
        if (v instanceof java.util.List) {
            int n = 0;
            for (Object e : (java.util.List<?>) v) {
                n += nestedUnknown(e);
            }
            return n;
        }
        return 0;
    }

    /** Equality of field values (schema and version are not compared: a fresh struct equals a read one). */
    @Override
    public boolean equals(Object o) {
        return o instanceof StructValue && ((StructValue) o).schema == schema && Arrays.equals(values, ((StructValue) o).values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(schema.name()).append('{');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(schema.fields().get(i).name()).append('=').append(values[i]);
        }
        return sb.append('}').toString();
    }
}
