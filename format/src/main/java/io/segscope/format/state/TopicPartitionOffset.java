package io.segscope.format.state;

/** One entry of an offset checkpoint file: topic, partition, offset, and the byte position of its line. */
public record TopicPartitionOffset(String topic, int partition, long offset, long position) {
}
