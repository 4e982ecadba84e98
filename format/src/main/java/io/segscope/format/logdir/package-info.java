/**
 * Discovery of Kafka's on-disk layout (docs/format.md 1.1): {@link io.segscope.format.logdir.LogDir}
 * → {@link io.segscope.format.logdir.PartitionDir} → {@link io.segscope.format.logdir.SegmentSet}
 * → {@link io.segscope.format.logdir.Segment}. Directory names follow Kafka's
 * {@code LocalLog.parseTopicPartitionName}; file names Kafka's {@code LogFileUtils}. Transient
 * files ({@code .deleted}, {@code .cleaned}, {@code .swap}) and directories ({@code -delete},
 * {@code -future}, {@code -stray}) are left out unless asked for with {@link io.segscope.format.logdir.Include}.
 * The tree walked is a {@link io.segscope.format.logdir.FileEntry}, so an archive can supply the
 * same listing as the file system ({@link io.segscope.format.logdir.PathEntry}).
 */
package io.segscope.format.logdir;
