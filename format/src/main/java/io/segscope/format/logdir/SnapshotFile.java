package io.segscope.format.logdir;

/** A producer-state snapshot file: the offset it was taken at, its status and the file. */
public record SnapshotFile(long offset, FileStatus status, FileEntry file) {
}
