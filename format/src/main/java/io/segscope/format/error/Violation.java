package io.segscope.format.error;

/**
 * Every way a Kafka file can be malformed or worth a remark, as segscope names it: the one table
 * of kinds. Each carries its stable name ({@link #kind()}, printed by {@code verify --format jsonl}
 * and never renamed), the severities {@code verify} gives it, the files it concerns and a
 * one-line description. {@code verify --help}, the package doc of {@code io.segscope.format.verify}
 * and the README's kinds table are made from it (a test keeps them equal).
 */
public enum Violation {
    TRUNCATED("truncated", "warning / error", ".log, .txnindex, .snapshot",
            "torn tail: the last entry is cut short; Kafka's recovery truncates it. Warning in the segment being appended to, error in a closed segment (whole when rolled) and in a snapshot (which Kafka then deletes)"),
    ZERO_TAIL("zero-tail", "warning / error", ".log",
            "torn tail: zero bytes from a batch boundary to the end of the file (error in a closed segment)"),
    BATCH_TOO_SMALL("batch-too-small", "error", ".log",
            "declared entry size below the minimum for its magic (and not a zero-filled tail)"),
    BATCH_TOO_LARGE("batch-too-large", "error", ".log",
            "declared size runs past the end of the file while good batches follow (a bad length, not a torn tail)"),
    INVALID_MAGIC("invalid-magic", "error", ".log",
            "magic byte not 0, 1 or 2"),
    CRC_MISMATCH("crc-mismatch", "error", ".log, .snapshot",
            "stored CRC differs from the computed one: a batch (CRC-32C), a legacy message or a legacy inner message (CRC-32), a producer snapshot"),
    UNSUPPORTED_COMPRESSION("unsupported-compression", "error", ".log",
            "a CRC-valid batch whose compression codec id Kafka does not define (or does not allow for its magic)"),
    DECOMPRESSION_FAILED("decompression-failed", "error", ".log",
            "a CRC-valid batch whose compressed records do not decompress"),
    DECOMPRESSED_TOO_LARGE("decompressed-too-large", "error", ".log",
            "a compressed batch that inflates past the per-batch cap (--max-decompressed)"),
    INVALID_RECORD_COUNT("invalid-record-count", "error", ".log",
            "a CRC-valid batch whose record count is negative or disagrees with the bytes present"),
    INVALID_RECORD("invalid-record", "error", ".log",
            "a record (or legacy inner message) of a CRC-valid batch that does not parse"),
    VARINT_TOO_LONG("varint-too-long", "error", ".log",
            "a varint longer than 5 (int) or 10 (long) bytes inside a record"),
    RECORDS_REMAINING("records-remaining", "error", ".log",
            "bytes left in a batch after its declared number of records"),
    INCONSISTENT_HEADER("inconsistent-header", "error", ".log",
            "header fields contradicting the records: negative lastOffsetDelta, records outside baseOffset..lastOffset"),
    OFFSET_ORDER("offset-order", "error", ".log",
            "offsets not increasing: within a batch, between batches, or across the segments of a partition"),
    INVALID_WRAPPER("invalid-wrapper", "error", ".log",
            "a legacy compressed wrapper that Kafka rejects: a compressed inner message, no inner message, bad relative offsets"),
    INVALID_CONTROL_RECORD("invalid-control-record", "error", ".log",
            "a control record whose key or value does not parse"),
    INDEX_SIZE("index-size", "error", ".index, .timeindex, .txnindex",
            "an index file whose length is not a whole number of entries"),
    INDEX_ORDER("index-order", "error", ".index, .timeindex",
            "index entries whose offsets or timestamps go backwards"),
    INDEX_MISMATCH("index-mismatch", "error / warning", ".index, .timeindex",
            "an entry not matching the batches: offset index position not a batch boundary, or offset not the last offset of the batch there; time index offset not a batch's last offset, or timestamp not that batch's maxTimestamp; entries past the last batch (warning when the segment being appended to ends with a torn tail: the index outlived the batches the .log lost, and Kafka's recovery rebuilds it)"),
    INDEX_VERSION("index-version", "error", ".txnindex",
            "a transaction index entry of a version Kafka does not know"),
    SNAPSHOT_VERSION("snapshot-version", "error / warning", ".snapshot",
            "a producer snapshot version Kafka does not know"),
    SNAPSHOT_SIZE("snapshot-size", "error / warning", ".snapshot",
            "a producer snapshot whose size disagrees with its entries (warning for bytes after the last entry)"),
    CHECKPOINT_FORMAT("checkpoint-format", "error", "checkpoints",
            "a checkpoint line that does not parse as Kafka parses it"),
    PROPERTIES_FORMAT("properties-format", "error", "meta.properties",
            "meta.properties that does not parse or lacks a field Kafka needs"),
    INDEX_OFFSET_RANGE("index-offset-range", "error", ".index, .timeindex, .txnindex",
            "an index entry whose offset lies below the segment's base offset"),
    INDEX_TAIL_NOT_ZERO("index-tail-not-zero", "error", ".index, .timeindex",
            "non-zero bytes after the first all-zero slot of a preallocated index"),
    CHECKPOINT_VERSION("checkpoint-version", "error", "checkpoints, leader-epoch-checkpoint",
            "a checkpoint whose version line is not the one Kafka expects"),
    CHECKPOINT_COUNT("checkpoint-count", "error", "checkpoints, leader-epoch-checkpoint",
            "a checkpoint whose entry count line disagrees with its entries (or is negative)"),
    UUID_FORMAT("uuid-format", "error", "meta.properties, partition.metadata",
            "a Kafka Uuid that is not 16 bytes of URL-safe Base64, or a reserved value where one is not allowed"),
    PROPERTIES_VERSION("properties-version", "error", "meta.properties",
            "a meta.properties version Kafka does not know"),
    JSON_FORMAT("json-format", "error", ".kafka_cleanshutdown",
            "a JSON side file that does not parse or lacks a field"),
    ORPHAN_INDEX("orphan-index", "warning / info", "index files",
            "index files without their .log (info for .deleted ones, which Kafka deletes one by one)"),
    UNKNOWN_RECORD_TYPE("unknown-record-type", "-", "coordinator topics",
            "a coordinator record key whose int16 type the topic does not define (dump; the record is printed raw)"),
    UNKNOWN_VALUE_VERSION("unknown-value-version", "error", "coordinator .log",
            "a CRC-valid coordinator record whose value version its type does not define: Kafka 4.4.0's coordinator loader throws on it, so the coordinator would fail to load the partition (dump prints it raw)"),
    INVALID_COORDINATOR_KEY("invalid-coordinator-key", "error", "coordinator .log",
            "a CRC-valid coordinator record whose key is missing, too short or does not parse with its schema: the coordinator would fail to load the partition (unknown record types are skipped, not reported)"),
    INVALID_COORDINATOR_VALUE("invalid-coordinator-value", "error", "coordinator .log",
            "a CRC-valid coordinator record whose value is too short or does not parse with its schema: the coordinator would fail to load the partition"),
    INVALID_METADATA_RECORD("invalid-metadata-record", "-", "__cluster_metadata, KRaft snapshots",
            "a KRaft metadata record or control record value that does not parse (dump)"),
    RESYNC("resync", "error", ".log",
            "good batches resume here after damage; skippedBytes and lostOffsets say what was lost. The damage itself is reported at the start of the skipped range with its own kind and the same ranges"),
    SEGMENT_BASE_OFFSET("segment-base-offset", "error", ".log",
            "the first batch starts below the base offset of the file name (above it is normal after compaction)"),
    RELATIVE_OFFSET_OVERFLOW("relative-offset-overflow", "warning", ".log",
            "an offset more than Integer.MAX_VALUE above the base offset: indexes cannot address it; Kafka splits such a segment"),
    LAST_OFFSET_DELTA_GAP("last-offset-delta-gap", "info", ".log",
            "batches whose lastOffsetDelta passes their last record, or empty batches: what the log cleaner leaves to keep producer state (one finding per segment, at the first)"),
    INDEX_APPEND_OFFSET("index-append-offset", "info", ".index",
            "entries carrying the last offset of a later batch of the same append, as brokers before 3.8 wrote them"),
    INDEX_PREALLOCATED("index-preallocated", "info", ".index, .timeindex",
            "zero tail of the index of a partition's last segment when the log dir has no clean-shutdown marker (or is unknown): the segment was open at a crash; or of the KRaft metadata log's last segment whatever the shutdown (Kafka 4.4.0 trims only LogManager's logs at shutdown and recovers the metadata log at every start)"),
    INDEX_ZERO_TAIL("index-zero-tail", "warning", ".index, .timeindex",
            "zero tail in the index of a closed segment, or of the last one after a clean shutdown, __cluster_metadata excepted (KAFKA-10207)"),
    TXN_MARKER_MISSING("txn-marker-missing", "error / warning / info", ".txnindex",
            "an aborted transaction whose lastOffset is not an ABORT control batch of that producer (error); past the segment's last offset (warning); in an offset gap, the marker removed by the cleaner (info)"),
    LEADER_EPOCH_MISMATCH("leader-epoch-mismatch", "warning / info", "leader-epoch-checkpoint",
            "an epoch's start offset is not the first offset of its first batch, or batches carry an epoch the checkpoint lacks; info when compaction, retention, the log start offset or an unflushed checkpoint explains it"),
    LEADER_EPOCH_ORDER("leader-epoch-order", "error / warning", "leader-epoch-checkpoint, .log",
            "checkpoint epochs or start offsets not increasing (error); batch leader epochs going backwards (warning)"),
    EMPTY_SEGMENT("empty-segment", "info / warning", ".log",
            "a closed segment without batches (info); two or more in __consumer_offsets (warning: KAFKA-9065, KAFKA-12889)"),
    LEFTOVER_TMP("leftover-tmp", "warning", "*.tmp",
            "a checkpoint or snapshot write never renamed"),
    INCOMPLETE_CLEANER_OUTPUT("incomplete-cleaner-output", "warning", ".cleaned, .swap",
            "cleaner or split work a broker discards (.cleaned) or completes (.swap) at load"),
    TRANSIENT_FILE("transient-file", "info", ".deleted, -delete/-future/-stray dirs",
            "transient state Kafka tidies at load"),
    UNCLEAN_SHUTDOWN("unclean-shutdown", "info", "log dir",
            "no .kafka_cleanshutdown: the broker did not stop cleanly (or is running)"),
    ARCHIVE_TRUNCATED("archive-truncated", "error", "archives",
            "the archive ends inside an entry (a cut download or copy): the complete entries before it are read, the partial one is not"),
    UNRECOGNIZED_FILE("unrecognized-file", "error", "any file named on its own",
            "neither its name nor its content says what Kafka file it is (index files cannot be recognised by content): name its kind with --as"),
    NAME_FORMAT("name-format", "error / warning", "any",
            "a file or dir name Kafka would not parse"),
    IO_ERROR("io-error", "error", "any",
            "the file could not be read (or an archive is cut short: its complete entries are still read)"),
    ZK_HEADER("zk-header", "-", "ZooKeeper snapshot.*, log.*",
            "a ZooKeeper snapshot or transaction log that is not one: wrong magic, or a snapshot failing ZooKeeper's validity check (too short, no closing seal, no gzip or snappy magic); zk-offsets and zk-tree"),
    ZK_CHECKSUM("zk-checksum", "-", "ZooKeeper snapshot.*, log.*",
            "a snapshot seal or a log entry whose Adler32 differs from the bytes it covers (ZooKeeper refuses the snapshot and falls back to an older one, or stops its restore at the entry)"),
    ZK_TRUNCATED("zk-truncated", "-", "ZooKeeper snapshot.*, log.*",
            "a snapshot that ends before its seal, or a log entry cut short or missing its 'B' end marker (a torn write: ZooKeeper's replay ends there)"),
    ZK_INVALID_RECORD("zk-invalid-record", "-", "ZooKeeper snapshot.*, log.*",
            "a snapshot or log entry that does not parse: an impossible length (\"Unreasonable length\"), an op code ZooKeeper does not log, a body or multi sub-record that does not read, a gap in the zxids"),
    ZK_INVALID_TREE("zk-invalid-tree", "-", "ZooKeeper snapshot.*",
            "a snapshot whose nodes do not form a tree (a node before its parent: \"Invalid Datatree\", no root, a relative path) or refer to an ACL it does not list"),
    IGNORED("ignored", "info", "any",
            "in an archive, a file or dir that is not Kafka's beside the data found (a README, a dumps/ folder): not read");

    private final String kind;
    private final String severity;
    private final String files;
    private final String description;

    Violation(String kind, String severity, String files, String description) {
        this.kind = kind;
        this.severity = severity;
        this.files = files;
        this.description = description;
    }

    /** Stable lower-case name used in machine-readable output. */
    public String kind() {
        return kind;
    }

    /**
     * The severities {@code verify} reports it with ({@code "error"}, {@code "warning / error"},
     * ...), or {@code "-"} for kinds that only {@code dump} reports (records it cannot decode).
     */
    public String severity() {
        return severity;
    }

    /** True when {@code verify} reports this kind. */
    public boolean reportedByVerify() {
        return !severity.equals("-");
    }

    /** The files it concerns, e.g. {@code ".index, .timeindex"}. */
    public String files() {
        return files;
    }

    /** What it means, in one line. */
    public String description() {
        return description;
    }
}
