/**
 * Readers for the small side files of a log dir and its partitions (docs/format.md 1.1, 1.9):
 * producer-state snapshots ({@link io.segscope.format.state.ProducerSnapshotReader}), the
 * checkpoint text container ({@link io.segscope.format.state.CheckpointFile}) with its offset
 * checkpoints ({@link io.segscope.format.state.OffsetCheckpoint}) and
 * {@link io.segscope.format.state.LeaderEpochCheckpoint}, {@link io.segscope.format.state.PartitionMetadata},
 * {@link io.segscope.format.state.MetaProperties} and {@link io.segscope.format.state.CleanShutdown}.
 * Each follows the reading rules of the Kafka 4.4.0 class that reads it, and reports damage as a
 * {@link io.segscope.format.error.FormatException} naming file, byte position and field.
 */
package io.segscope.format.state;
