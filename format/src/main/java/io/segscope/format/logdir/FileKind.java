package io.segscope.format.logdir;

/**
 * What a file of a log dir is (docs/format.md 1.1). The first five are segment files, named
 * {@code <offset><suffix>[.deleted|.cleaned|.swap]}; the others are recognised by their whole
 * name. {@link LogFile#classify} is the one place that tells them apart.
 */
public enum FileKind {
    LOG(".log"),
    INDEX(".index"),
    TIME_INDEX(".timeindex"),
    TXN_INDEX(".txnindex"),
    /** A producer-state snapshot, named by the offset it was taken at (not a segment base offset). */
    SNAPSHOT(".snapshot"),
    /** A KRaft snapshot of {@code __cluster_metadata}: {@code <20-digit end offset>-<10-digit epoch>.checkpoint}, record batches. */
    KRAFT_SNAPSHOT(null),
    /** The KRaft bootstrap snapshot that 3.x {@code kafka-storage format} leaves at a log dir's root: record batches. */
    BOOTSTRAP_CHECKPOINT(null),
    /** {@code .kafka_cleanshutdown} at a log dir's root. */
    CLEAN_SHUTDOWN(null),
    /** {@code meta.properties} at a log dir's root. */
    META_PROPERTIES(null),
    /** One of the offset checkpoint files at a log dir's root. */
    OFFSET_CHECKPOINT(null),
    /** {@code partition.metadata} in a partition dir. */
    PARTITION_METADATA(null),
    /** {@code leader-epoch-checkpoint} in a partition dir. */
    LEADER_EPOCH_CHECKPOINT(null),
    /** A {@code .tmp} file: a write that never completed. */
    TMP(null),
    /** Anything else. */
    OTHER(null);

    private final String suffix;

    FileKind(String suffix) {
        this.suffix = suffix;
    }

    /** The suffix of a segment file kind; null for the kinds named otherwise. */
    public String suffix() {
        return suffix;
    }

    /** True for the kinds named {@code <offset><suffix>}. */
    public boolean isSegmentFile() {
        return suffix != null;
    }

    public boolean isIndex() {
        return this == INDEX || this == TIME_INDEX || this == TXN_INDEX;
    }

    /** True for files made of record batches: segments and KRaft snapshots. */
    public boolean holdsRecords() {
        return this == LOG || this == KRAFT_SNAPSHOT || this == BOOTSTRAP_CHECKPOINT;
    }
}
