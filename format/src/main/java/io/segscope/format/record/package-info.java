/**
 * The segment codec (docs/format.md 1.2–1.5, 1.10): {@link io.segscope.format.record.BatchReader}
 * walks a {@code .log} file as Kafka's {@code FileLogInputStream} does and yields reused flyweights,
 * {@link io.segscope.format.record.BatchView} (magic 2) or
 * {@link io.segscope.format.record.LegacyBatchView} (magic 0/1, plain or compressed wrapper), whose
 * records ({@link io.segscope.format.record.RecordView}, {@link io.segscope.format.record.LegacyMessageView})
 * expose keys, values and headers as slices of the mapped file or of the one reused decompression
 * buffer ({@link io.segscope.format.record.Decompressor}: gzip, snappy, lz4, zstd with Kafka's
 * framing, capped). Nothing is allocated per batch or record. How a walk ends is a
 * {@link io.segscope.format.record.Tail}: clean, a partial batch, or a zero-filled tail.
 */
package io.segscope.format.record;
