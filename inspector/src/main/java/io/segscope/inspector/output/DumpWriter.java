package io.segscope.inspector.output;

import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.Tail;
import io.segscope.inspector.input.Target;

/**
 * Receives what {@code dump} reads, in file order, and writes it in one output format. Batches
 * are announced before their records; a writer may print a batch lazily (only once one of its
 * records passes the filters).
 */
public interface DumpWriter {
    void beginFile(Target target);

    /** A batch within the requested range, at byte {@code batch.position()}. */
    void batch(Target target, Batch batch);

    void record(Target target, Batch batch, LogRecord record, RecordContent content);

    /** A record file ended: cleanly, or at a torn tail, or at damage that stopped the walk. */
    void endFile(Target target, Tail tail, long validBytes, long fileSize, String error);

    /** A side file (index, snapshot) is printed by a writer that knows how; others ignore it. */
    default void sideFile(Target target) {
    }

    default void flush() {
    }
}
