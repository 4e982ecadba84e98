/**
 * Salvage of damaged partitions (docs/salvage.md): {@link io.segscope.format.salvage.Salvager} writes a
 * copy of a partition that Kafka loads without truncating anything, keeping every good batch and
 * rebuilding indexes, producer snapshot and leader-epoch checkpoint from them;
 * {@link io.segscope.format.salvage.SalvageOutput} builds the output log dir atomically with
 * consistent checkpoints and a report of every byte and offset range lost.
 */
package io.segscope.format.salvage;
