package io.segscope.format.coordinator;

import io.segscope.format.io.KafkaUuid;
import java.util.Map;

/**
 * Where a coordinator record key keeps the facts that identify what it is about, by schema field:
 * the owner (the group id of {@code __consumer_offsets} and {@code __share_group_state} keys, the
 * transactional id of {@code __transaction_state} keys), the topic (a name in offset commit keys,
 * a topic id in share-group state keys), the partition and the member id. Resolved once per key
 * schema from Kafka's own field names, so that filters and engines never look fields up by hand.
 *
 * @param owner index of the group or transactional id field (every coordinator key has one)
 * @param topic index of the topic name field, or -1
 * @param topicId index of the topic id field, or -1
 * @param partition index of the partition field, or -1
 * @param member index of the member id field, or -1
 */
public record KeyFields(int owner, int topic, int topicId, int partition, int member) {
    /** Kafka's key field names (both the pre-KIP-848 lower-case ones and the generated ones) by role. */
    private static final Map<String, Integer> ROLES = Map.of(
            "group", 0, "GroupId", 0, "TransactionalId", 0,
            "topic", 1, "TopicId", 2,
            "partition", 3, "Partition", 3,
            "MemberId", 4);

    /** The roles of the fields of {@code key}; -1 for the roles it does not have. */
    public static KeyFields of(StructSchema key) {
        int[] at = {-1, -1, -1, -1, -1};
        for (int i = 0; i < key.fields().size(); i++) {
            Integer role = ROLES.get(key.fields().get(i).name());
            if (role != null) {
                at[role] = i;
            }
        }
        return new KeyFields(at[0], at[1], at[2], at[3], at[4]);
    }

    /** The group or transactional id of a parsed key, or null when the key schema has none. */
    public String owner(StructValue key) {
        return owner < 0 ? null : (String) key.get(owner);
    }

    public String topic(StructValue key) {
        return topic < 0 ? null : (String) key.get(topic);
    }

    public KafkaUuid topicId(StructValue key) {
        return topicId < 0 ? null : (KafkaUuid) key.get(topicId);
    }

    /** The partition, or -1 when the key has none. */
    public int partition(StructValue key) {
        return partition < 0 ? -1 : ((Number) key.get(partition)).intValue();
    }

    public String member(StructValue key) {
        return member < 0 ? null : (String) key.get(member);
    }
}
