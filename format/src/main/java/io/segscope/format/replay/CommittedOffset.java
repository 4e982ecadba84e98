package io.segscope.format.replay;

import io.segscope.format.io.KafkaUuid;

/**
 * A committed (or pending transactional) offset of one group, topic and partition as the group
 * coordinator holds it after a replay (Kafka's {@code OffsetAndMetadata}).
 *
 * @param group the group id
 * @param topic the topic name
 * @param partition the partition
 * @param offset the committed offset
 * @param leaderEpoch the leader epoch (value v3+), or -1 when not stored
 * @param metadata the client's metadata string ("" when none)
 * @param commitTimestamp the commit timestamp (ms)
 * @param expireTimestamp the explicit expire timestamp (value v1), or -1
 * @param topicId the topic id (value v4 tag 0), or null when not stored (zero UUID)
 * @param producerId the transactional producer that wrote it, or -1 for a plain commit
 * @param source where the record that set it was read (its log offset is Kafka's {@code recordOffset})
 */
public record CommittedOffset(String group, String topic, int partition, long offset, int leaderEpoch, String metadata,
                              long commitTimestamp, long expireTimestamp, KafkaUuid topicId, long producerId,
                              Provenance source) {
}
