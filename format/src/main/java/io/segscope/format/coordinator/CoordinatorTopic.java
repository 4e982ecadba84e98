package io.segscope.format.coordinator;

/** The three compacted topics whose records segscope decodes (docs/format.md 2). */
public enum CoordinatorTopic {
    CONSUMER_OFFSETS("__consumer_offsets"),
    TRANSACTION_STATE("__transaction_state"),
    SHARE_GROUP_STATE("__share_group_state");

    private final String topicName;

    CoordinatorTopic(String topicName) {
        this.topicName = topicName;
    }

    public String topicName() {
        return topicName;
    }

    /** The coordinator topic with this name, or null for any other topic. */
    public static CoordinatorTopic forTopicName(String name) {
        for (CoordinatorTopic t : values()) {
            if (t.topicName.equals(name)) {
                return t;
            }
        }
        return null;
    }
}
