package io.segscope.format.error;

/**
 * Every way a Kafka file can be malformed, as segscope names it. {@link #kind()} is the stable,
 * documented name that `verify --format jsonl` prints; never rename one.
 */
public enum Violation {
    // framing of .log files (docs/format.md 1.2, 1.4, 1.10)
    /** Fewer bytes remain than the entry header or the declared batch size needs: a torn tail. */
    TRUNCATED("truncated"),
    /** The rest of the file is zero bytes (preallocated or torn write). */
    ZERO_TAIL("zero-tail"),
    /** Declared batch/message size below the minimum for its magic. */
    BATCH_TOO_SMALL("batch-too-small"),
    /** Declared batch/message size above the configured maximum. */
    BATCH_TOO_LARGE("batch-too-large"),
    /** Magic byte not 0, 1 or 2. */
    INVALID_MAGIC("invalid-magic"),
    /** Stored CRC differs from the computed one. */
    CRC_MISMATCH("crc-mismatch"),
    /** Compression codec id Kafka does not define (or not allowed for this magic). */
    UNSUPPORTED_COMPRESSION("unsupported-compression"),
    /** Compressed payload could not be decompressed. */
    DECOMPRESSION_FAILED("decompression-failed"),
    /** Decompressed payload exceeds the per-batch cap. */
    DECOMPRESSED_TOO_LARGE("decompressed-too-large"),
    /** recordsCount negative or inconsistent with the bytes present. */
    INVALID_RECORD_COUNT("invalid-record-count"),
    /** A record (or legacy inner message) whose structure does not parse. */
    INVALID_RECORD("invalid-record"),
    /** A varint longer than 5 (int) or 10 (long) bytes. */
    VARINT_TOO_LONG("varint-too-long"),
    /** Bytes left after the declared number of records. */
    RECORDS_REMAINING("records-remaining"),
    /** Header fields that contradict each other (e.g. lastOffsetDelta vs records). */
    INCONSISTENT_HEADER("inconsistent-header"),
    /** Offsets that go backwards or overlap. */
    OFFSET_ORDER("offset-order"),
    /** Legacy wrapper problems: compressed inner message, empty wrapper, bad relative offsets. */
    INVALID_WRAPPER("invalid-wrapper"),
    /** A control record whose key or value does not parse. */
    INVALID_CONTROL_RECORD("invalid-control-record"),

    // index files (docs/format.md 1.8)
    INDEX_SIZE("index-size"),
    INDEX_ORDER("index-order"),
    INDEX_MISMATCH("index-mismatch"),
    INDEX_VERSION("index-version"),

    // side files (docs/format.md 1.1, 1.9)
    SNAPSHOT_VERSION("snapshot-version"),
    SNAPSHOT_SIZE("snapshot-size"),
    CHECKPOINT_FORMAT("checkpoint-format"),
    PROPERTIES_FORMAT("properties-format"),

    // index / state / logdir
    /** An index entry whose offset lies below the segment's base offset (relative offset negative). */
    INDEX_OFFSET_RANGE("index-offset-range"),
    /** Non-zero bytes after the first all-zero slot of a preallocated index. */
    INDEX_TAIL_NOT_ZERO("index-tail-not-zero"),
    /** A checkpoint file whose version line is not the version Kafka expects. */
    CHECKPOINT_VERSION("checkpoint-version"),
    /** A checkpoint file whose entry count line disagrees with its entry lines (or is negative). */
    CHECKPOINT_COUNT("checkpoint-count"),
    /** A Kafka Uuid that is not 16 bytes of URL-safe Base64, or is a reserved value where one is not allowed. */
    UUID_FORMAT("uuid-format"),
    /** A meta.properties version Kafka does not know. */
    PROPERTIES_VERSION("properties-version"),
    /** A JSON side file (.kafka_cleanshutdown) that does not parse or lacks a field. */
    JSON_FORMAT("json-format"),
    /** An index file (.index, .timeindex, .txnindex) with no .log of the same base offset and status. */
    ORPHAN_INDEX("orphan-index"),

    // coordinator
    /** A coordinator record key whose int16 type this topic does not define (docs/format.md 2.5). */
    UNKNOWN_RECORD_TYPE("unknown-record-type"),
    /** A coordinator record value whose int16 version its type does not define (docs/format.md 2.1). */
    UNKNOWN_VALUE_VERSION("unknown-value-version"),
    /** A coordinator record key that is missing, too short or does not parse with its schema. */
    INVALID_COORDINATOR_KEY("invalid-coordinator-key"),
    /** A coordinator record value that is too short or does not parse with its schema. */
    INVALID_COORDINATOR_VALUE("invalid-coordinator-value"),
    /** A KRaft metadata record value ({@code __cluster_metadata}, snapshots) or control record value that does not parse. */
    INVALID_METADATA_RECORD("invalid-metadata-record"),

    // verify
    /** Good batches found again after damage: the bytes in between were skipped. */
    RESYNC("resync"),
    /** A segment's first batch starts below the base offset its file name gives. */
    SEGMENT_BASE_OFFSET("segment-base-offset"),
    /** An offset more than Integer.MAX_VALUE above the segment's base offset: indexes cannot address it. */
    RELATIVE_OFFSET_OVERFLOW("relative-offset-overflow"),
    /** Batches whose lastOffsetDelta lies past their last record, as the log cleaner leaves them. */
    LAST_OFFSET_DELTA_GAP("last-offset-delta-gap"),
    /** An index entry whose offset is the last offset of a later batch of the same append (older brokers). */
    INDEX_APPEND_OFFSET("index-append-offset"),
    /** The preallocated zero tail of an index of a segment that was still open (active) when the broker stopped. */
    INDEX_PREALLOCATED("index-preallocated"),
    /** A zero tail left in the index of a closed segment (KAFKA-10207). */
    INDEX_ZERO_TAIL("index-zero-tail"),
    /** A .txnindex entry whose ABORT marker is not where the entry says. */
    TXN_MARKER_MISSING("txn-marker-missing"),
    /** A leader-epoch-checkpoint entry that disagrees with the partitionLeaderEpoch of the batches. */
    LEADER_EPOCH_MISMATCH("leader-epoch-mismatch"),
    /** Leader epochs (in the checkpoint or the batches) that go backwards. */
    LEADER_EPOCH_ORDER("leader-epoch-order"),
    /** A .log file with no batches. */
    EMPTY_SEGMENT("empty-segment"),
    /** A .tmp file: a write that never completed. */
    LEFTOVER_TMP("leftover-tmp"),
    /** .cleaned or .swap segment files: cleaner or split work a broker finishes or discards at load. */
    INCOMPLETE_CLEANER_OUTPUT("incomplete-cleaner-output"),
    /** .deleted segment files or a -delete/-future/-stray partition dir: transient state Kafka tidies at load. */
    TRANSIENT_FILE("transient-file"),
    /** A log dir without .kafka_cleanshutdown: the broker did not stop cleanly (or is running). */
    UNCLEAN_SHUTDOWN("unclean-shutdown"),

    // discovery
    NAME_FORMAT("name-format"),
    IO_ERROR("io-error");

    private final String kind;

    Violation(String kind) {
        this.kind = kind;
    }

    /** Stable lower-case name used in machine-readable output. */
    public String kind() {
        return kind;
    }
}
