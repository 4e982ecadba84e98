package io.segscope.inspector.output;

import io.segscope.format.logdir.LogFile;
import io.segscope.format.walk.RecordSink;

import java.io.PrintWriter;

/**
 * Writes what {@code dump}'s walk reads in one output format: a {@link RecordSink} that can be
 * flushed. Batches are announced before their records; with filters that look inside records a
 * batch is announced only once one of its records passes.
 */
public interface DumpWriter extends RecordSink {
    /** Where diagnostics go (stderr). */
    PrintWriter err();

    /** Damage skipped or records that did not parse: one line on stderr, in every format. */
    @Override
    default void problem(LogFile target, String message) {
        err().print(message + "\n");
    }

    default void flush() {
    }

    /** True once a side file (index, snapshot) named or found could not be read: dump exits 1, not 0. */
    default boolean sideFileDamaged() {
        return false;
    }

    /** False once the output can no longer be written (the reader has gone, the disk is full). */
    default boolean isOpen() {
        return true;
    }
}
