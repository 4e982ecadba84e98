package io.segscope.format.coordinator;

import io.segscope.format.io.KafkaUuid;

/**
 * What {@link CoordinatorRecordDecoder} makes of one record: {@link Decoded} or {@link Unknown}.
 * Neither is an error by itself: the caller decides whether an unknown record fails a run.
 */
public sealed interface CoordinatorResult permits Decoded, Unknown {
    CoordinatorTopic topic();

    /** The int16 at the start of the key, or -1 when the key is shorter than 2 bytes or absent. */
    short recordType();

    /** The key struct when the key parsed (also for a value that did not), else null. */
    StructValue keyStruct();

    /**
     * The group id ({@code __consumer_offsets}, {@code __share_group_state}) or transactional id
     * ({@code __transaction_state}) the key names, or null when the key did not parse.
     */
    default String ownerId() {
        StructValue k = keyStruct();
        return k == null ? null : k.schema().keyFields().owner(k);
    }

    /** The topic name the key names (offset commits), or null. */
    default String keyTopic() {
        StructValue k = keyStruct();
        return k == null ? null : k.schema().keyFields().topic(k);
    }

    /** The topic id the key names (share-group state), or null. */
    default KafkaUuid keyTopicId() {
        StructValue k = keyStruct();
        return k == null ? null : k.schema().keyFields().topicId(k);
    }

    /** The partition the key names, or -1. */
    default int keyPartition() {
        StructValue k = keyStruct();
        return k == null ? -1 : k.schema().keyFields().partition(k);
    }
}
