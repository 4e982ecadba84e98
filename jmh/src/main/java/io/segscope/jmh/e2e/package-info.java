/**
 * End-to-end inputs: a generator of large, realistic {@code __consumer_offsets} partitions written
 * with Kafka 4.4.0's own group coordinator classes ({@link io.segscope.jmh.e2e.OffsetsSegmentGenerator},
 * manual in jmh/GENERATOR.md), with the indexes a broker leaves and the committed offsets its
 * coordinator would load ({@link io.segscope.jmh.e2e.ExpectedOffsets}), for
 * {@code jmh/e2e/dump-throughput.sh}, which times whole {@code segscope dump} runs against Kafka's
 * {@code DumpLogSegments} on the same file, and the replay and compaction benchmarks.
 */
package io.segscope.jmh.e2e;
