/**
 * Decoders for the records of Kafka's coordinator topics, {@code __consumer_offsets},
 * {@code __transaction_state} and {@code __share_group_state} (docs/format.md 2).
 *
 * <p>Entry point: {@link io.segscope.format.coordinator.CoordinatorRecordDecoder}
 * ({@code consumerOffsets()}, {@code transactionState()}, {@code shareGroupState()}) turns a key
 * slice and a value slice (null or length -1 = tombstone) into a
 * {@link io.segscope.format.coordinator.CoordinatorResult}: {@link io.segscope.format.coordinator.Decoded}
 * (key and value as {@link io.segscope.format.coordinator.StructValue} trees) or
 * {@link io.segscope.format.coordinator.Unknown} (reason, type and version numbers, raw bytes,
 * detail). No input bytes make it throw.
 *
 * <p>How: each record type is a {@link io.segscope.format.coordinator.RecordSchema} table (field
 * names, types, versions, nullable versions, tags, defaults as Kafka's JSON schemas declare them;
 * pinned to the vendored Kafka 4.4.0 schemas by {@code SchemaTablesTest}), and one interpreter,
 * {@link io.segscope.format.coordinator.StructReader}, reads any struct at any version with
 * Kafka's generated readers' rules. The offset-commit hot path skips all that:
 * {@link io.segscope.format.coordinator.group.OffsetCommitView} reads keys and values in place,
 * with group and topic as {@link io.segscope.format.coordinator.Utf8Slice}s that hash like
 * {@code String.hashCode}. Sub-packages hold the tables: {@code group} (with the consumer
 * embedded protocol), {@code txn}, {@code share}. JSON output lives in
 * {@link io.segscope.format.json}.
 */
package io.segscope.format.coordinator;
