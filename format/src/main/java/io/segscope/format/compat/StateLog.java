package io.segscope.format.compat;

/**
 * The logs whose records carry versions of their own, on top of the batch format: the three
 * coordinator topics and the KRaft metadata log (docs/format.md 2, 2.10, 2.11).
 */
public enum StateLog {
    CONSUMER_OFFSETS("__consumer_offsets"),
    TRANSACTION_STATE("__transaction_state"),
    SHARE_GROUP_STATE("__share_group_state"),
    CLUSTER_METADATA("__cluster_metadata");

    /** The topic name Kafka gives the log. */
    public final String topic;

    StateLog(String topic) {
        this.topic = topic;
    }

    /** The log of a topic name, or null for any other topic. */
    public static StateLog forTopic(String topic) {
        for (StateLog log : values()) {
            if (log.topic.equals(topic)) {
                return log;
            }
        }
        return null;
    }
}
