package io.segscope.format.coordinator.metadata;

import io.segscope.format.coordinator.StructSchema;
import io.segscope.format.coordinator.Versions;

/**
 * One KRaft metadata record type of {@code __cluster_metadata} and of metadata snapshots
 * (docs/format.md 2.1 encodings): its {@code apiKey}, its schema name, the name of Kafka's
 * {@code MetadataRecordType} constant that DumpLogSegments prints, its versions and its struct.
 *
 * @param apiKey the id that follows the frame version in a record value
 * @param name the schema name, e.g. {@code PartitionRecord}
 * @param typeName the {@code MetadataRecordType} constant name, e.g. {@code PARTITION_RECORD}
 * @param validVersions the versions Kafka 4.4.0 defines
 * @param flexibleVersions the versions that use the flexible encoding (every version, for all 4.4.0 types)
 * @param value the record's struct
 */
public record MetadataRecordSchema(short apiKey, String name, String typeName, Versions validVersions,
                                   Versions flexibleVersions, StructSchema value) {

    public static MetadataRecordSchema record(int apiKey, String name, String typeName, String validVersions,
                                              String flexibleVersions, StructSchema value) {
        return new MetadataRecordSchema((short) apiKey, name, typeName, Versions.parse(validVersions),
                Versions.parse(flexibleVersions), value);
    }

    /**
     * The version whose field layout Kafka's generated reader and JsonConverter use for a record
     * labelled {@code version}: the version itself when valid, else the nearest valid one. The
     * generated code tests a field's version range only where it differs from the message's
     * valid versions, so a version above the highest reads like the highest and one below the
     * lowest like the lowest.
     */
    public short layoutVersion(int version) {
        return clamp(validVersions, version);
    }

    static short clamp(Versions valid, int version) {
        return (short) Math.max(valid.lowest(), Math.min(valid.highest(), version));
    }
}
