/**
 * The write side: {@link io.segscope.format.write.BatchBuilder} builds magic-2 record batches byte for
 * byte as Kafka 4.4.0's {@code MemoryRecordsBuilder} does (every codec, Kafka's default levels, the
 * same libraries and stream buffering), and {@link io.segscope.format.write.SegmentWriter} writes a
 * segment's {@code .log}, {@code .index}, {@code .timeindex} and {@code .txnindex} as Kafka's
 * {@code LogSegment} does, under temporary names renamed into place on close.
 */
package io.segscope.format.write;
