package io.segscope.format.logdir;

/** What a partition directory's name says about it (docs/format.md 1.1). */
public enum DirStatus {
    /** {@code <topic>-<partition>}: a partition of this broker. */
    LIVE(""),
    /** {@code <topic>-<partition>.<uniqueId>-delete}: marked for asynchronous deletion. */
    DELETE("-delete"),
    /** {@code <topic>-<partition>.<uniqueId>-future}: the target of an intra-broker move. */
    FUTURE("-future"),
    /** {@code <topic>-<partition>.<uniqueId>-stray}: found on disk but not assigned to this broker. */
    STRAY("-stray");

    private final String suffix;

    DirStatus(String suffix) {
        this.suffix = suffix;
    }

    public String suffix() {
        return suffix;
    }
}
