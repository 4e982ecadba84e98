package io.segscope.format.coordinator;

import java.util.List;

/** An ordered list of {@link Field}s: a key, a value, or a struct nested in one. */
public final class StructSchema {
    private final String name;
    private final List<Field> fields;
    private final KeyFields keyFields;

    private StructSchema(String name, List<Field> fields) {
        this.name = name;
        this.fields = fields;
        this.keyFields = KeyFields.of(this);
    }

    public static StructSchema schema(String name, Field... fields) {
        return new StructSchema(name, List.of(fields));
    }

    public String name() { return name; }
    public List<Field> fields() { return fields; }
    /** For a key struct: which fields hold the owner id, topic, partition and member. */
    public KeyFields keyFields() { return keyFields; }

    public int indexOf(String fieldName) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(fieldName)) {
                return i;
            }
        }
        return -1;
    }

    /** A struct with every field at its default: what Kafka's generated no-argument constructor builds. */
    public StructValue defaults() {
        Object[] values = new Object[fields.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = fields.get(i).defaultValue();
        }
        return new StructValue(this, (short) 0, values, 0);
    }

    @Override
    public String toString() {
        return name + fields;
    }
}
