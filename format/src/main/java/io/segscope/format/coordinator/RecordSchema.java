package io.segscope.format.coordinator;

/**
 * One coordinator record type: the int16 type id that prefixes the key, the key struct (always
 * version 0, never flexible), and the value struct with its valid and flexible versions
 * (docs/format.md 2.1, 2.5).
 *
 * @param type the record type (Kafka's {@code apiKey})
 * @param name the record name without {@code Key}/{@code Value}, e.g. {@code OffsetCommit}
 * @param key the key struct
 * @param valueVersions the value versions Kafka accepts
 * @param flexibleVersions the value versions that use the flexible encoding
 * @param value the value struct
 * @param inKafka440 false for types that earlier releases defined and 4.4.0 no longer has
 */
public record RecordSchema(short type, String name, StructSchema key, Versions valueVersions,
                           Versions flexibleVersions, StructSchema value, boolean inKafka440) {

    public static RecordSchema record(int type, String name, StructSchema key, String valueVersions,
                                      String flexibleVersions, StructSchema value) {
        return new RecordSchema((short) type, name, key, Versions.parse(valueVersions),
                Versions.parse(flexibleVersions), value, true);
    }

    /** The same schema marked as defined only by releases before 4.4.0. */
    public RecordSchema historical() {
        return new RecordSchema(type, name, key, valueVersions, flexibleVersions, value, false);
    }
}
