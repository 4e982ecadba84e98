package io.segscope.format.coordinator;

/**
 * Kafka's rule for the coordinator partition of a key (docs/format.md 2.1):
 * {@code Utils.abs(key.hashCode()) % partitions}, where abs(Integer.MIN_VALUE) is 0. It places
 * group ids in {@code __consumer_offsets}, transactional ids in {@code __transaction_state}.
 */
public final class CoordinatorPartition {
    private CoordinatorPartition() {
    }

    /** The partition of a key string. */
    public static int of(String key, int partitions) {
        return ofHash(key.hashCode(), partitions);
    }

    /** The partition of a key read in place (no decoding for valid UTF-8). */
    public static int of(Utf8Slice key, int partitions) {
        return ofHash(key.javaHashCode(), partitions);
    }

    /** The partition of a key with this {@code String.hashCode()}. */
    public static int ofHash(int hash, int partitions) {
        return (hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % partitions;
    }
}
