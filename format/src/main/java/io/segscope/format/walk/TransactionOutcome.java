package io.segscope.format.walk;

/**
 * How the transaction of a transactional data batch ended, as the partition's files tell it
 * ({@link TransactionOutcomes}): the first COMMIT or ABORT marker of the batch's producer after it.
 */
public enum TransactionOutcome {
    /** The producer's next marker after the batch is a COMMIT. */
    COMMITTED("committed"),
    /** The producer's next marker after the batch is an ABORT. */
    ABORTED("aborted"),
    /** No marker of the producer follows the batch in the files read: the transaction was still open at their end. */
    OPEN("open"),
    /**
     * No marker follows in the files read, but not every file of the partition could be read
     * (a stream read once, damage, an unreadable file): the marker may be in what was not read.
     */
    UNKNOWN("unknown");

    /** The lower-case name segscope prints. */
    public final String label;

    TransactionOutcome(String label) {
        this.label = label;
    }
}
