package io.segscope.format.inventory;

/**
 * How one replica stands against the most advanced replica of its partition.
 *
 * @param kind {@code in-sync} (same log end offset and epochs), {@code behind} (a prefix of it: a
 *     follower that would fetch the rest), {@code diverged} (holds records the other does not have:
 *     Kafka's follower truncation would cut it at {@code offset})
 * @param offset where it parts: the log end offset when behind, the truncation offset when diverged
 * @param records how many records (offsets) it lacks (behind) or would lose (diverged)
 * @param reason in words
 */
public record Divergence(String kind, long offset, long records, String reason) {
    public static final String IN_SYNC = "in-sync";
    public static final String BEHIND = "behind";
    public static final String DIVERGED = "diverged";
    public static final String MOST_ADVANCED = "most-advanced";
}
