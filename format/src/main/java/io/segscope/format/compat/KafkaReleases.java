package io.segscope.format.compat;

import static io.segscope.format.compat.LoadOutcome.FAILS;
import static io.segscope.format.compat.LoadOutcome.SKIPS;
import static io.segscope.format.compat.StateLog.CLUSTER_METADATA;
import static io.segscope.format.compat.StateLog.CONSUMER_OFFSETS;
import static io.segscope.format.compat.StateLog.SHARE_GROUP_STATE;
import static io.segscope.format.compat.StateLog.TRANSACTION_STATE;
import static io.segscope.format.record.CompressionType.GZIP;
import static io.segscope.format.record.CompressionType.LZ4;
import static io.segscope.format.record.CompressionType.NONE;
import static io.segscope.format.record.CompressionType.SNAPPY;
import static io.segscope.format.record.CompressionType.ZSTD;

import io.segscope.format.coordinator.Versions;
import io.segscope.format.record.CompressionType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What each Kafka release line from 0.10.0 to 4.4 reads: message format magic, codecs, delete
 * horizons, control record types, and every record type and value version of the coordinator
 * topics and the KRaft metadata log, with what its loader does with the ones it does not know.
 *
 * <p>Each line below changes the one before it. The record types and versions come from each
 * release's own schemas, vendored under {@code testdata/schemas} (testdata/schemas/README.md lists
 * the jars and their SHA-256): the JSON files of 2.8 and later, and for the releases that kept their
 * coordinator schemas in Scala code (0.10.0 to 2.7), a {@code versions.json} read from the decompiled
 * {@code GroupMetadataManager} and {@code TransactionLog}. {@code KafkaReleasesSchemaTest} fails when
 * the table and the vendored schemas disagree. The other facts cite the release and class they were
 * read from; docs/format.md 1.6 and 1.7 hold the magic, codec and batch feature history.
 */
public final class KafkaReleases {
    private static final List<ReleaseFormats> ALL = build();

    /**
     * The {@code metadata.version} names by feature level (index), as 4.4.0's {@code MetadataVersion}
     * names them ({@code KafkaReleasesOracleTest} checks them against the jar).
     */
    private static final String[] METADATA_VERSIONS = {null, "3.0-IV1", "3.1-IV0", "3.2-IV0", "3.3-IV0", "3.3-IV1",
        "3.3-IV2", "3.3-IV3", "3.4-IV0", "3.5-IV0", "3.5-IV1", "3.5-IV2", "3.6-IV0", "3.6-IV1", "3.6-IV2", "3.7-IV0",
        "3.7-IV1", "3.7-IV2", "3.7-IV3", "3.7-IV4", "3.8-IV0", "3.9-IV0", "4.0-IV0", "4.0-IV1", "4.0-IV2", "4.0-IV3",
        "4.1-IV0", "4.1-IV1", "4.2-IV0", "4.2-IV1", "4.3-IV0", "4.4-IV0", "4.4-IV1", "4.4-IV2", "4.5-IV0"};

    private KafkaReleases() {
    }

    /** The {@code metadata.version} of a feature level ("4.4-IV2" for 33), or null when 4.4.0 does not know it. */
    public static String metadataVersion(int level) {
        return level > 0 && level < METADATA_VERSIONS.length ? METADATA_VERSIONS[level] : null;
    }

    /** "4.4-IV2 (level 33)", or "level 40" for a level 4.4.0 does not know. */
    public static String metadataVersionLabel(int level) {
        String name = metadataVersion(level);
        return name == null ? "level " + level : name + " (level " + level + ")";
    }

    /** Every release line, oldest first. */
    public static List<ReleaseFormats> all() {
        return ALL;
    }

    /** The release line "0.10.0" .. "4.4" (a full version such as "3.9.1" names its line), or null. */
    public static ReleaseFormats line(String version) {
        for (ReleaseFormats r : ALL) {
            if (version.equals(r.line()) || version.startsWith(r.line() + ".")) {
                return r;
            }
        }
        return null;
    }

    private static List<ReleaseFormats> build() {
        return new Table()
        // Magic 1 and timestamps from 0.10.0 (KIP-31/32); lz4, gzip and snappy since 0.8 (docs/format.md 1.6, 1.7).
        // kafka.coordinator.GroupMetadataManager$ (kafka_2.11-0.10.0.1): readMessageKey throws on a key version
        // outside MESSAGE_TYPE_SCHEMAS, readOffsetMessageValue and readGroupMessageValue on a value version
        // outside their maps; GroupMetadataManager.loadGroupsForPartition stops on the exception.
        .line("0.10.0", "0.10.0.1", "kafka-0.10.0").magic(1).codecs(NONE, GZIP, SNAPPY, LZ4)
        .loader(CONSUMER_OFFSETS, FAILS, FAILS, "kafka.coordinator.GroupMetadataManager")
        .put(CONSUMER_OFFSETS, 0, "OffsetCommit", "0-1", "none")
        .put(CONSUMER_OFFSETS, 1, "OffsetCommit", "0-1", "none")
        .put(CONSUMER_OFFSETS, 2, "GroupMetadata", "0", "none")
        .line("0.10.1", "0.10.1.1", "kafka-0.10.1")
        .put(CONSUMER_OFFSETS, 2, "GroupMetadata", "0-1", "none")
        .line("0.10.2", "0.10.2.2", "kafka-0.10.1")
        // Magic 2, control batches (ABORT, COMMIT) and __transaction_state from 0.11.0 (KIP-98, docs/format.md 1.6).
        // kafka.coordinator.transaction.TransactionLog$ (kafka_2.12-0.11.0.3): readTxnRecordKey and
        // readTxnRecordValue throw IllegalStateException("Unknown version ...") on any version but 0;
        // TransactionStateManager.loadTransactionMetadata stops ("Error loading transactions from transaction log").
        .line("0.11.0", "0.11.0.3", "kafka-0.11.0").magic(2).control(0, "ABORT").control(1, "COMMIT")
        .loader(CONSUMER_OFFSETS, FAILS, FAILS, "kafka.coordinator.group.GroupMetadataManager")
        .loader(TRANSACTION_STATE, FAILS, FAILS, "kafka.coordinator.transaction.TransactionStateManager")
        .put(TRANSACTION_STATE, 0, "TransactionLog", "0", "none")
        .line("1.0", "1.0.2", "kafka-0.11.0")
        .line("1.1", "1.1.1", "kafka-0.11.0")
        .line("2.0", "2.0.1", "kafka-0.11.0")
        // zstd from 2.1 (KIP-110: CompressionType.ZSTD at tag 2.1.0). OffsetCommitValue v2 and v3 (KIP-211,
        // KIP-320) and GroupMetadataValue v2 in GroupMetadataManager$ of kafka_2.12-2.1.1.
        .line("2.1", "2.1.1", "kafka-2.1").codecs(NONE, GZIP, SNAPPY, LZ4, ZSTD)
        .put(CONSUMER_OFFSETS, 0, "OffsetCommit", "0-3", "none")
        .put(CONSUMER_OFFSETS, 1, "OffsetCommit", "0-3", "none")
        .put(CONSUMER_OFFSETS, 2, "GroupMetadata", "0-2", "none")
        .line("2.2", "2.2.2", "kafka-2.1")
        .line("2.3", "2.3.1", "kafka-2.3")
        .put(CONSUMER_OFFSETS, 2, "GroupMetadata", "0-3", "none")
        .line("2.4", "2.4.1", "kafka-2.3")
        .line("2.5", "2.5.1", "kafka-2.3")
        .line("2.6", "2.6.3", "kafka-2.3")
        // LEADER_CHANGE control records from 2.7 (KIP-595), numbered 3 after QUORUM_REASSIGNMENT 2 in
        // ControlRecordType at tags 2.7.0 and 2.8.2; 3.0 renumbered LEADER_CHANGE 2.
        .line("2.7", "2.7.2", "kafka-2.3").control(2, "QUORUM_REASSIGNMENT").control(3, "LEADER_CHANGE")
        // The coordinator schemas become JSON (kafka_2.13-2.8.2 common/message); the KRaft metadata log
        // appears as a preview (kafka-metadata-2.8.2). 2.8's MetadataRecordSerde (raft module, tag 2.8.2)
        // reads frame version 0 only and MetadataRecordType.fromId throws on an unknown apiKey.
        .line("2.8", "2.8.2", "kafka-2.8")
        .loader(CLUSTER_METADATA, FAILS, FAILS, "org.apache.kafka.raft.metadata.MetadataRecordSerde",
                "records in frame version 0; 3.0 and later refuse frame version 0")
        .put(CLUSTER_METADATA, 0, "RegisterBrokerRecord", "0", "none")
        .put(CLUSTER_METADATA, 1, "UnregisterBrokerRecord", "0", "none")
        .put(CLUSTER_METADATA, 2, "TopicRecord", "0", "none")
        .put(CLUSTER_METADATA, 3, "PartitionRecord", "0", "none")
        .put(CLUSTER_METADATA, 4, "ConfigRecord", "0", "none")
        .put(CLUSTER_METADATA, 5, "PartitionChangeRecord", "0", "0+")
        .put(CLUSTER_METADATA, 6, "AccessControlRecord", "0", "0+")
        .put(CLUSTER_METADATA, 7, "FenceBrokerRecord", "0", "none")
        .put(CLUSTER_METADATA, 8, "UnfenceBrokerRecord", "0", "none")
        .put(CLUSTER_METADATA, 9, "RemoveTopicRecord", "0", "none")
        .put(CLUSTER_METADATA, 10, "DelegationTokenRecord", "0", "none")
        .put(CLUSTER_METADATA, 11, "UserScramCredentialRecord", "0", "none")
        .put(CLUSTER_METADATA, 12, "FeatureLevelRecord", "0", "none")
        .put(CLUSTER_METADATA, 14, "QuotaRecord", "0", "none")
        // Snapshot control records (KAFKA-12952) and LEADER_CHANGE renumbered 2 (ControlRecordType at tag 3.0.0).
        // AbstractApiMessageSerde.read (server-common, tag 3.0.0) throws MetadataParseException on frame
        // version 0, an unknown apiKey or a version the record cannot read. Every metadata record becomes
        // flexible at version 0, so 2.8's version-0 records do not read as 3.0's.
        .line("3.0", "3.0.2", "kafka-3.0").removeControl(3).control(2, "LEADER_CHANGE")
        .control(3, "SNAPSHOT_HEADER").control(4, "SNAPSHOT_FOOTER")
        .loader(CLUSTER_METADATA, FAILS, FAILS, "org.apache.kafka.server.common.serialization.AbstractApiMessageSerde",
                "records in frame version 1")
        .put(CLUSTER_METADATA, 0, "RegisterBrokerRecord", "0", "0+")
        .put(CLUSTER_METADATA, 1, "UnregisterBrokerRecord", "0", "0+")
        .put(CLUSTER_METADATA, 2, "TopicRecord", "0", "0+")
        .put(CLUSTER_METADATA, 3, "PartitionRecord", "0", "0+")
        .put(CLUSTER_METADATA, 4, "ConfigRecord", "0", "0+")
        .put(CLUSTER_METADATA, 7, "FenceBrokerRecord", "0", "0+")
        .put(CLUSTER_METADATA, 8, "UnfenceBrokerRecord", "0", "0+")
        .put(CLUSTER_METADATA, 9, "RemoveTopicRecord", "0", "0+")
        .put(CLUSTER_METADATA, 10, "DelegationTokenRecord", "0", "0+")
        .put(CLUSTER_METADATA, 11, "UserScramCredentialRecord", "0", "0+")
        .put(CLUSTER_METADATA, 12, "FeatureLevelRecord", "0", "0+")
        .put(CLUSTER_METADATA, 14, "ClientQuotaRecord", "0", "0+")
        .put(CLUSTER_METADATA, 15, "ProducerIdsRecord", "0", "0+")
        .put(CLUSTER_METADATA, 16, "RemoveFeatureLevelRecord", "0", "0+")
        .put(CLUSTER_METADATA, 17, "BrokerRegistrationChangeRecord", "0", "0+")
        // Delete horizons from 3.1 (KIP-534: DefaultRecordBatch.DELETE_HORIZON_FLAG_MASK first at tag 3.1.0).
        .line("3.1", "3.1.2", "kafka-3.0").deleteHorizon()
        .line("3.2", "3.2.3", "kafka-3.2")
        .put(CLUSTER_METADATA, 18, "AccessControlEntryRecord", "0", "0+")
        .put(CLUSTER_METADATA, 19, "RemoveAccessControlEntryRecord", "0", "0+")
        .line("3.3", "3.3.2", "kafka-3.3")
        .put(CLUSTER_METADATA, 0, "RegisterBrokerRecord", "0-1", "0+")
        .remove(CLUSTER_METADATA, 16)
        .put(CLUSTER_METADATA, 17, "BrokerRegistrationChangeRecord", "0-1", "0+")
        .put(CLUSTER_METADATA, 20, "NoOpRecord", "0", "0+")
        // metadata.version (KIP-778) from 3.3. MetadataVersion of kafka-server-common-3.3.2 to 3.6.2 has no
        // unstable levels: a 3.x node up to 3.6 supports every level up to MetadataVersion.latest().
        .feature("metadata.version", 7, 7)
        // 3.4.1 has the KIP-915 backport: OffsetCommitValue and GroupMetadataValue v4 (flexible),
        // TransactionLogValue v1, and readMessageKey / readTxnRecordKey return UnknownKey for a key version
        // they do not know, which GroupMetadataManager and TransactionStateManager skip ("Unknown message key
        // ... Ignoring it"); an unknown value version still throws IllegalStateException (kafka_2.13-3.4.1).
        // 3.4.0 is older than the backport: its readers are 3.3's.
        .line("3.4", "3.4.1", "kafka-3.4")
        .loader(CONSUMER_OFFSETS, SKIPS, FAILS, "kafka.coordinator.group.GroupMetadataManager")
        .loader(TRANSACTION_STATE, SKIPS, FAILS, "kafka.coordinator.transaction.TransactionStateManager")
        .put(CONSUMER_OFFSETS, 0, "OffsetCommit", "0-4", "4+")
        .put(CONSUMER_OFFSETS, 1, "OffsetCommit", "0-4", "4+")
        .put(CONSUMER_OFFSETS, 2, "GroupMetadata", "0-4", "4+")
        .put(TRANSACTION_STATE, 0, "TransactionLog", "0-1", "1+")
        .put(CLUSTER_METADATA, 0, "RegisterBrokerRecord", "0-2", "0+")
        .put(CLUSTER_METADATA, 21, "ZkMigrationStateRecord", "0", "0+")
        .feature("metadata.version", 8, 8)
        // KIP-848 records (early access until 4.0; their value schemas changed incompatibly at version 0 before
        // 4.0, docs/format.md 2.5) in kafka-group-coordinator-3.5.2. The default coordinator of 3.x is still
        // GroupMetadataManager, which skips them as unknown key versions.
        .line("3.5", "3.5.2", "kafka-3.5")
        .put(CONSUMER_OFFSETS, 3, "ConsumerGroupMetadata", "0", "0+")
        .put(CONSUMER_OFFSETS, 4, "ConsumerGroupPartitionMetadata", "0", "0+")
        .put(CONSUMER_OFFSETS, 5, "ConsumerGroupMemberMetadata", "0", "0+")
        .put(CONSUMER_OFFSETS, 6, "ConsumerGroupTargetAssignmentMetadata", "0", "0+")
        .put(CONSUMER_OFFSETS, 7, "ConsumerGroupTargetAssignmentMember", "0", "0+")
        .put(CONSUMER_OFFSETS, 8, "ConsumerGroupCurrentMemberAssignment", "0", "0+")
        .remove(CLUSTER_METADATA, 6)
        .put(CLUSTER_METADATA, 22, "RemoveUserScramCredentialRecord", "0", "0+")
        .feature("metadata.version", 11, 11)
        .line("3.6", "3.6.2", "kafka-3.6")
        .put(CLUSTER_METADATA, 23, "BeginTransactionRecord", "0", "0+")
        .put(CLUSTER_METADATA, 24, "EndTransactionRecord", "0", "0+")
        .put(CLUSTER_METADATA, 25, "AbortTransactionRecord", "0", "0+")
        .put(CLUSTER_METADATA, 26, "RemoveDelegationTokenRecord", "0", "0+")
        .feature("metadata.version", 14, 14)
        .line("3.7", "3.7.2", "kafka-3.7")
        .put(CLUSTER_METADATA, 0, "RegisterBrokerRecord", "0-3", "0+")
        .put(CLUSTER_METADATA, 3, "PartitionRecord", "0-2", "0+")
        .put(CLUSTER_METADATA, 5, "PartitionChangeRecord", "0-2", "0+")
        .put(CLUSTER_METADATA, 17, "BrokerRegistrationChangeRecord", "0-2", "0+")
        .put(CLUSTER_METADATA, 27, "RegisterControllerRecord", "0", "0+")
        // From 3.7 MetadataVersion has LATEST_PRODUCTION and levels above it that a node supports only with
        // unstable metadata versions enabled (latestTesting; 3.7.2: 3.7-IV4 19, 3.8-IV0 20).
        .feature("metadata.version", 19, 20)
        // KRAFT_VERSION and KRAFT_VOTERS control records from 3.8 (KIP-853, ControlRecordType at tag 3.8.0).
        // No new version in 3.8's schemas: KIP-848 value fields changed within version 0 (client-side assignors
        // removed, ClassicMemberMetadata added) and a metadata field was renamed.
        .line("3.8", "3.8.1", "kafka-3.8").control(5, "KRAFT_VERSION").control(6, "KRAFT_VOTERS")
        .feature("metadata.version", 20, 21)
        // Share group records (KIP-932, early access) in kafka-group-coordinator-3.9.2; TransactionLog's schemas
        // move to kafka-transaction-coordinator-3.9.2 (same versions).
        .line("3.9", "3.9.2", "kafka-3.9")
        .put(CONSUMER_OFFSETS, 9, "ShareGroupPartitionMetadata", "0", "0+")
        .put(CONSUMER_OFFSETS, 10, "ShareGroupMemberMetadata", "0", "0+")
        .put(CONSUMER_OFFSETS, 11, "ShareGroupMetadata", "0", "0+")
        // org.apache.kafka.server.common.Features of kafka-server-common-3.9.1: kraft.version (KIP-853) and
        // transaction.version (KIP-890), the latter unstable only.
        .feature("metadata.version", 21, 23).feature("kraft.version", 1, 1).feature("transaction.version", 0, 2)
        // 4.0 has only the new group coordinator: CoordinatorLoaderImpl (kafka.coordinator.group in
        // kafka_2.13-4.0.2 and 4.1.2, org.apache.kafka.coordinator.common.runtime from 4.2) catches
        // UnknownRecordTypeException and skips the record; CoordinatorRecordSerde.deserialize throws
        // UnknownRecordVersionException for a value version outside the record's range, which fails the load.
        // __share_group_state (kafka-share-coordinator-4.0.2) is loaded by the same loader.
        .line("4.0", "4.0.2", "kafka-4.0")
        .loader(CONSUMER_OFFSETS, SKIPS, FAILS, "kafka.coordinator.group.CoordinatorLoaderImpl")
        .loader(SHARE_GROUP_STATE, SKIPS, FAILS, "kafka.coordinator.group.CoordinatorLoaderImpl")
        .put(CONSUMER_OFFSETS, 12, "ShareGroupTargetAssignmentMetadata", "0", "0+")
        .put(CONSUMER_OFFSETS, 13, "ShareGroupTargetAssignmentMember", "0", "0+")
        .put(CONSUMER_OFFSETS, 14, "ShareGroupCurrentMemberAssignment", "0", "0+")
        .put(CONSUMER_OFFSETS, 15, "ShareGroupStatePartitionMetadata", "0", "0+")
        .put(CONSUMER_OFFSETS, 16, "ConsumerGroupRegularExpression", "0", "0+")
        .put(SHARE_GROUP_STATE, 0, "ShareSnapshot", "0", "0+")
        .put(SHARE_GROUP_STATE, 1, "ShareUpdate", "0", "0+")
        .put(CLUSTER_METADATA, 28, "ClearElrRecord", "0", "0+")
        // org.apache.kafka.server.common.Feature (kafka-server-common-4.0.1): group.version (KIP-848) and
        // eligible.leader.replicas.version (KIP-966); transaction.version 2 in production.
        .feature("metadata.version", 25, 26).feature("transaction.version", 2, 2).feature("group.version", 1, 1)
        .feature("eligible.leader.replicas.version", 1, 1)
        // Record types become apiKeys (LegacyOffsetCommit is type 0, value version 0 only); streams group
        // records (KIP-1071) in kafka-group-coordinator-4.1.2.
        .line("4.1", "4.1.2", "kafka-4.1")
        .put(CONSUMER_OFFSETS, 0, "LegacyOffsetCommit", "0", "none")
        .remove(CONSUMER_OFFSETS, 9)
        .put(CONSUMER_OFFSETS, 17, "StreamsGroupMetadata", "0", "0+")
        .put(CONSUMER_OFFSETS, 19, "StreamsGroupMemberMetadata", "0", "0+")
        .put(CONSUMER_OFFSETS, 20, "StreamsGroupTargetAssignmentMetadata", "0", "0+")
        .put(CONSUMER_OFFSETS, 21, "StreamsGroupTargetAssignmentMember", "0", "0+")
        .put(CONSUMER_OFFSETS, 22, "StreamsGroupCurrentMemberAssignment", "0", "0+")
        .put(CONSUMER_OFFSETS, 23, "StreamsGroupTopology", "0", "0+")
        // kafka-server-common-4.1.1: share.version (KIP-932) and streams.version (KIP-1071, unstable only).
        .feature("metadata.version", 27, 29).feature("share.version", 1, 1).feature("streams.version", 0, 1)
        // New tagged fields within version 0 of streams group records; CoordinatorLoaderImpl moves to
        // kafka-coordinator-common (4.2.2, same catch).
        .line("4.2", "4.2.2", "kafka-4.2")
        .loader(CONSUMER_OFFSETS, SKIPS, FAILS, "org.apache.kafka.coordinator.common.runtime.CoordinatorLoaderImpl")
        .loader(SHARE_GROUP_STATE, SKIPS, FAILS, "org.apache.kafka.coordinator.common.runtime.CoordinatorLoaderImpl")
        // kafka-server-common-4.2.0: streams.version 1 in production.
        .feature("metadata.version", 29, 30).feature("streams.version", 1, 1)
        // kafka_2.13-4.3.2 TransactionStateManager skips TransactionLog.UnknownValueVersion too
        // (kafka-transaction-coordinator-4.3.2 TransactionLog.read); 4.2.2's TransactionLog$ still throws.
        .line("4.3", "4.3.2", "kafka-4.3")
        .loader(TRANSACTION_STATE, SKIPS, SKIPS, "kafka.coordinator.transaction.TransactionStateManager")
        .put(CLUSTER_METADATA, 0, "RegisterBrokerRecord", "0-4", "0+")
        .put(CLUSTER_METADATA, 17, "BrokerRegistrationChangeRecord", "0-3", "0+")
        .feature("metadata.version", 30, 31)
        .line("4.4", "4.4.0", "kafka-4.4.0")
        .put(CLUSTER_METADATA, 29, "UnregisterControllerRecord", "0", "0+")
        .feature("metadata.version", 33, 34).feature("share.version", 2, 2)
        .build();
    }

    /** Each line starts as a copy of the one before it and applies its changes. */
    private static final class Table {
        private final List<ReleaseFormats> done = new ArrayList<>();
        private String line;
        private String release;
        private String schemas;
        private int maxMagic;
        private final EnumSet<CompressionType> codecs = EnumSet.noneOf(CompressionType.class);
        private boolean deleteHorizon;
        private final TreeMap<Integer, String> controlTypes = new TreeMap<>();
        private final EnumMap<StateLog, TreeMap<Integer, KnownRecord>> records = new EnumMap<>(StateLog.class);
        private final EnumMap<StateLog, String[]> loaders = new EnumMap<>(StateLog.class);
        private final EnumMap<StateLog, LoadOutcome[]> outcomes = new EnumMap<>(StateLog.class);
        private final TreeMap<String, FeatureSupport> features = new TreeMap<>();

        Table line(String line, String release, String schemas) {
            finish();
            this.line = line;
            this.release = release;
            this.schemas = schemas;
            return this;
        }

        Table magic(int magic) {
            this.maxMagic = magic;
            return this;
        }

        Table codecs(CompressionType... all) {
            codecs.clear();
            Collections.addAll(codecs, all);
            return this;
        }

        Table deleteHorizon() {
            deleteHorizon = true;
            return this;
        }

        Table control(int id, String name) {
            controlTypes.put(id, name);
            return this;
        }

        Table feature(String name, int production, int known) {
            features.put(name, new FeatureSupport(name, (short) production, (short) known));
            return this;
        }

        Table removeControl(int id) {
            controlTypes.remove(id);
            return this;
        }

        Table loader(StateLog log, LoadOutcome unknownType, LoadOutcome unknownVersion, String loader) {
            String[] previous = loaders.get(log);
            return loader(log, unknownType, unknownVersion, loader, previous == null ? "" : previous[1]);
        }

        Table loader(StateLog log, LoadOutcome unknownType, LoadOutcome unknownVersion, String loader, String note) {
            outcomes.put(log, new LoadOutcome[]{unknownType, unknownVersion});
            loaders.put(log, new String[]{loader, note});
            return this;
        }

        Table put(StateLog log, int type, String name, String valueVersions, String flexibleVersions) {
            records.computeIfAbsent(log, l -> new TreeMap<>())
                    .put(type, new KnownRecord(type, name, Versions.parse(valueVersions), Versions.parse(flexibleVersions)));
            return this;
        }

        Table remove(StateLog log, int type) {
            records.get(log).remove(type);
            return this;
        }

        private void finish() {
            if (line == null) {
                return;
            }
            Map<StateLog, LogKnowledge> logs = new EnumMap<>(StateLog.class);
            for (Map.Entry<StateLog, TreeMap<Integer, KnownRecord>> e : records.entrySet()) {
                StateLog log = e.getKey();
                LoadOutcome[] o = outcomes.get(log);
                String[] l = loaders.get(log);
                if (o == null) {
                    throw new IllegalStateException(line + ": no loader for " + log);
                }
                logs.put(log, new LogKnowledge(log, e.getValue(), o[0], o[1], l[0], l[1]));
            }
            SortedMap<Integer, String> control = Collections.unmodifiableSortedMap(new TreeMap<>(controlTypes));
            done.add(new ReleaseFormats(line, release, schemas, maxMagic, Collections.unmodifiableSet(EnumSet.copyOf(codecs)),
                    deleteHorizon, control, Collections.unmodifiableMap(logs),
                    Collections.unmodifiableSortedMap(new TreeMap<>(features))));
        }

        List<ReleaseFormats> build() {
            finish();
            line = null;
            return List.copyOf(done);
        }
    }
}
