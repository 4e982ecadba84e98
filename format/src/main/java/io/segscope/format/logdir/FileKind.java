package io.segscope.format.logdir;

/** The files a partition directory holds per segment, by suffix (docs/format.md 1.1). */
public enum FileKind {
    LOG(".log"),
    INDEX(".index"),
    TIME_INDEX(".timeindex"),
    TXN_INDEX(".txnindex"),
    /** A producer-state snapshot, named by the offset it was taken at (not a segment base offset). */
    SNAPSHOT(".snapshot");

    private final String suffix;

    FileKind(String suffix) {
        this.suffix = suffix;
    }

    public String suffix() {
        return suffix;
    }

    public boolean isIndex() {
        return this == INDEX || this == TIME_INDEX || this == TXN_INDEX;
    }
}
