package io.segscope.format.coordinator.group;

import static io.segscope.format.coordinator.Field.array;
import static io.segscope.format.coordinator.Field.field;
import static io.segscope.format.coordinator.Field.struct;
import static io.segscope.format.coordinator.Field.structs;
import static io.segscope.format.coordinator.FieldType.BYTES;
import static io.segscope.format.coordinator.FieldType.INT16;
import static io.segscope.format.coordinator.FieldType.INT32;
import static io.segscope.format.coordinator.FieldType.INT64;
import static io.segscope.format.coordinator.FieldType.INT8;
import static io.segscope.format.coordinator.FieldType.STRING;
import static io.segscope.format.coordinator.FieldType.UINT16;
import static io.segscope.format.coordinator.FieldType.UUID;
import static io.segscope.format.coordinator.RecordSchema.record;
import static io.segscope.format.coordinator.StructSchema.schema;

import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.RecordSchema;
import io.segscope.format.coordinator.SchemaSet;
import io.segscope.format.coordinator.StructSchema;
import java.util.List;

/**
 * The {@code __consumer_offsets} record schemas (docs/format.md 2.2, 2.3, 2.5, 2.6), one method
 * per record type, written to match Kafka 4.4.0's {@code common/message/*.json} in
 * kafka-group-coordinator field for field ({@code SchemaTablesTest} checks them against the
 * vendored copies in {@code testdata/schemas/kafka-4.4.0}). Types 9 and 18 come from the releases
 * that defined them; type 24 is not in 4.4.0 and decodes as unknown.
 *
 * <p>Key types 0 and 1 share one layout (group, topic, partition); type 0 allows only value
 * version 0, which has the layout of OffsetCommitValue v0.
 */
public final class GroupCoordinatorSchemas {
    private GroupCoordinatorSchemas() {
    }

    public static final List<RecordSchema> RECORDS = List.of(
            legacyOffsetCommit(),
            offsetCommit(),
            groupMetadata(),
            consumerGroupMetadata(),
            consumerGroupPartitionMetadata(),
            consumerGroupMemberMetadata(),
            consumerGroupTargetAssignmentMetadata(),
            consumerGroupTargetAssignmentMember(),
            consumerGroupCurrentMemberAssignment(),
            shareGroupPartitionMetadata(),
            shareGroupMemberMetadata(),
            shareGroupMetadata(),
            shareGroupTargetAssignmentMetadata(),
            shareGroupTargetAssignmentMember(),
            shareGroupCurrentMemberAssignment(),
            shareGroupStatePartitionMetadata(),
            consumerGroupRegularExpression(),
            streamsGroupMetadata(),
            streamsGroupPartitionMetadata(),
            streamsGroupMemberMetadata(),
            streamsGroupTargetAssignmentMetadata(),
            streamsGroupTargetAssignmentMember(),
            streamsGroupCurrentMemberAssignment(),
            streamsGroupTopology());

    /** The record type whose values carry consumer protocol bytes (classic group metadata). */
    public static final RecordSchema GROUP_METADATA = RECORDS.get(2);

    public static final SchemaSet SCHEMAS = new SchemaSet(CoordinatorTopic.CONSUMER_OFFSETS, RECORDS,
            GROUP_METADATA, ConsumerProtocol::decodeMembers);

    /** Type 0: {@code LegacyOffsetCommitKey} / {@code LegacyOffsetCommitValue}. */
    private static RecordSchema legacyOffsetCommit() {
        return record(0, "LegacyOffsetCommit",
                schema("LegacyOffsetCommitKey",
                        field("group", STRING, "0"),
                        field("topic", STRING, "0"),
                        field("partition", INT32, "0")),
                "0", "none",
                schema("LegacyOffsetCommitValue",
                        field("offset", INT64, "0"),
                        field("metadata", STRING, "0"),
                        field("commitTimestamp", INT64, "0")));
    }

    /** Type 1: {@code OffsetCommitKey} / {@code OffsetCommitValue}. */
    private static RecordSchema offsetCommit() {
        return record(1, "OffsetCommit",
                schema("OffsetCommitKey",
                        field("group", STRING, "0"),
                        field("topic", STRING, "0"),
                        field("partition", INT32, "0")),
                "0-4", "4+",
                schema("OffsetCommitValue",
                        field("offset", INT64, "0+"),
                        field("leaderEpoch", INT32, "3+").withDefault("-1").ignorable(),
                        field("metadata", STRING, "0+"),
                        field("commitTimestamp", INT64, "0+"),
                        field("expireTimestamp", INT64, "1").withDefault("-1").ignorable(),
                        field("topicId", UUID, "4+").tagged(0, "4+").ignorable()));
    }

    /** Type 2: {@code GroupMetadataKey} / {@code GroupMetadataValue}. */
    private static RecordSchema groupMetadata() {
        StructSchema memberMetadata = schema("MemberMetadata",
                field("memberId", STRING, "0+"),
                field("groupInstanceId", STRING, "3+").nullable("3+").withDefault("null").ignorable(),
                field("clientId", STRING, "0+"),
                field("clientHost", STRING, "0+"),
                field("rebalanceTimeout", INT32, "1+").withDefault("-1").ignorable(),
                field("sessionTimeout", INT32, "0+"),
                field("subscription", BYTES, "0+"),
                field("assignment", BYTES, "0+"));
        return record(2, "GroupMetadata",
                schema("GroupMetadataKey",
                        field("group", STRING, "0")),
                "0-4", "4+",
                schema("GroupMetadataValue",
                        field("protocolType", STRING, "0+"),
                        field("generation", INT32, "0+"),
                        field("protocol", STRING, "0+").nullable("0+"),
                        field("leader", STRING, "0+").nullable("0+"),
                        field("currentStateTimestamp", INT64, "2+").withDefault("-1").ignorable(),
                        structs("members", memberMetadata, "0+")));
    }

    /** Type 3: {@code ConsumerGroupMetadataKey} / {@code ConsumerGroupMetadataValue}. */
    private static RecordSchema consumerGroupMetadata() {
        return record(3, "ConsumerGroupMetadata",
                schema("ConsumerGroupMetadataKey",
                        field("GroupId", STRING, "0")),
                "0", "0+",
                schema("ConsumerGroupMetadataValue",
                        field("Epoch", INT32, "0+"),
                        field("MetadataHash", INT64, "0+").tagged(0, "0+").withDefault("0")));
    }

    /** Type 4: {@code ConsumerGroupPartitionMetadataKey} / {@code ConsumerGroupPartitionMetadataValue}. */
    private static RecordSchema consumerGroupPartitionMetadata() {
        StructSchema partitionMetadata = schema("PartitionMetadata",
                field("Partition", INT32, "0+"),
                array("Racks", STRING, "0+"));
        StructSchema topicMetadata = schema("TopicMetadata",
                field("TopicId", UUID, "0+"),
                field("TopicName", STRING, "0+"),
                field("NumPartitions", INT32, "0+"),
                structs("PartitionMetadata", partitionMetadata, "0+"));
        return record(4, "ConsumerGroupPartitionMetadata",
                schema("ConsumerGroupPartitionMetadataKey",
                        field("GroupId", STRING, "0")),
                "0", "0+",
                schema("ConsumerGroupPartitionMetadataValue",
                        structs("Topics", topicMetadata, "0+")));
    }

    /** Type 5: {@code ConsumerGroupMemberMetadataKey} / {@code ConsumerGroupMemberMetadataValue}. */
    private static RecordSchema consumerGroupMemberMetadata() {
        StructSchema classicProtocol = schema("ClassicProtocol",
                field("Name", STRING, "0+"),
                field("Metadata", BYTES, "0+"));
        StructSchema classicMemberMetadata = schema("ClassicMemberMetadata",
                field("SessionTimeoutMs", INT32, "0+"),
                structs("SupportedProtocols", classicProtocol, "0+"));
        return record(5, "ConsumerGroupMemberMetadata",
                schema("ConsumerGroupMemberMetadataKey",
                        field("GroupId", STRING, "0"),
                        field("MemberId", STRING, "0")),
                "0", "0+",
                schema("ConsumerGroupMemberMetadataValue",
                        field("InstanceId", STRING, "0+").nullable("0+"),
                        field("RackId", STRING, "0+").nullable("0+"),
                        field("ClientId", STRING, "0+"),
                        field("ClientHost", STRING, "0+"),
                        array("SubscribedTopicNames", STRING, "0+"),
                        field("SubscribedTopicRegex", STRING, "0+").nullable("0+"),
                        field("RebalanceTimeoutMs", INT32, "0+").withDefault("-1"),
                        field("ServerAssignor", STRING, "0+").nullable("0+"),
                        struct("ClassicMemberMetadata", classicMemberMetadata, "0+").nullable("0+").tagged(0, "0+")));
    }

    /** Type 6: {@code ConsumerGroupTargetAssignmentMetadataKey} / {@code ConsumerGroupTargetAssignmentMetadataValue}. */
    private static RecordSchema consumerGroupTargetAssignmentMetadata() {
        return record(6, "ConsumerGroupTargetAssignmentMetadata",
                schema("ConsumerGroupTargetAssignmentMetadataKey",
                        field("GroupId", STRING, "0")),
                "0", "0+",
                schema("ConsumerGroupTargetAssignmentMetadataValue",
                        field("AssignmentEpoch", INT32, "0+"),
                        field("AssignmentTimestamp", INT64, "0+").tagged(0, "0+").withDefault("0").ignorable()));
    }

    /** Type 7: {@code ConsumerGroupTargetAssignmentMemberKey} / {@code ConsumerGroupTargetAssignmentMemberValue}. */
    private static RecordSchema consumerGroupTargetAssignmentMember() {
        StructSchema topicPartition = schema("TopicPartition",
                field("TopicId", UUID, "0+"),
                array("Partitions", INT32, "0+"));
        return record(7, "ConsumerGroupTargetAssignmentMember",
                schema("ConsumerGroupTargetAssignmentMemberKey",
                        field("GroupId", STRING, "0"),
                        field("MemberId", STRING, "0")),
                "0", "0+",
                schema("ConsumerGroupTargetAssignmentMemberValue",
                        structs("TopicPartitions", topicPartition, "0+")));
    }

    /** Type 8: {@code ConsumerGroupCurrentMemberAssignmentKey} / {@code ConsumerGroupCurrentMemberAssignmentValue}. */
    private static RecordSchema consumerGroupCurrentMemberAssignment() {
        StructSchema topicPartitions = schema("TopicPartitions",
                field("TopicId", UUID, "0+"),
                array("Partitions", INT32, "0+"),
                array("AssignmentEpochs", INT32, "0+").nullable("0+").tagged(0, "0+"));
        return record(8, "ConsumerGroupCurrentMemberAssignment",
                schema("ConsumerGroupCurrentMemberAssignmentKey",
                        field("GroupId", STRING, "0"),
                        field("MemberId", STRING, "0")),
                "0", "0+",
                schema("ConsumerGroupCurrentMemberAssignmentValue",
                        field("MemberEpoch", INT32, "0+"),
                        field("PreviousMemberEpoch", INT32, "0+"),
                        field("State", INT8, "0+"),
                        structs("AssignedPartitions", topicPartitions, "0+"),
                        structs("PartitionsPendingRevocation", topicPartitions, "0+")));
    }

    /** Type 10: {@code ShareGroupMemberMetadataKey} / {@code ShareGroupMemberMetadataValue}. */
    private static RecordSchema shareGroupMemberMetadata() {
        return record(10, "ShareGroupMemberMetadata",
                schema("ShareGroupMemberMetadataKey",
                        field("GroupId", STRING, "0"),
                        field("MemberId", STRING, "0")),
                "0", "0+",
                schema("ShareGroupMemberMetadataValue",
                        field("RackId", STRING, "0+").nullable("0+"),
                        field("ClientId", STRING, "0+"),
                        field("ClientHost", STRING, "0+"),
                        array("SubscribedTopicNames", STRING, "0+")));
    }

    /** Type 11: {@code ShareGroupMetadataKey} / {@code ShareGroupMetadataValue}. */
    private static RecordSchema shareGroupMetadata() {
        return record(11, "ShareGroupMetadata",
                schema("ShareGroupMetadataKey",
                        field("GroupId", STRING, "0")),
                "0", "0+",
                schema("ShareGroupMetadataValue",
                        field("Epoch", INT32, "0+"),
                        field("MetadataHash", INT64, "0+")));
    }

    /** Type 12: {@code ShareGroupTargetAssignmentMetadataKey} / {@code ShareGroupTargetAssignmentMetadataValue}. */
    private static RecordSchema shareGroupTargetAssignmentMetadata() {
        return record(12, "ShareGroupTargetAssignmentMetadata",
                schema("ShareGroupTargetAssignmentMetadataKey",
                        field("GroupId", STRING, "0")),
                "0", "0+",
                schema("ShareGroupTargetAssignmentMetadataValue",
                        field("AssignmentEpoch", INT32, "0+"),
                        field("AssignmentTimestamp", INT64, "0+").tagged(0, "0+").withDefault("0").ignorable()));
    }

    /** Type 13: {@code ShareGroupTargetAssignmentMemberKey} / {@code ShareGroupTargetAssignmentMemberValue}. */
    private static RecordSchema shareGroupTargetAssignmentMember() {
        StructSchema topicPartition = schema("TopicPartition",
                field("TopicId", UUID, "0+"),
                array("Partitions", INT32, "0+"));
        return record(13, "ShareGroupTargetAssignmentMember",
                schema("ShareGroupTargetAssignmentMemberKey",
                        field("GroupId", STRING, "0"),
                        field("MemberId", STRING, "0")),
                "0", "0+",
                schema("ShareGroupTargetAssignmentMemberValue",
                        structs("TopicPartitions", topicPartition, "0+")));
    }

    /** Type 14: {@code ShareGroupCurrentMemberAssignmentKey} / {@code ShareGroupCurrentMemberAssignmentValue}. */
    private static RecordSchema shareGroupCurrentMemberAssignment() {
        StructSchema topicPartitions = schema("TopicPartitions",
                field("TopicId", UUID, "0+"),
                array("Partitions", INT32, "0+"));
        return record(14, "ShareGroupCurrentMemberAssignment",
                schema("ShareGroupCurrentMemberAssignmentKey",
                        field("GroupId", STRING, "0"),
                        field("MemberId", STRING, "0")),
                "0", "0+",
                schema("ShareGroupCurrentMemberAssignmentValue",
                        field("MemberEpoch", INT32, "0+"),
                        field("PreviousMemberEpoch", INT32, "0+"),
                        field("State", INT8, "0+"),
                        structs("AssignedPartitions", topicPartitions, "0+")));
    }

    /** Type 15: {@code ShareGroupStatePartitionMetadataKey} / {@code ShareGroupStatePartitionMetadataValue}. */
    private static RecordSchema shareGroupStatePartitionMetadata() {
        StructSchema topicPartitionsInfo = schema("TopicPartitionsInfo",
                field("TopicId", UUID, "0+"),
                field("TopicName", STRING, "0+"),
                array("Partitions", INT32, "0+"));
        StructSchema topicInfo = schema("TopicInfo",
                field("TopicId", UUID, "0+"),
                field("TopicName", STRING, "0+"));
        return record(15, "ShareGroupStatePartitionMetadata",
                schema("ShareGroupStatePartitionMetadataKey",
                        field("GroupId", STRING, "0")),
                "0", "0+",
                schema("ShareGroupStatePartitionMetadataValue",
                        structs("InitializingTopics", topicPartitionsInfo, "0+"),
                        structs("InitializedTopics", topicPartitionsInfo, "0+"),
                        structs("DeletingTopics", topicInfo, "0+")));
    }

    /** Type 16: {@code ConsumerGroupRegularExpressionKey} / {@code ConsumerGroupRegularExpressionValue}. */
    private static RecordSchema consumerGroupRegularExpression() {
        return record(16, "ConsumerGroupRegularExpression",
                schema("ConsumerGroupRegularExpressionKey",
                        field("GroupId", STRING, "0"),
                        field("RegularExpression", STRING, "0")),
                "0", "0+",
                schema("ConsumerGroupRegularExpressionValue",
                        array("Topics", STRING, "0+"),
                        field("Version", INT64, "0+"),
                        field("Timestamp", INT64, "0+")));
    }

    /** Type 17: {@code StreamsGroupMetadataKey} / {@code StreamsGroupMetadataValue}. */
    private static RecordSchema streamsGroupMetadata() {
        StructSchema lastAssignmentConfig = schema("LastAssignmentConfig",
                field("Key", STRING, "0+"),
                field("Value", STRING, "0+"));
        return record(17, "StreamsGroupMetadata",
                schema("StreamsGroupMetadataKey",
                        field("GroupId", STRING, "0")),
                "0", "0+",
                schema("StreamsGroupMetadataValue",
                        field("Epoch", INT32, "0+"),
                        field("MetadataHash", INT64, "0+"),
                        field("ValidatedTopologyEpoch", INT32, "0+").tagged(0, "0+").withDefault("-1"),
                        structs("LastAssignmentConfigs", lastAssignmentConfig, "0+").nullable("0+").tagged(1, "0+"),
                        field("StoredDescriptionTopologyEpoch", INT32, "0+").tagged(2, "0+").withDefault("-1"),
                        field("FailedDescriptionTopologyEpoch", INT32, "0+").tagged(3, "0+").withDefault("-1")));
    }

    /** Type 19: {@code StreamsGroupMemberMetadataKey} / {@code StreamsGroupMemberMetadataValue}. */
    private static RecordSchema streamsGroupMemberMetadata() {
        StructSchema endpoint = schema("Endpoint",
                field("Host", STRING, "0+"),
                field("Port", UINT16, "0+"));
        StructSchema keyValue = schema("KeyValue",
                field("Key", STRING, "0+"),
                field("Value", STRING, "0+"));
        return record(19, "StreamsGroupMemberMetadata",
                schema("StreamsGroupMemberMetadataKey",
                        field("GroupId", STRING, "0"),
                        field("MemberId", STRING, "0")),
                "0", "0+",
                schema("StreamsGroupMemberMetadataValue",
                        field("InstanceId", STRING, "0+").nullable("0+"),
                        field("RackId", STRING, "0+").nullable("0+"),
                        field("ClientId", STRING, "0+"),
                        field("ClientHost", STRING, "0+"),
                        field("RebalanceTimeoutMs", INT32, "0+").withDefault("-1"),
                        field("TopologyEpoch", INT32, "0+"),
                        field("ProcessId", STRING, "0+"),
                        struct("UserEndpoint", endpoint, "0+").nullable("0+").withDefault("null"),
                        structs("ClientTags", keyValue, "0+")));
    }

    /** Type 20: {@code StreamsGroupTargetAssignmentMetadataKey} / {@code StreamsGroupTargetAssignmentMetadataValue}. */
    private static RecordSchema streamsGroupTargetAssignmentMetadata() {
        return record(20, "StreamsGroupTargetAssignmentMetadata",
                schema("StreamsGroupTargetAssignmentMetadataKey",
                        field("GroupId", STRING, "0")),
                "0", "0+",
                schema("StreamsGroupTargetAssignmentMetadataValue",
                        field("AssignmentEpoch", INT32, "0+"),
                        field("AssignmentTimestamp", INT64, "0+").tagged(0, "0+").withDefault("0").ignorable()));
    }

    /** Type 21: {@code StreamsGroupTargetAssignmentMemberKey} / {@code StreamsGroupTargetAssignmentMemberValue}. */
    private static RecordSchema streamsGroupTargetAssignmentMember() {
        StructSchema taskIds = schema("TaskIds",
                field("SubtopologyId", STRING, "0+"),
                array("Partitions", INT32, "0+"));
        return record(21, "StreamsGroupTargetAssignmentMember",
                schema("StreamsGroupTargetAssignmentMemberKey",
                        field("GroupId", STRING, "0"),
                        field("MemberId", STRING, "0")),
                "0", "0+",
                schema("StreamsGroupTargetAssignmentMemberValue",
                        structs("ActiveTasks", taskIds, "0+"),
                        structs("StandbyTasks", taskIds, "0+"),
                        structs("WarmupTasks", taskIds, "0+")));
    }

    /** Type 22: {@code StreamsGroupCurrentMemberAssignmentKey} / {@code StreamsGroupCurrentMemberAssignmentValue}. */
    private static RecordSchema streamsGroupCurrentMemberAssignment() {
        StructSchema taskIds = schema("TaskIds",
                field("SubtopologyId", STRING, "0+"),
                array("Partitions", INT32, "0+"),
                array("AssignmentEpochs", INT32, "0+").nullable("0+").tagged(0, "0+"));
        return record(22, "StreamsGroupCurrentMemberAssignment",
                schema("StreamsGroupCurrentMemberAssignmentKey",
                        field("GroupId", STRING, "0"),
                        field("MemberId", STRING, "0")),
                "0", "0+",
                schema("StreamsGroupCurrentMemberAssignmentValue",
                        field("MemberEpoch", INT32, "0+"),
                        field("PreviousMemberEpoch", INT32, "0+"),
                        field("State", INT8, "0+"),
                        structs("ActiveTasks", taskIds, "0+"),
                        structs("StandbyTasks", taskIds, "0+"),
                        structs("WarmupTasks", taskIds, "0+"),
                        structs("ActiveTasksPendingRevocation", taskIds, "0+"),
                        structs("StandbyTasksPendingRevocation", taskIds, "0+"),
                        structs("WarmupTasksPendingRevocation", taskIds, "0+")));
    }

    /** Type 23: {@code StreamsGroupTopologyKey} / {@code StreamsGroupTopologyValue}. */
    private static RecordSchema streamsGroupTopology() {
        StructSchema topicConfig = schema("TopicConfig",
                field("key", STRING, "0+"),
                field("value", STRING, "0+"));
        StructSchema topicInfo = schema("TopicInfo",
                field("Name", STRING, "0+"),
                field("Partitions", INT32, "0+"),
                field("ReplicationFactor", INT16, "0+"),
                structs("TopicConfigs", topicConfig, "0+"));
        StructSchema copartitionGroup = schema("CopartitionGroup",
                array("SourceTopics", INT16, "0+"),
                array("SourceTopicRegex", INT16, "0+"),
                array("RepartitionSourceTopics", INT16, "0+"));
        StructSchema subtopology = schema("Subtopology",
                field("SubtopologyId", STRING, "0+"),
                array("SourceTopics", STRING, "0+"),
                array("SourceTopicRegex", STRING, "0+"),
                structs("StateChangelogTopics", topicInfo, "0+"),
                array("RepartitionSinkTopics", STRING, "0+"),
                structs("RepartitionSourceTopics", topicInfo, "0+"),
                structs("CopartitionGroups", copartitionGroup, "0+"));
        return record(23, "StreamsGroupTopology",
                schema("StreamsGroupTopologyKey",
                        field("GroupId", STRING, "0")),
                "0", "0+",
                schema("StreamsGroupTopologyValue",
                        field("Epoch", INT32, "0+"),
                        structs("Subtopologies", subtopology, "0+")));
    }

    /**
     * Type 9: {@code ShareGroupPartitionMetadata}, defined by 4.0 (KIP-932 preview) and removed before
     * 4.4.0 (replaced by {@code ShareGroupMetadataValue.MetadataHash}). Decoded with its last schema.
     */
    private static RecordSchema shareGroupPartitionMetadata() {
        return partitionMetadata(9, "ShareGroupPartitionMetadata");
    }

    /**
     * Type 18: {@code StreamsGroupPartitionMetadata}, defined by 4.0 (KIP-1071 early access) and removed
     * before 4.4.0 (replaced by {@code StreamsGroupMetadataValue.MetadataHash}). Decoded with its last schema.
     */
    private static RecordSchema streamsGroupPartitionMetadata() {
        return partitionMetadata(18, "StreamsGroupPartitionMetadata");
    }

    /** The layout types 9 and 18 shared with type 4 when they were removed. */
    private static RecordSchema partitionMetadata(int type, String name) {
        StructSchema partitionMetadata = schema("PartitionMetadata",
                field("Partition", INT32, "0+"),
                array("Racks", STRING, "0+"));
        StructSchema topicMetadata = schema("TopicMetadata",
                field("TopicId", UUID, "0+"),
                field("TopicName", STRING, "0+"),
                field("NumPartitions", INT32, "0+"),
                structs("PartitionMetadata", partitionMetadata, "0+"));
        return record(type, name,
                schema(name + "Key",
                        field("GroupId", STRING, "0")),
                "0", "0+",
                schema(name + "Value",
                        structs("Topics", topicMetadata, "0+"))).historical();
    }
}
