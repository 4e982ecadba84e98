package io.segscope.format.replay;

/**
 * Where a replayed record was read.
 *
 * @param file the path of the {@code .log} file
 * @param coordinatorPartition the partition number of {@code __consumer_offsets} (from the
 *     directory name), or -1 when the file is not in a named partition directory
 * @param logOffset the record's offset in the log
 * @param position the byte position of its batch in the file
 * @param batchTimestamp the batch's max timestamp (ms; -1 for magic 0)
 */
public record Provenance(String file, int coordinatorPartition, long logOffset, long position, long batchTimestamp) {
}
