/**
 * End-to-end throughput inputs: a generator of large, realistic {@code __consumer_offsets}
 * segments written with Kafka 4.4.0's own group coordinator classes, for
 * {@code jmh/e2e/dump-throughput.sh}, which times whole {@code segscope dump} runs against Kafka's
 * {@code DumpLogSegments} on the same file.
 */
package io.segscope.jmh.e2e;
