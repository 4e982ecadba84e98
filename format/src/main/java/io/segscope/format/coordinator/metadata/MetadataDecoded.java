package io.segscope.format.coordinator.metadata;

import io.segscope.format.coordinator.StructValue;

/**
 * A metadata record that Kafka 4.4.0 reads.
 *
 * @param schema the record type
 * @param version the version the record is labelled with; outside {@code schema.validVersions()}
 *     Kafka still reads it, with the field layout of {@link MetadataRecordSchema#layoutVersion}
 * @param value the struct, read at the layout version ({@link StructValue#version()})
 */
public record MetadataDecoded(MetadataRecordSchema schema, short version, StructValue value) implements MetadataResult {

    @Override
    public short apiKey() {
        return schema.apiKey();
    }

    /** The {@code MetadataRecordType} name DumpLogSegments prints, e.g. {@code PARTITION_RECORD}. */
    public String typeName() {
        return schema.typeName();
    }

    /** Whether the version is one the 4.4.0 schema defines (a newer Kafka may write higher ones). */
    public boolean versionKnown() {
        return schema.validVersions().contains(version);
    }

    /** Tagged fields with tags the schema does not know, skipped anywhere in the value. */
    public int unknownTaggedFields() {
        return value.totalUnknownTaggedFields();
    }
}
