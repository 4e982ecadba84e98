package io.segscope.format.record;

/** Kafka's timestamp types, with the names Kafka prints. */
public enum TimestampType {
    NO_TIMESTAMP_TYPE(-1, "NoTimestampType"),
    CREATE_TIME(0, "CreateTime"),
    LOG_APPEND_TIME(1, "LogAppendTime");

    public final int id;
    public final String kafkaName;

    TimestampType(int id, String kafkaName) {
        this.id = id;
        this.kafkaName = kafkaName;
    }
}
