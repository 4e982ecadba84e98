package io.segscope.format.coordinator.metadata;

import static io.segscope.format.coordinator.Field.array;
import static io.segscope.format.coordinator.Field.field;
import static io.segscope.format.coordinator.Field.structs;
import static io.segscope.format.coordinator.FieldType.BOOL;
import static io.segscope.format.coordinator.FieldType.BYTES;
import static io.segscope.format.coordinator.FieldType.FLOAT64;
import static io.segscope.format.coordinator.FieldType.INT16;
import static io.segscope.format.coordinator.FieldType.INT32;
import static io.segscope.format.coordinator.FieldType.INT64;
import static io.segscope.format.coordinator.FieldType.INT8;
import static io.segscope.format.coordinator.FieldType.STRING;
import static io.segscope.format.coordinator.FieldType.UINT16;
import static io.segscope.format.coordinator.FieldType.UUID;
import static io.segscope.format.coordinator.StructSchema.schema;
import static io.segscope.format.coordinator.metadata.MetadataRecordSchema.record;

import io.segscope.format.coordinator.StructSchema;
import java.util.List;

/**
 * The KRaft metadata record schemas of Kafka 4.4.0 ({@code common/metadata/*Record.json} in
 * kafka-metadata), one method per {@code apiKey}, field for field as the JSON schemas declare
 * them ({@code MetadataSchemaTablesTest} checks them against the vendored copies in
 * {@code testdata/schemas/kafka-4.4.0/kafka-metadata}). Ids 6, 13 and 16 are not defined.
 */
public final class MetadataSchemas {
    private MetadataSchemas() {
    }

    /** Every 4.4.0 metadata record type, by increasing apiKey. */
    public static final List<MetadataRecordSchema> RECORDS = List.of(
            registerBrokerRecord(),
            unregisterBrokerRecord(),
            topicRecord(),
            partitionRecord(),
            configRecord(),
            partitionChangeRecord(),
            fenceBrokerRecord(),
            unfenceBrokerRecord(),
            removeTopicRecord(),
            delegationTokenRecord(),
            userScramCredentialRecord(),
            featureLevelRecord(),
            clientQuotaRecord(),
            producerIdsRecord(),
            brokerRegistrationChangeRecord(),
            accessControlEntryRecord(),
            removeAccessControlEntryRecord(),
            noOpRecord(),
            zkMigrationStateRecord(),
            removeUserScramCredentialRecord(),
            beginTransactionRecord(),
            endTransactionRecord(),
            abortTransactionRecord(),
            removeDelegationTokenRecord(),
            registerControllerRecord(),
            clearElrRecord(),
            unregisterControllerRecord());

    private static final MetadataRecordSchema[] BY_KEY = index();

    /** The schema of this apiKey, or null when Kafka 4.4.0 defines none. */
    public static MetadataRecordSchema forApiKey(int apiKey) {
        return apiKey >= 0 && apiKey < BY_KEY.length ? BY_KEY[apiKey] : null;
    }

    private static MetadataRecordSchema[] index() {
        MetadataRecordSchema[] a = new MetadataRecordSchema[RECORDS.get(RECORDS.size() - 1).apiKey() + 1];
        for (MetadataRecordSchema r : RECORDS) {
            a[r.apiKey()] = r;
        }
        return a;
    }

    /** apiKey 0: {@code RegisterBrokerRecord}. */
    private static MetadataRecordSchema registerBrokerRecord() {
        StructSchema brokerEndpoint = schema("BrokerEndpoint",
                field("Name", STRING, "0+"),
                field("Host", STRING, "0+"),
                field("Port", UINT16, "0+"),
                field("SecurityProtocol", INT16, "0+"));
        StructSchema brokerFeature = schema("BrokerFeature",
                field("Name", STRING, "0+"),
                field("MinSupportedVersion", INT16, "0+"),
                field("MaxSupportedVersion", INT16, "0+"));
        return record(0, "RegisterBrokerRecord", "REGISTER_BROKER_RECORD", "0-4", "0+",
                schema("RegisterBrokerRecord",
                        field("BrokerId", INT32, "0+"),
                        field("IsMigratingZkBroker", BOOL, "2+").withDefault("false"),
                        field("IncarnationId", UUID, "0+"),
                        field("BrokerEpoch", INT64, "0+"),
                        structs("EndPoints", brokerEndpoint, "0+"),
                        structs("Features", brokerFeature, "0+"),
                        field("Rack", STRING, "0+").nullable("0+"),
                        field("Fenced", BOOL, "0+").withDefault("true"),
                        field("InControlledShutdown", BOOL, "1+").withDefault("false"),
                        array("LogDirs", UUID, "3+").tagged(0, "3+"),
                        array("CordonedLogDirs", UUID, "4+").nullable("4+").tagged(1, "4+").withDefault("null")));
    }

    /** apiKey 1: {@code UnregisterBrokerRecord}. */
    private static MetadataRecordSchema unregisterBrokerRecord() {
        return record(1, "UnregisterBrokerRecord", "UNREGISTER_BROKER_RECORD", "0", "0+",
                schema("UnregisterBrokerRecord",
                        field("BrokerId", INT32, "0+"),
                        field("BrokerEpoch", INT64, "0+")));
    }

    /** apiKey 2: {@code TopicRecord}. */
    private static MetadataRecordSchema topicRecord() {
        return record(2, "TopicRecord", "TOPIC_RECORD", "0", "0+",
                schema("TopicRecord",
                        field("Name", STRING, "0+"),
                        field("TopicId", UUID, "0+")));
    }

    /** apiKey 3: {@code PartitionRecord}. */
    private static MetadataRecordSchema partitionRecord() {
        return record(3, "PartitionRecord", "PARTITION_RECORD", "0-2", "0+",
                schema("PartitionRecord",
                        field("PartitionId", INT32, "0+").withDefault("-1"),
                        field("TopicId", UUID, "0+"),
                        array("Replicas", INT32, "0+"),
                        array("Isr", INT32, "0+"),
                        array("RemovingReplicas", INT32, "0+"),
                        array("AddingReplicas", INT32, "0+"),
                        field("Leader", INT32, "0+").withDefault("-1"),
                        field("LeaderRecoveryState", INT8, "0+").tagged(0, "0+").withDefault("0"),
                        field("LeaderEpoch", INT32, "0+").withDefault("-1"),
                        field("PartitionEpoch", INT32, "0+").withDefault("-1"),
                        array("Directories", UUID, "1+"),
                        array("EligibleLeaderReplicas", INT32, "2+").nullable("2+").tagged(1, "2+").withDefault("null"),
                        array("LastKnownElr", INT32, "2+").nullable("2+").tagged(2, "2+").withDefault("null")));
    }

    /** apiKey 4: {@code ConfigRecord}. */
    private static MetadataRecordSchema configRecord() {
        return record(4, "ConfigRecord", "CONFIG_RECORD", "0", "0+",
                schema("ConfigRecord",
                        field("ResourceType", INT8, "0+"),
                        field("ResourceName", STRING, "0+"),
                        field("Name", STRING, "0+"),
                        field("Value", STRING, "0+").nullable("0+")));
    }

    /** apiKey 5: {@code PartitionChangeRecord}. */
    private static MetadataRecordSchema partitionChangeRecord() {
        return record(5, "PartitionChangeRecord", "PARTITION_CHANGE_RECORD", "0-2", "0+",
                schema("PartitionChangeRecord",
                        field("PartitionId", INT32, "0+").withDefault("-1"),
                        field("TopicId", UUID, "0+"),
                        array("Isr", INT32, "0+").nullable("0+").tagged(0, "0+").withDefault("null"),
                        field("Leader", INT32, "0+").tagged(1, "0+").withDefault("-2"),
                        array("Replicas", INT32, "0+").nullable("0+").tagged(2, "0+").withDefault("null"),
                        array("RemovingReplicas", INT32, "0+").nullable("0+").tagged(3, "0+").withDefault("null"),
                        array("AddingReplicas", INT32, "0+").nullable("0+").tagged(4, "0+").withDefault("null"),
                        field("LeaderRecoveryState", INT8, "0+").tagged(5, "0+").withDefault("-1"),
                        array("Directories", UUID, "1+").nullable("1+").tagged(8, "1+").withDefault("null"),
                        array("EligibleLeaderReplicas", INT32, "2+").nullable("2+").tagged(6, "2+").withDefault("null"),
                        array("LastKnownElr", INT32, "2+").nullable("2+").tagged(7, "2+").withDefault("null")));
    }

    /** apiKey 7: {@code FenceBrokerRecord}. */
    private static MetadataRecordSchema fenceBrokerRecord() {
        return record(7, "FenceBrokerRecord", "FENCE_BROKER_RECORD", "0", "0+",
                schema("FenceBrokerRecord",
                        field("Id", INT32, "0+"),
                        field("Epoch", INT64, "0+")));
    }

    /** apiKey 8: {@code UnfenceBrokerRecord}. */
    private static MetadataRecordSchema unfenceBrokerRecord() {
        return record(8, "UnfenceBrokerRecord", "UNFENCE_BROKER_RECORD", "0", "0+",
                schema("UnfenceBrokerRecord",
                        field("Id", INT32, "0+"),
                        field("Epoch", INT64, "0+")));
    }

    /** apiKey 9: {@code RemoveTopicRecord}. */
    private static MetadataRecordSchema removeTopicRecord() {
        return record(9, "RemoveTopicRecord", "REMOVE_TOPIC_RECORD", "0", "0+",
                schema("RemoveTopicRecord",
                        field("TopicId", UUID, "0+")));
    }

    /** apiKey 10: {@code DelegationTokenRecord}. */
    private static MetadataRecordSchema delegationTokenRecord() {
        return record(10, "DelegationTokenRecord", "DELEGATION_TOKEN_RECORD", "0", "0+",
                schema("DelegationTokenRecord",
                        field("Owner", STRING, "0+"),
                        field("Requester", STRING, "0+"),
                        array("Renewers", STRING, "0+"),
                        field("IssueTimestamp", INT64, "0+"),
                        field("MaxTimestamp", INT64, "0+"),
                        field("ExpirationTimestamp", INT64, "0+"),
                        field("TokenId", STRING, "0+")));
    }

    /** apiKey 11: {@code UserScramCredentialRecord}. */
    private static MetadataRecordSchema userScramCredentialRecord() {
        return record(11, "UserScramCredentialRecord", "USER_SCRAM_CREDENTIAL_RECORD", "0", "0+",
                schema("UserScramCredentialRecord",
                        field("Name", STRING, "0+"),
                        field("Mechanism", INT8, "0+"),
                        field("Salt", BYTES, "0+"),
                        field("StoredKey", BYTES, "0+"),
                        field("ServerKey", BYTES, "0+"),
                        field("Iterations", INT32, "0+")));
    }

    /** apiKey 12: {@code FeatureLevelRecord}. */
    private static MetadataRecordSchema featureLevelRecord() {
        return record(12, "FeatureLevelRecord", "FEATURE_LEVEL_RECORD", "0", "0+",
                schema("FeatureLevelRecord",
                        field("Name", STRING, "0+"),
                        field("FeatureLevel", INT16, "0+")));
    }

    /** apiKey 14: {@code ClientQuotaRecord}. */
    private static MetadataRecordSchema clientQuotaRecord() {
        StructSchema entityData = schema("EntityData",
                field("EntityType", STRING, "0+"),
                field("EntityName", STRING, "0+").nullable("0+"));
        return record(14, "ClientQuotaRecord", "CLIENT_QUOTA_RECORD", "0", "0+",
                schema("ClientQuotaRecord",
                        structs("Entity", entityData, "0+"),
                        field("Key", STRING, "0+"),
                        field("Value", FLOAT64, "0+"),
                        field("Remove", BOOL, "0+")));
    }

    /** apiKey 15: {@code ProducerIdsRecord}. */
    private static MetadataRecordSchema producerIdsRecord() {
        return record(15, "ProducerIdsRecord", "PRODUCER_IDS_RECORD", "0", "0+",
                schema("ProducerIdsRecord",
                        field("BrokerId", INT32, "0+"),
                        field("BrokerEpoch", INT64, "0+").withDefault("-1"),
                        field("NextProducerId", INT64, "0+")));
    }

    /** apiKey 17: {@code BrokerRegistrationChangeRecord}. */
    private static MetadataRecordSchema brokerRegistrationChangeRecord() {
        return record(17, "BrokerRegistrationChangeRecord", "BROKER_REGISTRATION_CHANGE_RECORD", "0-3", "0+",
                schema("BrokerRegistrationChangeRecord",
                        field("BrokerId", INT32, "0+"),
                        field("BrokerEpoch", INT64, "0+"),
                        field("Fenced", INT8, "0+").tagged(0, "0+"),
                        field("InControlledShutdown", INT8, "1+").tagged(1, "1+"),
                        array("LogDirs", UUID, "2+").tagged(2, "2+"),
                        array("CordonedLogDirs", UUID, "3+").nullable("3+").tagged(3, "3+").withDefault("null")));
    }

    /** apiKey 18: {@code AccessControlEntryRecord}. */
    private static MetadataRecordSchema accessControlEntryRecord() {
        return record(18, "AccessControlEntryRecord", "ACCESS_CONTROL_ENTRY_RECORD", "0", "0+",
                schema("AccessControlEntryRecord",
                        field("Id", UUID, "0+"),
                        field("ResourceType", INT8, "0+"),
                        field("ResourceName", STRING, "0+"),
                        field("PatternType", INT8, "0+"),
                        field("Principal", STRING, "0+"),
                        field("Host", STRING, "0+"),
                        field("Operation", INT8, "0+"),
                        field("PermissionType", INT8, "0+")));
    }

    /** apiKey 19: {@code RemoveAccessControlEntryRecord}. */
    private static MetadataRecordSchema removeAccessControlEntryRecord() {
        return record(19, "RemoveAccessControlEntryRecord", "REMOVE_ACCESS_CONTROL_ENTRY_RECORD", "0", "0+",
                schema("RemoveAccessControlEntryRecord",
                        field("Id", UUID, "0+")));
    }

    /** apiKey 20: {@code NoOpRecord}. */
    private static MetadataRecordSchema noOpRecord() {
        return record(20, "NoOpRecord", "NO_OP_RECORD", "0", "0+",
                schema("NoOpRecord"));
    }

    /** apiKey 21: {@code ZkMigrationStateRecord}. */
    private static MetadataRecordSchema zkMigrationStateRecord() {
        return record(21, "ZkMigrationStateRecord", "ZK_MIGRATION_STATE_RECORD", "0", "0+",
                schema("ZkMigrationStateRecord",
                        field("ZkMigrationState", INT8, "0+")));
    }

    /** apiKey 22: {@code RemoveUserScramCredentialRecord}. */
    private static MetadataRecordSchema removeUserScramCredentialRecord() {
        return record(22, "RemoveUserScramCredentialRecord", "REMOVE_USER_SCRAM_CREDENTIAL_RECORD", "0", "0+",
                schema("RemoveUserScramCredentialRecord",
                        field("Name", STRING, "0+"),
                        field("Mechanism", INT8, "0+")));
    }

    /** apiKey 23: {@code BeginTransactionRecord}. */
    private static MetadataRecordSchema beginTransactionRecord() {
        return record(23, "BeginTransactionRecord", "BEGIN_TRANSACTION_RECORD", "0", "0+",
                schema("BeginTransactionRecord",
                        field("Name", STRING, "0+").nullable("0+").tagged(0, "0+").withDefault("null")));
    }

    /** apiKey 24: {@code EndTransactionRecord}. */
    private static MetadataRecordSchema endTransactionRecord() {
        return record(24, "EndTransactionRecord", "END_TRANSACTION_RECORD", "0", "0+",
                schema("EndTransactionRecord"));
    }

    /** apiKey 25: {@code AbortTransactionRecord}. */
    private static MetadataRecordSchema abortTransactionRecord() {
        return record(25, "AbortTransactionRecord", "ABORT_TRANSACTION_RECORD", "0", "0+",
                schema("AbortTransactionRecord",
                        field("Reason", STRING, "0+").nullable("0+").tagged(0, "0+").withDefault("null")));
    }

    /** apiKey 26: {@code RemoveDelegationTokenRecord}. */
    private static MetadataRecordSchema removeDelegationTokenRecord() {
        return record(26, "RemoveDelegationTokenRecord", "REMOVE_DELEGATION_TOKEN_RECORD", "0", "0+",
                schema("RemoveDelegationTokenRecord",
                        field("TokenId", STRING, "0+")));
    }

    /** apiKey 27: {@code RegisterControllerRecord}. */
    private static MetadataRecordSchema registerControllerRecord() {
        StructSchema controllerEndpoint = schema("ControllerEndpoint",
                field("Name", STRING, "0+"),
                field("Host", STRING, "0+"),
                field("Port", UINT16, "0+"),
                field("SecurityProtocol", INT16, "0+"));
        StructSchema controllerFeature = schema("ControllerFeature",
                field("Name", STRING, "0+"),
                field("MinSupportedVersion", INT16, "0+"),
                field("MaxSupportedVersion", INT16, "0+"));
        return record(27, "RegisterControllerRecord", "REGISTER_CONTROLLER_RECORD", "0", "0+",
                schema("RegisterControllerRecord",
                        field("ControllerId", INT32, "0+"),
                        field("IncarnationId", UUID, "0+"),
                        field("ZkMigrationReady", BOOL, "0+"),
                        structs("EndPoints", controllerEndpoint, "0+"),
                        structs("Features", controllerFeature, "0+")));
    }

    /** apiKey 28: {@code ClearElrRecord}. */
    private static MetadataRecordSchema clearElrRecord() {
        return record(28, "ClearElrRecord", "CLEAR_ELR_RECORD", "0", "0+",
                schema("ClearElrRecord",
                        field("TopicName", STRING, "0+")));
    }

    /** apiKey 29: {@code UnregisterControllerRecord}. */
    private static MetadataRecordSchema unregisterControllerRecord() {
        return record(29, "UnregisterControllerRecord", "UNREGISTER_CONTROLLER_RECORD", "0", "0+",
                schema("UnregisterControllerRecord",
                        field("ControllerId", INT32, "0+")));
    }
}
