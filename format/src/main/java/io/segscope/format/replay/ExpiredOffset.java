package io.segscope.format.replay;

/**
 * A committed offset that Kafka 4.4's periodic expiration job would delete at the replay's "now"
 * ({@code OffsetMetadataManager.cleanupExpiredOffsets}, docs/format.md 3.5).
 *
 * @param offset the committed offset
 * @param expiresAt when it expired: its expireTimestamp (value v1), else base + retention
 * @param rule which rule applied: {@code "expireTimestamp"} (v1 value), {@code "currentStateTimestamp"}
 *     (an Empty classic group's state timestamp + retention) or {@code "commitTimestamp"} (+ retention)
 */
public record ExpiredOffset(CommittedOffset offset, long expiresAt, String rule) {
}
