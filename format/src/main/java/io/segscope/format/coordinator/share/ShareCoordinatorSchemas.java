package io.segscope.format.coordinator.share;

import static io.segscope.format.coordinator.Field.field;
import static io.segscope.format.coordinator.Field.structs;
import static io.segscope.format.coordinator.FieldType.INT16;
import static io.segscope.format.coordinator.FieldType.INT32;
import static io.segscope.format.coordinator.FieldType.INT64;
import static io.segscope.format.coordinator.FieldType.INT8;
import static io.segscope.format.coordinator.FieldType.STRING;
import static io.segscope.format.coordinator.FieldType.UUID;
import static io.segscope.format.coordinator.RecordSchema.record;
import static io.segscope.format.coordinator.StructSchema.schema;

import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.RecordSchema;
import io.segscope.format.coordinator.SchemaSet;
import io.segscope.format.coordinator.StructSchema;
import java.util.List;

/**
 * The {@code __share_group_state} record schemas (docs/format.md 2.10): type 0 ShareSnapshot and
 * type 1 ShareUpdate, value version 0, flexible. Matches kafka-share-coordinator 4.4.0's
 * {@code common/message/*.json} ({@code SchemaTablesTest}). Values written by 4.0 (preview)
 * brokers used an earlier, incompatible layout and may decode as malformed.
 */
public final class ShareCoordinatorSchemas {
    private ShareCoordinatorSchemas() {
    }

    public static final List<RecordSchema> RECORDS = List.of(shareSnapshot(), shareUpdate());

    public static final SchemaSet SCHEMAS = new SchemaSet(CoordinatorTopic.SHARE_GROUP_STATE, RECORDS, null, null);

    /** Type 0: {@code ShareSnapshotKey} / {@code ShareSnapshotValue}. */
    private static RecordSchema shareSnapshot() {
        StructSchema stateBatch = schema("StateBatch",
                field("FirstOffset", INT64, "0+"),
                field("LastOffset", INT64, "0+"),
                field("DeliveryState", INT8, "0+"),
                field("DeliveryCount", INT16, "0+"));
        return record(0, "ShareSnapshot",
                schema("ShareSnapshotKey",
                        field("GroupId", STRING, "0"),
                        field("TopicId", UUID, "0"),
                        field("Partition", INT32, "0")),
                "0", "0+",
                schema("ShareSnapshotValue",
                        field("SnapshotEpoch", INT32, "0+"),
                        field("StateEpoch", INT32, "0+"),
                        field("LeaderEpoch", INT32, "0+"),
                        field("StartOffset", INT64, "0+"),
                        field("DeliveryCompleteCount", INT32, "0+").tagged(0, "0+").withDefault("-1"),
                        field("CreateTimestamp", INT64, "0+"),
                        field("WriteTimestamp", INT64, "0+"),
                        structs("StateBatches", stateBatch, "0+")));
    }

    /** Type 1: {@code ShareUpdateKey} / {@code ShareUpdateValue}. */
    private static RecordSchema shareUpdate() {
        StructSchema stateBatch = schema("StateBatch",
                field("FirstOffset", INT64, "0+"),
                field("LastOffset", INT64, "0+"),
                field("DeliveryState", INT8, "0+"),
                field("DeliveryCount", INT16, "0+"));
        return record(1, "ShareUpdate",
                schema("ShareUpdateKey",
                        field("GroupId", STRING, "0"),
                        field("TopicId", UUID, "0"),
                        field("Partition", INT32, "0")),
                "0", "0+",
                schema("ShareUpdateValue",
                        field("SnapshotEpoch", INT32, "0+"),
                        field("LeaderEpoch", INT32, "0+"),
                        field("StartOffset", INT64, "0+"),
                        field("DeliveryCompleteCount", INT32, "0+").tagged(0, "0+").withDefault("-1"),
                        structs("StateBatches", stateBatch, "0+")));
    }
}
