package io.segscope.format.coordinator.metadata;

import static io.segscope.format.coordinator.Field.field;
import static io.segscope.format.coordinator.Field.struct;
import static io.segscope.format.coordinator.Field.structs;
import static io.segscope.format.coordinator.FieldType.INT16;
import static io.segscope.format.coordinator.FieldType.INT32;
import static io.segscope.format.coordinator.FieldType.INT64;
import static io.segscope.format.coordinator.FieldType.STRING;
import static io.segscope.format.coordinator.FieldType.UINT16;
import static io.segscope.format.coordinator.FieldType.UUID;
import static io.segscope.format.coordinator.StructSchema.schema;

import io.segscope.format.coordinator.StructSchema;
import io.segscope.format.coordinator.Versions;
import io.segscope.format.record.ControlRecord;
import java.util.List;

/**
 * The values of KRaft control records (docs/format.md 1.3) in Kafka 4.4.0
 * ({@code common/message/*.json} in kafka-clients), checked against the vendored copies by
 * {@code MetadataSchemaTablesTest}. Each value is the bare struct (no version prefix); Kafka reads
 * it at {@link ControlValueSchema#readVersion()} and prints it at the version its own
 * {@code Version} field names.
 */
public final class ControlValueSchemas {
    private ControlValueSchemas() {
    }

    /**
     * One control record value type.
     *
     * @param type the control record type
     * @param value the struct
     * @param validVersions the versions the schema defines
     * @param readVersion the version Kafka's {@code ControlRecordUtils} reads every value at
     */
    public record ControlValueSchema(ControlRecord.Type type, StructSchema value, Versions validVersions,
                                     short readVersion) {
        /** The field layout the JsonConverter uses at {@code version} (clamped to the valid versions). */
        public short layoutVersion(int version) {
            return MetadataRecordSchema.clamp(validVersions, version);
        }
    }

    public static final ControlValueSchema LEADER_CHANGE = new ControlValueSchema(ControlRecord.Type.LEADER_CHANGE,
            leaderChangeMessage(), Versions.parse("0-1"), (short) 0);
    public static final ControlValueSchema SNAPSHOT_HEADER = new ControlValueSchema(ControlRecord.Type.SNAPSHOT_HEADER,
            snapshotHeaderRecord(), Versions.parse("0"), (short) 0);
    public static final ControlValueSchema SNAPSHOT_FOOTER = new ControlValueSchema(ControlRecord.Type.SNAPSHOT_FOOTER,
            snapshotFooterRecord(), Versions.parse("0"), (short) 0);
    public static final ControlValueSchema KRAFT_VERSION = new ControlValueSchema(ControlRecord.Type.KRAFT_VERSION,
            kRaftVersionRecord(), Versions.parse("0"), (short) 0);
    public static final ControlValueSchema KRAFT_VOTERS = new ControlValueSchema(ControlRecord.Type.KRAFT_VOTERS,
            votersRecord(), Versions.parse("0"), (short) 0);

    /** Every control value schema, by control type id (2 to 6). */
    public static final List<ControlValueSchema> ALL = List.of(LEADER_CHANGE, SNAPSHOT_HEADER, SNAPSHOT_FOOTER,
            KRAFT_VERSION, KRAFT_VOTERS);

    /** The schema of a control type, or null for ABORT, COMMIT and UNKNOWN. */
    public static ControlValueSchema forType(ControlRecord.Type type) {
        for (ControlValueSchema s : ALL) {
            if (s.type() == type) {
                return s;
            }
        }
        return null;
    }

    /** {@code LeaderChangeMessage}, versions 0-1, flexible 0+. */
    private static StructSchema leaderChangeMessage() {
        StructSchema voter = schema("Voter",
                field("VoterId", INT32, "0+"),
                field("VoterDirectoryId", UUID, "1+"));
        return schema("LeaderChangeMessage",
                field("Version", INT16, "0+"),
                field("LeaderId", INT32, "0+"),
                structs("Voters", voter, "0+"),
                structs("GrantingVoters", voter, "0+"));
    }

    /** {@code SnapshotHeaderRecord}, versions 0, flexible 0+. */
    private static StructSchema snapshotHeaderRecord() {
        return schema("SnapshotHeaderRecord",
                field("Version", INT16, "0+"),
                field("LastContainedLogTimestamp", INT64, "0+"));
    }

    /** {@code SnapshotFooterRecord}, versions 0, flexible 0+. */
    private static StructSchema snapshotFooterRecord() {
        return schema("SnapshotFooterRecord",
                field("Version", INT16, "0+"));
    }

    /** {@code KRaftVersionRecord}, versions 0, flexible 0+. */
    private static StructSchema kRaftVersionRecord() {
        return schema("KRaftVersionRecord",
                field("Version", INT16, "0+"),
                field("KRaftVersion", INT16, "0+"));
    }

    /** {@code VotersRecord}, versions 0, flexible 0+. */
    private static StructSchema votersRecord() {
        StructSchema endpoint = schema("Endpoint",
                field("Name", STRING, "0+"),
                field("Host", STRING, "0+"),
                field("Port", UINT16, "0+"));
        StructSchema kRaftVersionFeature = schema("KRaftVersionFeature",
                field("MinSupportedVersion", INT16, "0+"),
                field("MaxSupportedVersion", INT16, "0+"));
        StructSchema voter = schema("Voter",
                field("VoterId", INT32, "0+"),
                field("VoterDirectoryId", UUID, "0+"),
                structs("Endpoints", endpoint, "0+"),
                struct("KRaftVersionFeature", kRaftVersionFeature, "0+"));
        return schema("VotersRecord",
                field("Version", INT16, "0+"),
                structs("Voters", voter, "0+"));
    }
}
