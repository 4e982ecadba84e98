/**
 * Verification of Kafka's on-disk data: {@link io.segscope.format.verify.Verifier} checks a
 * segment, a partition dir or a whole log dir the way Kafka's {@code DumpLogSegments} and log
 * recovery do, and more, and emits {@link io.segscope.format.verify.Finding}s: file, byte
 * position, kind, severity, base offset where known, message, and for resyncs and torn tails the
 * skipped byte range and the lost offset range.
 *
 * <p>One forward pass per {@code .log} file, constant memory: batches are flyweights, index
 * entries are matched by cursors as the batches go by, nothing is allocated per record. After a
 * damaged entry the walk resynchronises: it scans forward byte by byte for the next position
 * where a whole entry parses with a plausible header (size within the file, magic 0..2, known
 * codec, unused attribute bits clear) and a right CRC, and goes on from there. Damage that runs to
 * the end of the file is a torn tail (what Kafka's recovery truncates, losing nothing that
 * follows); damage followed by good batches is mid-file damage, which Kafka's recovery, if it runs
 * over the segment after an unclean shutdown, truncates as well, losing every good batch after it
 * (and the partition's later segments, which {@code LogLoader} deletes after a truncation).
 *
 * <p>A file damaged systematically would give one finding per batch: at most 100 findings of one
 * kind per {@code .log} file (10 per index file) are passed on, the rest are counted in the
 * stats and summed up in one finding of the same kind at position -1.
 *
 * <h2>Kinds</h2>
 *
 * The {@code kind} of a finding is {@link io.segscope.format.error.Violation#kind()}: stable,
 * never renamed. Severity is fixed per kind unless the table says otherwise.
 *
 * <!-- kinds:begin (generated from Violation by KindsTable; KindsTableTest keeps it so) -->
 * <table>
 * <caption>Finding kinds</caption>
 * <tr><th>kind</th><th>severity</th><th>file</th><th>meaning</th></tr>
 * <tr><td>{@code truncated}</td><td>warning / error</td><td>.log, .txnindex, .snapshot</td><td>torn tail: the last entry is cut short; Kafka's recovery truncates it. Warning in the segment being appended to, error in a closed segment (whole when rolled) and in a snapshot (which Kafka then deletes)</td></tr>
 * <tr><td>{@code zero-tail}</td><td>warning / error</td><td>.log</td><td>torn tail: zero bytes from a batch boundary to the end of the file (error in a closed segment)</td></tr>
 * <tr><td>{@code batch-too-small}</td><td>error</td><td>.log</td><td>declared entry size below the minimum for its magic (and not a zero-filled tail)</td></tr>
 * <tr><td>{@code batch-too-large}</td><td>error</td><td>.log</td><td>declared size runs past the end of the file while good batches follow (a bad length, not a torn tail)</td></tr>
 * <tr><td>{@code invalid-magic}</td><td>error</td><td>.log</td><td>magic byte not 0, 1 or 2</td></tr>
 * <tr><td>{@code crc-mismatch}</td><td>error</td><td>.log, .snapshot</td><td>stored CRC differs from the computed one: a batch (CRC-32C), a legacy message or a legacy inner message (CRC-32), a producer snapshot</td></tr>
 * <tr><td>{@code unsupported-compression}</td><td>error</td><td>.log</td><td>a CRC-valid batch whose compression codec id Kafka does not define (or does not allow for its magic)</td></tr>
 * <tr><td>{@code decompression-failed}</td><td>error</td><td>.log</td><td>a CRC-valid batch whose compressed records do not decompress</td></tr>
 * <tr><td>{@code decompressed-too-large}</td><td>error</td><td>.log</td><td>a compressed batch that inflates past the per-batch cap (--max-decompressed)</td></tr>
 * <tr><td>{@code invalid-record-count}</td><td>error</td><td>.log</td><td>a CRC-valid batch whose record count is negative or disagrees with the bytes present</td></tr>
 * <tr><td>{@code invalid-record}</td><td>error</td><td>.log</td><td>a record (or legacy inner message) of a CRC-valid batch that does not parse</td></tr>
 * <tr><td>{@code varint-too-long}</td><td>error</td><td>.log</td><td>a varint longer than 5 (int) or 10 (long) bytes inside a record</td></tr>
 * <tr><td>{@code records-remaining}</td><td>error</td><td>.log</td><td>bytes left in a batch after its declared number of records</td></tr>
 * <tr><td>{@code inconsistent-header}</td><td>error</td><td>.log</td><td>header fields contradicting the records: negative lastOffsetDelta, records outside baseOffset..lastOffset</td></tr>
 * <tr><td>{@code offset-order}</td><td>error</td><td>.log</td><td>offsets not increasing: within a batch, between batches, or across the segments of a partition</td></tr>
 * <tr><td>{@code invalid-wrapper}</td><td>error</td><td>.log</td><td>a legacy compressed wrapper that Kafka rejects: a compressed inner message, no inner message, bad relative offsets</td></tr>
 * <tr><td>{@code invalid-control-record}</td><td>error</td><td>.log</td><td>a control record whose key or value does not parse</td></tr>
 * <tr><td>{@code index-size}</td><td>error</td><td>.index, .timeindex, .txnindex</td><td>an index file whose length is not a whole number of entries</td></tr>
 * <tr><td>{@code index-order}</td><td>error</td><td>.index, .timeindex</td><td>index entries whose offsets or timestamps go backwards</td></tr>
 * <tr><td>{@code index-mismatch}</td><td>error / warning</td><td>.index, .timeindex</td><td>an entry not matching the batches: offset index position not a batch boundary, or offset not the last offset of the batch there; time index offset not a batch's last offset, or timestamp not that batch's maxTimestamp; entries past the last batch (warning when the segment being appended to ends with a torn tail: the index outlived the batches the .log lost, and Kafka's recovery rebuilds it)</td></tr>
 * <tr><td>{@code index-version}</td><td>error</td><td>.txnindex</td><td>a transaction index entry of a version Kafka does not know</td></tr>
 * <tr><td>{@code snapshot-version}</td><td>error / warning</td><td>.snapshot</td><td>a producer snapshot version Kafka does not know</td></tr>
 * <tr><td>{@code snapshot-size}</td><td>error / warning</td><td>.snapshot</td><td>a producer snapshot whose size disagrees with its entries (warning for bytes after the last entry)</td></tr>
 * <tr><td>{@code checkpoint-format}</td><td>error</td><td>checkpoints</td><td>a checkpoint line that does not parse as Kafka parses it</td></tr>
 * <tr><td>{@code properties-format}</td><td>error</td><td>meta.properties</td><td>meta.properties that does not parse or lacks a field Kafka needs</td></tr>
 * <tr><td>{@code index-offset-range}</td><td>error</td><td>.index, .timeindex, .txnindex</td><td>an index entry whose offset lies below the segment's base offset</td></tr>
 * <tr><td>{@code index-tail-not-zero}</td><td>error</td><td>.index, .timeindex</td><td>non-zero bytes after the first all-zero slot of a preallocated index</td></tr>
 * <tr><td>{@code checkpoint-version}</td><td>error</td><td>checkpoints, leader-epoch-checkpoint</td><td>a checkpoint whose version line is not the one Kafka expects</td></tr>
 * <tr><td>{@code checkpoint-count}</td><td>error</td><td>checkpoints, leader-epoch-checkpoint</td><td>a checkpoint whose entry count line disagrees with its entries (or is negative)</td></tr>
 * <tr><td>{@code uuid-format}</td><td>error</td><td>meta.properties, partition.metadata</td><td>a Kafka Uuid that is not 16 bytes of URL-safe Base64, or a reserved value where one is not allowed</td></tr>
 * <tr><td>{@code properties-version}</td><td>error</td><td>meta.properties</td><td>a meta.properties version Kafka does not know</td></tr>
 * <tr><td>{@code json-format}</td><td>error</td><td>.kafka_cleanshutdown</td><td>a JSON side file that does not parse or lacks a field</td></tr>
 * <tr><td>{@code orphan-index}</td><td>warning / info</td><td>index files</td><td>index files without their .log (info for .deleted ones, which Kafka deletes one by one)</td></tr>
 * <tr><td>{@code unknown-value-version}</td><td>error</td><td>coordinator .log</td><td>a CRC-valid coordinator record whose value version its type does not define: Kafka 4.4.0's coordinator loader throws on it, so the coordinator would fail to load the partition (dump prints it raw)</td></tr>
 * <tr><td>{@code invalid-coordinator-key}</td><td>error</td><td>coordinator .log</td><td>a CRC-valid coordinator record whose key is missing, too short or does not parse with its schema: the coordinator would fail to load the partition (unknown record types are skipped, not reported)</td></tr>
 * <tr><td>{@code invalid-coordinator-value}</td><td>error</td><td>coordinator .log</td><td>a CRC-valid coordinator record whose value is too short or does not parse with its schema: the coordinator would fail to load the partition</td></tr>
 * <tr><td>{@code resync}</td><td>error</td><td>.log</td><td>good batches resume here after damage; skippedBytes and lostOffsets say what was lost. The damage itself is reported at the start of the skipped range with its own kind and the same ranges</td></tr>
 * <tr><td>{@code segment-base-offset}</td><td>error</td><td>.log</td><td>the first batch starts below the base offset of the file name (above it is normal after compaction)</td></tr>
 * <tr><td>{@code relative-offset-overflow}</td><td>warning</td><td>.log</td><td>an offset more than Integer.MAX_VALUE above the base offset: indexes cannot address it; Kafka splits such a segment</td></tr>
 * <tr><td>{@code last-offset-delta-gap}</td><td>info</td><td>.log</td><td>batches whose lastOffsetDelta passes their last record, or empty batches: what the log cleaner leaves to keep producer state (one finding per segment, at the first)</td></tr>
 * <tr><td>{@code index-append-offset}</td><td>info</td><td>.index</td><td>entries carrying the last offset of a later batch of the same append, as brokers before 3.8 wrote them</td></tr>
 * <tr><td>{@code index-preallocated}</td><td>info</td><td>.index, .timeindex</td><td>zero tail of the index of a partition's last segment when the log dir has no clean-shutdown marker (or is unknown): the segment was open at a crash; or of the KRaft metadata log's last segment whatever the shutdown (Kafka 4.4.0 trims only LogManager's logs at shutdown and recovers the metadata log at every start)</td></tr>
 * <tr><td>{@code index-zero-tail}</td><td>warning</td><td>.index, .timeindex</td><td>zero tail in the index of a closed segment, or of the last one after a clean shutdown, __cluster_metadata excepted (KAFKA-10207)</td></tr>
 * <tr><td>{@code txn-marker-missing}</td><td>error / warning / info</td><td>.txnindex</td><td>an aborted transaction whose lastOffset is not an ABORT control batch of that producer (error); past the segment's last offset (warning); in an offset gap, the marker removed by the cleaner (info)</td></tr>
 * <tr><td>{@code leader-epoch-mismatch}</td><td>warning / info</td><td>leader-epoch-checkpoint</td><td>an epoch's start offset is not the first offset of its first batch, or batches carry an epoch the checkpoint lacks; info when compaction, retention, the log start offset or an unflushed checkpoint explains it</td></tr>
 * <tr><td>{@code leader-epoch-order}</td><td>error / warning</td><td>leader-epoch-checkpoint, .log</td><td>checkpoint epochs or start offsets not increasing (error); batch leader epochs going backwards (warning)</td></tr>
 * <tr><td>{@code empty-segment}</td><td>info / warning</td><td>.log</td><td>a closed segment without batches (info); two or more in __consumer_offsets (warning: KAFKA-9065, KAFKA-12889)</td></tr>
 * <tr><td>{@code leftover-tmp}</td><td>warning</td><td>*.tmp</td><td>a checkpoint or snapshot write never renamed</td></tr>
 * <tr><td>{@code incomplete-cleaner-output}</td><td>warning</td><td>.cleaned, .swap</td><td>cleaner or split work a broker discards (.cleaned) or completes (.swap) at load</td></tr>
 * <tr><td>{@code transient-file}</td><td>info</td><td>.deleted, -delete/-future/-stray dirs</td><td>transient state Kafka tidies at load</td></tr>
 * <tr><td>{@code unclean-shutdown}</td><td>info</td><td>log dir</td><td>no .kafka_cleanshutdown: the broker did not stop cleanly (or is running)</td></tr>
 * <tr><td>{@code archive-truncated}</td><td>error</td><td>archives</td><td>the archive ends inside an entry (a cut download or copy): the complete entries before it are read, the partial one is not</td></tr>
 * <tr><td>{@code unrecognized-file}</td><td>error</td><td>any file named on its own</td><td>neither its name nor its content says what Kafka file it is (index files cannot be recognised by content): name its kind with --as</td></tr>
 * <tr><td>{@code name-format}</td><td>error / warning</td><td>any</td><td>a file or dir name Kafka would not parse</td></tr>
 * <tr><td>{@code io-error}</td><td>error</td><td>any</td><td>the file could not be read (or an archive is cut short: its complete entries are still read)</td></tr>
 * <tr><td>{@code ignored}</td><td>info</td><td>any</td><td>in an archive, a file or dir that is not Kafka's beside the data found (a README, a dumps/ folder): not read</td></tr>
 * </table>
 * <!-- kinds:end -->
 */
package io.segscope.format.verify;
