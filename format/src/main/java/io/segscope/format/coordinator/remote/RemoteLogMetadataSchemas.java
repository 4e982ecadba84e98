package io.segscope.format.coordinator.remote;

import static io.segscope.format.coordinator.Field.field;
import static io.segscope.format.coordinator.Field.struct;
import static io.segscope.format.coordinator.Field.structs;
import static io.segscope.format.coordinator.FieldType.BOOL;
import static io.segscope.format.coordinator.FieldType.BYTES;
import static io.segscope.format.coordinator.FieldType.INT32;
import static io.segscope.format.coordinator.FieldType.INT64;
import static io.segscope.format.coordinator.FieldType.INT8;
import static io.segscope.format.coordinator.FieldType.STRING;
import static io.segscope.format.coordinator.FieldType.UUID;
import static io.segscope.format.coordinator.StructSchema.schema;
import static io.segscope.format.coordinator.metadata.MetadataRecordSchema.record;

import io.segscope.format.coordinator.StructSchema;
import io.segscope.format.coordinator.metadata.MetadataRecordSchema;
import java.util.List;

/**
 * The record schemas of {@code __remote_log_metadata}, the topic of tiered storage's
 * {@code TopicBasedRemoteLogMetadataManager}: Kafka 4.4.0's {@code message/Remote*Record.json} in
 * kafka-storage, field for field ({@code RemoteLogMetadataSchemaTablesTest} checks them against the
 * vendored copies in {@code testdata/schemas/kafka-4.4.0/kafka-storage}). Values are framed as
 * KRaft metadata records are (unsigned varints frame version 1, apiKey, version, then the flexible
 * struct: {@code RemoteLogMetadataSerde} over {@code BytesApiMessageSerde}); keys are not used.
 * The type names are those of kafka-storage's generated {@code MetadataRecordType}.
 */
public final class RemoteLogMetadataSchemas {
    private RemoteLogMetadataSchemas() {
    }

    /** The topic these records live in. */
    public static final String TOPIC = "__remote_log_metadata";

    /** Every 4.4.0 record type, by apiKey (0-3). */
    public static final List<MetadataRecordSchema> RECORDS = List.of(
            remoteLogSegmentMetadataRecord(),
            remoteLogSegmentMetadataUpdateRecord(),
            remotePartitionDeleteMetadataRecord(),
            remoteLogSegmentMetadataSnapshotRecord());

    /** The schema of this apiKey, or null when Kafka 4.4.0 defines none. */
    public static MetadataRecordSchema forApiKey(int apiKey) {
        return apiKey >= 0 && apiKey < RECORDS.size() ? RECORDS.get(apiKey) : null;
    }

    private static StructSchema topicIdPartitionEntry() {
        return schema("TopicIdPartitionEntry",
                field("Name", STRING, "0+"),
                field("Id", UUID, "0+"),
                field("Partition", INT32, "0+"));
    }

    private static StructSchema remoteLogSegmentIdEntry() {
        return schema("RemoteLogSegmentIdEntry",
                struct("TopicIdPartition", topicIdPartitionEntry(), "0+"),
                field("Id", UUID, "0+"));
    }

    private static StructSchema segmentLeaderEpochEntry() {
        return schema("SegmentLeaderEpochEntry",
                field("LeaderEpoch", INT32, "0+"),
                field("Offset", INT64, "0+"));
    }

    /** apiKey 0: {@code RemoteLogSegmentMetadataRecord}. */
    private static MetadataRecordSchema remoteLogSegmentMetadataRecord() {
        return record(0, "RemoteLogSegmentMetadataRecord", "REMOTE_LOG_SEGMENT_METADATA_RECORD", "0", "0+",
                schema("RemoteLogSegmentMetadataRecord",
                        struct("RemoteLogSegmentId", remoteLogSegmentIdEntry(), "0+"),
                        field("StartOffset", INT64, "0+"),
                        field("EndOffset", INT64, "0+"),
                        field("BrokerId", INT32, "0+"),
                        field("MaxTimestampMs", INT64, "0+"),
                        field("EventTimestampMs", INT64, "0+"),
                        structs("SegmentLeaderEpochs", segmentLeaderEpochEntry(), "0+"),
                        field("SegmentSizeInBytes", INT32, "0+"),
                        field("CustomMetadata", BYTES, "0+").nullable("0+").withDefault("null"),
                        field("RemoteLogSegmentState", INT8, "0+"),
                        field("TxnIndexEmpty", BOOL, "0+").tagged(0, "0+")));
    }

    /** apiKey 1: {@code RemoteLogSegmentMetadataUpdateRecord}. */
    private static MetadataRecordSchema remoteLogSegmentMetadataUpdateRecord() {
        return record(1, "RemoteLogSegmentMetadataUpdateRecord", "REMOTE_LOG_SEGMENT_METADATA_UPDATE_RECORD", "0", "0+",
                schema("RemoteLogSegmentMetadataUpdateRecord",
                        struct("RemoteLogSegmentId", remoteLogSegmentIdEntry(), "0+"),
                        field("BrokerId", INT32, "0+"),
                        field("EventTimestampMs", INT64, "0+"),
                        field("CustomMetadata", BYTES, "0+").nullable("0+").withDefault("null"),
                        field("RemoteLogSegmentState", INT8, "0+")));
    }

    /** apiKey 2: {@code RemotePartitionDeleteMetadataRecord}. */
    private static MetadataRecordSchema remotePartitionDeleteMetadataRecord() {
        return record(2, "RemotePartitionDeleteMetadataRecord", "REMOTE_PARTITION_DELETE_METADATA_RECORD", "0", "0+",
                schema("RemotePartitionDeleteMetadataRecord",
                        struct("TopicIdPartition", topicIdPartitionEntry(), "0+"),
                        field("BrokerId", INT32, "0+"),
                        field("EventTimestampMs", INT64, "0+"),
                        field("RemotePartitionDeleteState", INT8, "0+")));
    }

    /** apiKey 3: {@code RemoteLogSegmentMetadataSnapshotRecord}. */
    private static MetadataRecordSchema remoteLogSegmentMetadataSnapshotRecord() {
        return record(3, "RemoteLogSegmentMetadataSnapshotRecord", "REMOTE_LOG_SEGMENT_METADATA_SNAPSHOT_RECORD", "0", "0+",
                schema("RemoteLogSegmentMetadataSnapshotRecord",
                        field("SegmentId", UUID, "0+"),
                        field("StartOffset", INT64, "0+"),
                        field("EndOffset", INT64, "0+"),
                        field("BrokerId", INT32, "0+"),
                        field("MaxTimestampMs", INT64, "0+"),
                        field("EventTimestampMs", INT64, "0+"),
                        structs("SegmentLeaderEpochs", segmentLeaderEpochEntry(), "0+"),
                        field("SegmentSizeInBytes", INT32, "0+"),
                        field("CustomMetadata", BYTES, "0+").nullable("0+").withDefault("null"),
                        field("RemoteLogSegmentState", INT8, "0+"),
                        field("TxnIndexEmpty", BOOL, "0+").tagged(0, "0+")));
    }
}
