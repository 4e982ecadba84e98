/**
 * KRaft metadata: the records of {@code __cluster_metadata} and of metadata snapshots
 * ({@code .checkpoint}), and the values of KRaft control records (LeaderChange, SnapshotHeader,
 * SnapshotFooter, KRaftVersion, KRaftVoters) and transaction markers.
 *
 * <p>Entry points: {@link io.segscope.format.coordinator.metadata.MetadataRecordDecoder#decode}
 * turns a record value into a {@link io.segscope.format.coordinator.metadata.MetadataResult}
 * ({@link io.segscope.format.coordinator.metadata.MetadataDecoded} or
 * {@link io.segscope.format.coordinator.metadata.MetadataUnknown}), and
 * {@link io.segscope.format.coordinator.metadata.ControlValueDecoder#decode} a control record
 * value into a {@link io.segscope.format.coordinator.metadata.ControlValue}. Neither throws for
 * any input bytes. The schema tables ({@link io.segscope.format.coordinator.metadata.MetadataSchemas},
 * {@link io.segscope.format.coordinator.metadata.ControlValueSchemas}) are read by the
 * coordinator package's {@link io.segscope.format.coordinator.StructReader}; JSON text as
 * Kafka's DumpLogSegments prints it is in {@link io.segscope.format.json.MetadataJson}.
 */
package io.segscope.format.coordinator.metadata;
