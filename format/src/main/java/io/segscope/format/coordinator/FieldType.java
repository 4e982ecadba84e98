package io.segscope.format.coordinator;

/**
 * The field types of Kafka's message generator as they appear in coordinator record schemas
 * (docs/format.md 2.1: encodings of string/bytes/array in non-flexible and flexible versions).
 */
public enum FieldType {
    BOOL("bool"),
    INT8("int8"),
    INT16("int16"),
    UINT16("uint16"),
    INT32("int32"),
    INT64("int64"),
    FLOAT64("float64"),
    UUID("uuid"),
    STRING("string"),
    BYTES("bytes"),
    /** A nested struct; {@link Field#struct()} describes it. */
    STRUCT(null),
    /** An array; {@link Field#elementType()} (and {@link Field#struct()} for struct elements). */
    ARRAY(null);

    private final String schemaName;

    FieldType(String schemaName) {
        this.schemaName = schemaName;
    }

    /** The type name used in Kafka's JSON schemas, or null for struct and array. */
    public String schemaName() {
        return schemaName;
    }
}
