package io.segscope.format.logdir;

import java.util.Optional;

/**
 * One segment of a partition: its base offset, its status (from the transient suffix its files
 * carry) and the files that share them. {@link #log()} is empty for an orphan: index files whose
 * {@code .log} is gone, which Kafka deletes at load.
 */
public final class Segment {
    private final long baseOffset;
    private final FileStatus status;
    private FileEntry log;
    private FileEntry index;
    private FileEntry timeIndex;
    private FileEntry txnIndex;

    Segment(long baseOffset, FileStatus status) {
        this.baseOffset = baseOffset;
        this.status = status;
    }

    void put(FileKind kind, FileEntry entry) {
        switch (kind) {
            case LOG -> log = entry;
            case INDEX -> index = entry;
            case TIME_INDEX -> timeIndex = entry;
            case TXN_INDEX -> txnIndex = entry;
            default -> throw new IllegalArgumentException("not a segment file kind: " + kind);
        }
    }

    public long baseOffset() {
        return baseOffset;
    }

    public FileStatus status() {
        return status;
    }

    public Optional<FileEntry> log() {
        return Optional.ofNullable(log);
    }

    public Optional<FileEntry> index() {
        return Optional.ofNullable(index);
    }

    public Optional<FileEntry> timeIndex() {
        return Optional.ofNullable(timeIndex);
    }

    /** The aborted-transaction index; Kafka creates it lazily, so it is often absent. */
    public Optional<FileEntry> txnIndex() {
        return Optional.ofNullable(txnIndex);
    }

    /** The file of {@code kind}, if present. */
    public Optional<FileEntry> file(FileKind kind) {
        return switch (kind) {
            case LOG -> log();
            case INDEX -> index();
            case TIME_INDEX -> timeIndex();
            case TXN_INDEX -> txnIndex();
            default -> Optional.empty();
        };
    }

    /** True when index files exist but the {@code .log} does not. */
    public boolean isOrphan() {
        return log == null;
    }

    @Override
    public String toString() {
        return SegmentFileName.prefix(baseOffset) + status.suffix() + (isOrphan() ? " (orphan)" : "");
    }
}
