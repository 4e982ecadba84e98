package io.segscope.inspector.output;

import io.segscope.format.walk.RecordSink;

/**
 * Writes what {@code dump}'s walk reads in one output format: a {@link RecordSink} that can be
 * flushed. Batches are announced before their records; with filters that look inside records a
 * batch is announced only once one of its records passes.
 */
public interface DumpWriter extends RecordSink {
    default void flush() {
    }
}
