package io.segscope.format.coordinator;

/**
 * A record whose key and value parsed with a known schema.
 *
 * @param topic the coordinator topic
 * @param schema the record type's schema
 * @param key the key struct
 * @param valueVersion the int16 value version, or -1 for a tombstone
 * @param value the value struct, or null for a tombstone (null record value)
 * @param keyTrailingBytes bytes left in the key after its struct (Kafka ignores them)
 * @param valueTrailingBytes bytes left in the value after its struct (Kafka ignores them)
 */
public record Decoded(CoordinatorTopic topic, RecordSchema schema, StructValue key, short valueVersion,
                      StructValue value, int keyTrailingBytes, int valueTrailingBytes) implements CoordinatorResult {

    @Override
    public short recordType() {
        return schema.type();
    }

    @Override
    public StructValue keyStruct() {
        return key;
    }

    public boolean isTombstone() {
        return value == null;
    }

    /** Tagged fields with tags this schema does not know, skipped anywhere in the value. */
    public int unknownTaggedFields() {
        return value == null ? 0 : value.totalUnknownTaggedFields();
    }
}
