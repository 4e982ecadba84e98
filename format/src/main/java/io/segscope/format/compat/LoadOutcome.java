package io.segscope.format.compat;

/** What a release's loader does with a record it cannot read (an unknown type or a too-new version). */
public enum LoadOutcome {
    /**
     * The load stops at the record with an exception: the coordinator logs an error and the state
     * after that record is not loaded (the old Scala coordinators; every release for a too-new
     * value version of {@code __consumer_offsets}), or the metadata log cannot be replayed.
     */
    FAILS,
    /** The loader logs a warning ("It could be a left over from an aborted upgrade") and goes on. */
    SKIPS
}
