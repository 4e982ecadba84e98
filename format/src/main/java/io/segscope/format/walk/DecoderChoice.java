package io.segscope.format.walk;

/** Which decoder reads a file's records: by topic name ({@link #AUTO}) or one forced for every file. */
public enum DecoderChoice {
    /**
     * By the topic of the partition dir: coordinator topics, the KRaft metadata log,
     * {@code __remote_log_metadata}, else decoder plugins that handle the topic, else none.
     */
    AUTO,
    /** {@code __consumer_offsets} records. */
    OFFSETS,
    /** {@code __transaction_state} records. */
    TRANSACTIONS,
    /** {@code __share_group_state} records. */
    SHARE,
    /** KRaft metadata records ({@code __cluster_metadata}, KRaft snapshots). */
    METADATA,
    /** {@code __remote_log_metadata} records (tiered storage). */
    REMOTE_LOG_METADATA,
    /** Keys and values stay bytes. */
    NONE
}
