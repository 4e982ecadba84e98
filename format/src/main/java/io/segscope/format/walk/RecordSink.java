package io.segscope.format.walk;

import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.Tail;

/**
 * Receives what a {@link RecordWalk} reads, in file order: files, batches announced before their
 * records (lazily, only once a record passes the filter, when the filter looks inside records),
 * records with their decoded content, problems, and side files (indexes, snapshots) to print as
 * the sink knows how. Views are valid only during the call. Only {@link #record} must be
 * implemented: a consumer that replays records ignores the rest (and so chooses to go on past
 * damage, which the walk has already skipped).
 */
public interface RecordSink {
    default void beginFile(LogFile file) {
    }

    /**
     * A batch within the requested range, at byte {@code batch.position()}.
     *
     * @param transaction for a transactional data batch, how its transaction ended
     *     ({@link TransactionOutcomes}), when the walk was asked to tell; else null
     */
    default void batch(LogFile file, Batch batch, TransactionOutcome transaction) {
    }

    /**
     * The records of the batch last announced by {@link #batch} are done.
     *
     * @param recordsPassed how many of its records went to {@link #record} (0 for an empty batch,
     *     or when the filter left them all out)
     */
    default void endBatch(LogFile file, Batch batch, long recordsPassed) {
    }

    /**
     * One record and what it says. The record, the batch and a coordinator record's content are
     * reused by the walk: they are valid during this call only (keep what they give, e.g.
     * {@code content.result()}, not them).
     */
    void record(LogFile file, Batch batch, LogRecord record, RecordContent content);

    /**
     * Something that kept part of a file from being read: damaged bytes skipped (the walk went on
     * after them) or the records of a batch that do not parse. One line naming file, position and
     * what was lost.
     */
    default void problem(LogFile file, String message) {
    }

    /**
     * A record file ended: cleanly, at a torn tail, or at damage with no good batch after it.
     *
     * @param tail how the reader ended (a torn tail it detected itself), or null
     * @param validBytes the end of the last whole batch read
     * @param fileSize the bytes that were to be read
     * @param error the damage that ended the file, or null
     */
    default void endFile(LogFile file, Tail tail, long validBytes, long fileSize, String error) {
    }

    /** A file that holds no record batches (an index, a snapshot). */
    default void sideFile(LogFile file) {
    }

    /** How far the walk is: bytes of all files done, records passed on. */
    default void progress(long bytes, long records) {
    }

    /** False once the sink cannot take more (e.g. the reader of stdout has gone): the walk stops. */
    /**
     * Asked for every batch a walk reads, in file order, before anything else is done with it:
     * false skips the batch (its records are not read and nothing is passed on for it). Several
     * walks of the same files can split the batches between them this way.
     */
    default boolean wants(LogFile file, Batch batch) {
        return true;
    }

    default boolean isOpen() {
        return true;
    }
}
