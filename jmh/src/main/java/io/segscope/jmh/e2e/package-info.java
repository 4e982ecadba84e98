/**
 * Inputs: a generator of large, realistic {@code __consumer_offsets} partitions written with Kafka
 * 4.4.0's own group coordinator classes ({@link io.segscope.jmh.e2e.OffsetsSegmentGenerator},
 * manual in jmh/GENERATOR.md), with the indexes a broker leaves and the committed offsets its
 * coordinator would load ({@link io.segscope.jmh.e2e.ExpectedOffsets}); the one-segment input
 * generated from it on first use ({@link io.segscope.jmh.e2e.OffsetsSegments}) for the scan and
 * decode benchmarks and for {@code perf/compare}, which times whole {@code segscope dump} and
 * {@code verify} runs against Kafka's {@code DumpLogSegments} on the same files. Also the broker
 * acceptance run of compaction output ({@code CompactAcceptance}).
 */
package io.segscope.jmh.e2e;
