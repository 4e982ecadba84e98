package io.segscope.format.index;

/** A time-index answer: a timestamp and the absolute offset of the batch that reached it. */
public record TimestampOffset(long timestamp, long offset) {
}
