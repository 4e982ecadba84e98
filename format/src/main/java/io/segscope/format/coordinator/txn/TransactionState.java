package io.segscope.format.coordinator.txn;

/**
 * The {@code TransactionStatus} byte of TransactionLogValue (docs/format.md 2.11), with the state
 * names Kafka prints.
 */
public enum TransactionState {
    EMPTY(0, "Empty"),
    ONGOING(1, "Ongoing"),
    PREPARE_COMMIT(2, "PrepareCommit"),
    PREPARE_ABORT(3, "PrepareAbort"),
    COMPLETE_COMMIT(4, "CompleteCommit"),
    COMPLETE_ABORT(5, "CompleteAbort"),
    DEAD(6, "Dead"),
    PREPARE_EPOCH_FENCE(7, "PrepareEpochFence");

    private static final TransactionState[] BY_ID = values();

    private final byte id;
    private final String stateName;

    TransactionState(int id, String stateName) {
        this.id = (byte) id;
        this.stateName = stateName;
    }

    public byte id() {
        return id;
    }

    /** The name Kafka prints, e.g. {@code CompleteCommit}. */
    public String stateName() {
        return stateName;
    }

    /** The state with this id, or null for an id Kafka does not define. */
    public static TransactionState fromId(int id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

    /** The state name for this id, or the id as a decimal string when unknown (as DumpLogSegments prints it). */
    public static String nameOf(int id) {
        TransactionState s = fromId(id);
        return s == null ? Integer.toString(id) : s.stateName;
    }
}
