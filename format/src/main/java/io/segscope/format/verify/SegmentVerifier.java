package io.segscope.format.verify;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.RecordSchema;
import io.segscope.format.coordinator.Unknown;
import io.segscope.format.coordinator.UnknownReason;
import io.segscope.format.coordinator.group.OffsetCommitView;
import io.segscope.format.error.FormatException;
import io.segscope.format.error.Problem;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchView;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.RecordIterator;
import io.segscope.format.record.Tail;
import io.segscope.format.walk.BatchVisitor;
import io.segscope.format.walk.Damage;
import io.segscope.format.walk.SegmentWalk;
import java.nio.ByteBuffer;


/**
 * Verifies one {@code .log} file in a single forward pass, with its indexes checked alongside
 * (docs/format.md 1.2-1.4, 1.8, 1.10). Every batch: framing, CRC, records (count, varints,
 * offsets, bytes left over, legacy inner CRCs, control records), offsets increasing, base offset
 * against the file name. The index entries are matched as the batches go by, by three cursors
 * (offset index by position, time index and transaction index by offset), so memory stays
 * constant whatever the segment size. After damage the walk resynchronises on the next good
 * entry ({@link Resync}) and reports the bytes skipped and the offsets lost.
 */
final class SegmentVerifier implements BatchVisitor {
    private static final String NOT_SEARCHED = " (read from a stream that cannot go back: the bytes after it were"
            + " not searched for good batches; verify the extracted file to resynchronise)";

    /** At most this many findings of one kind per index file; then one line saying how many more. */
    private static final int MAX_INDEX_FINDINGS = 10;

    private final Report report;
    private final SegmentWalk walk;
    private final IndexCursors indexes;

    // per segment
    private String file;
    private long fileBase;
    private long fileSize;
    private boolean active;
    /** The segment ends with a torn tail that a crash (or a copy of a live disk) leaves: a warning, not damage. */
    private boolean crashTail;
    private long prevLast;
    private long nextBase;
    private long segFirst;
    private long segLast;
    private long batches;
    private boolean overflowReported;
    private long gapBatches;
    private long gapFirstPosition;
    private long gapFirstBase;
    private boolean compacted;
    private EpochTracker epochs;
    private CoordinatorRecordDecoder coordinator;
    private final OffsetCommitView offsetCommit = new OffsetCommitView();
    // a resync waiting for the next good batch's base offset
    private Finding pendingResync;
    private Finding pendingDamage;

    SegmentVerifier(Report report, ReaderOptions options) {
        this.report = report;
        this.walk = new SegmentWalk(options);
        this.indexes = new IndexCursors(report, MAX_INDEX_FINDINGS);
    }

    /** What the walk of one segment found, for the partition-level checks. */
    record Result(long firstOffset, long lastOffset, long batches, boolean compacted, boolean readable) {
        boolean isEmpty() {
            return batches == 0;
        }
    }

    /**
     * Where a segment sits, for the checks that depend on it.
     *
     * @param index the segment's offset index, or null when absent
     * @param timeIndex its time index, or null
     * @param txnIndex its transaction index, or null
     * @param active true for the last segment of a partition (the one a broker appends to)
     * @param cleanShutdown true/false when known from the log dir, null when not
     * @param metadataLog true for a segment of the KRaft metadata log ({@code __cluster_metadata-0})
     * @param previousLast the last offset of the partition's previous segment, or -1
     * @param nextBase the base offset of the partition's next segment, or -1 (the last one)
     * @param epochs where to record leader epochs, or null
     * @param coordinator the coordinator topic the segment belongs to, or null
     */
    record Context(FileEntry index, FileEntry timeIndex, FileEntry txnIndex, boolean active, Boolean cleanShutdown,
                   boolean metadataLog, long previousLast, long nextBase, EpochTracker epochs, CoordinatorTopic coordinator) {
        Context(FileEntry index, FileEntry timeIndex, FileEntry txnIndex, boolean active, Boolean cleanShutdown,
                boolean metadataLog, long previousLast, long nextBase, EpochTracker epochs) {
            this(index, timeIndex, txnIndex, active, cleanShutdown, metadataLog, previousLast, nextBase, epochs, null);
        }

        /** The same, for a segment of {@code topic} (its records are checked as its coordinator loads them). */
        Context forTopic(String topic) {
            return new Context(index, timeIndex, txnIndex, active, cleanShutdown, metadataLog, previousLast, nextBase, epochs,
                    topic == null ? null : CoordinatorTopic.forTopicName(topic));
        }

        /** A file of record batches on its own: no indexes, last of its partition, shutdown state unknown. */
        static final Context ALONE = new Context(null, null, null, true, null, false, -1, -1, null);

        /** The same, with what the log dir says of the shutdown. */
        static Context alone(Boolean cleanShutdown) {
            return new Context(null, null, null, true, cleanShutdown, false, -1, -1, null);
        }
    }

    /**
     * @param log the .log file (or any file of record batches, e.g. a KRaft snapshot)
     * @param fileBase the base offset its name gives, or -1
     */
    Result verify(FileEntry log, long fileBase, Context c) {
        boolean active = c.active();
        long previousLast = c.previousLast();
        this.nextBase = c.nextBase();
        EpochTracker epochs = c.epochs();
        this.file = log.path();
        this.fileBase = fileBase;
        this.active = active;
        this.prevLast = previousLast;
        this.segFirst = -1;
        this.segLast = -1;
        this.batches = 0;
        this.overflowReported = false;
        this.gapBatches = 0;
        this.crashTail = false;
        this.compacted = false;
        this.epochs = epochs;
        this.coordinator = c.coordinator() == null ? null : CoordinatorRecordDecoder.forTopic(c.coordinator());
        this.pendingResync = null;
        this.pendingDamage = null;
        report.stats.files++;
        report.beginCap(file);
        try {
            return walkSegment(log, c.index(), c.timeIndex(), c.txnIndex(), active, c.cleanShutdown(), c.metadataLog());
        } finally {
            report.endCap();
        }
    }

    private Result walkSegment(FileEntry log, FileEntry index, FileEntry timeIndex, FileEntry txnIndex, boolean active,
                               Boolean cleanShutdown, boolean metadataLog) {
        indexes.open(index, timeIndex, txnIndex, fileBase, active, cleanShutdown, metadataLog);
        // a file on disk is unmapped as soon as it is read: the resident set holds one segment, not all
        FileEntry read = log instanceof io.segscope.format.logdir.PathEntry p ? new io.segscope.format.logdir.SharedMapping(p, 1) : log;
        try (ByteSource source = read.open()) {
            this.fileSize = source.size() >= 0 ? source.size() : log.size();
            walk.walk(source, fileSize, fileBase, prevLast, true, this);
            report.stats.bytes += fileSize;
            report.progress(0);
        } catch (FormatException e) {
            report.add(e, Severity.ERROR);
            flushPending(-1);
            indexes.close();
            return new Result(segFirst, segLast, batches, compacted, false);
        }
        flushPending(-1);
        if (gapBatches > 0) {
            report.add(file, gapFirstPosition, Violation.LAST_OFFSET_DELTA_GAP, Severity.INFO, gapFirstBase,
                    gapBatches + " batch(es) whose lastOffsetDelta lies past their last record (or that hold no record),"
                            + " as the log cleaner leaves them to keep producer state; the first at this position");
        }
        indexes.finish(segLast, compacted, crashTail);
        return new Result(segFirst, segLast, batches, compacted, true);
    }

    @Override
    public boolean batch(Batch b) {
        checkBatch(b);
        return true;
    }

    @Override
    public void damage(Damage d) {
        if (!d.isTornTail()) {
            resyncAt(d);
            return;
        }
        String notSearched = d.searched() ? "" : NOT_SEARCHED;
        Tail tail = d.tail();
        if (d.violation() == Violation.ZERO_TAIL) {
            tornTail(d, tailSeverity(), Problem.of(d.violation(), file, d.from(), -1,
                    tail.tailBytes() + " zero bytes up to the end of the file (a torn write or preallocation)"), "");
        } else if (d.cause() == null) {
            tornTail(d, tailSeverity(), Problem.of(d.violation(), file, d.from(), -1, partialMessage(tail)), notSearched);
        } else {
            tornTail(d, Severity.ERROR, d.cause().problem(), notSearched);
        }
    }

    /**
     * A torn write is what a crash leaves at the end of the segment being appended to (warning); a
     * closed segment was whole when it was rolled, so a torn tail there is damage (error).
     */
    private Severity tailSeverity() {
        return active ? Severity.WARNING : Severity.ERROR;
    }

    private static String partialMessage(Tail tail) {
        return tail.declaredSize() < 0
                ? tail.tailBytes() + " bytes left, fewer than an entry header"
                : "an entry declares " + tail.declaredSize() + " bytes after its header but only "
                        + (tail.tailBytes() - BatchView.LOG_OVERHEAD) + " remain";
    }

    /**
     * Damage that runs to the end of the file: what Kafka's recovery truncates.
     *
     * @param what the problem at the start of the damage
     * @param extra text that qualifies it, appended before the consequences
     */
    private void tornTail(Damage d, Severity severity, Problem what, String extra) {
        flushPending(-1);
        crashTail = severity == Severity.WARNING;
        Violation kind = d.violation();
        long p = d.from();
        long lostFrom = d.lostFrom();
        long lostTo = d.headerLastOffset();
        String upTo = "";
        if (nextBase >= 0 && lostFrom >= 0 && nextBase > lostFrom) {
            // a closed segment held what lies below the next segment's base offset: a cut loses the torn
            // batch and whatever followed it in this segment, never what the next segment holds
            upTo = " (up to the next segment's base offset " + nextBase
                    + (lostTo >= lostFrom && lostTo < nextBase ? "; the torn batch held " + lostFrom + ".." + lostTo : "") + ")";
            lostTo = nextBase - 1;
        }
        if (lostFrom >= 0 && lostTo >= 0 && lostTo < lostFrom) {
            lostFrom = -1;
            lostTo = -1;
        }
        String lost = lostFrom < 0 ? "" : lostTo >= 0 ? "; offsets " + lostFrom + ".." + lostTo + " are lost" + upTo
                : kind == Violation.ZERO_TAIL
                        ? "; nothing from offset " + lostFrom + " on survives (zeros hold no batch: preallocated space,"
                                + " or writes that never reached the disk)"
                        : "; offsets from " + lostFrom + " on are lost";
        Problem problem = new Problem(kind, file, p, d.headerBaseOffset(), what.field(), what.expected(), what.actual(),
                what.note());
        report.add(new Finding(problem, extra + "; torn tail: Kafka's log recovery truncates the segment to " + p
                + " bytes, dropping the last " + (d.to() - p) + " bytes (and deletes the partition's later segments, if any)"
                + lost, severity, p, d.to(), lostFrom, lostTo, severity == Severity.WARNING));
    }

    private void resyncAt(Damage d) {
        flushPending(-1);
        long p = d.from();
        long q = d.resumeAt();
        long lostFrom = d.lostFrom();
        pendingDamage = new Finding(d.cause().problem(), null, Severity.ERROR, p, q, lostFrom, -1);
        pendingResync = Finding.of(file, q, Violation.RESYNC, Severity.ERROR, -1,
                "good batches resume here after " + (q - p) + " damaged bytes at " + p + ".." + (q - 1)
                        + "; Kafka's log recovery (after an unclean shutdown, for segments past the recovery point)"
                        + " would truncate the segment at " + p + ", losing these good batches too, and delete the"
                        + " partition's later segments", p, q, lostFrom, -1);
    }

    /** Emits a waiting resync; {@code nextBase} is the base offset of the batch found after it, or -1. */
    private void flushPending(long nextBase) {
        if (pendingResync == null) {
            return;
        }
        long lostFrom = pendingResync.lostFrom();
        long lostTo = nextBase >= 0 ? nextBase - 1 : -1;
        if (lostFrom < 0 || nextBase >= 0 && lostTo < lostFrom) {
            lostFrom = -1;
            lostTo = -1;
        }
        String lost = lostFrom < 0 ? "; no offset is missing"
                : lostTo < 0 ? "; offsets from " + lostFrom + " on are lost"
                : "; offsets " + lostFrom + ".." + lostTo + " are lost";
        Finding d = pendingDamage;
        report.add(new Finding(d.problem(), "; mid-file damage, resynchronised at " + pendingResync.position() + lost,
                d.severity(), d.skippedFrom(), d.skippedTo(), lostFrom, lostTo));
        Problem r = pendingResync.problem();
        report.add(new Finding(new Problem(r.kind(), r.file(), r.position(), nextBase, null, null, null, r.note()), lost,
                pendingResync.severity(), pendingResync.skippedFrom(), pendingResync.skippedTo(), lostFrom, lostTo));
        pendingResync = null;
        pendingDamage = null;
    }

    /** Checks one CRC-valid batch and moves the index cursors past it. */
    private void checkBatch(Batch b) {
        report.stats.batches++;
        if ((++batches & 1023) == 0) {
            report.progress(b.position());
        }
        long position = b.position();
        boolean v2 = b.magic() >= 2;
        long last = b.lastOffset();
        long base = v2 ? b.baseOffset() : -1;
        boolean control = b.isControl();
        short controlType = -1;
        int count = 0;
        long firstRecord = -1;
        long maxRecord = -1;
        long prevRecord = Long.MIN_VALUE;
        boolean orderReported = false;
        boolean innerCrcReported = false;
        boolean recordsOk = true;
        try {
            RecordIterator it = b.records();
            while (it.next()) {
                LogRecord r = it.record();
                long o = r.offset();
                count++;
                if (firstRecord < 0) {
                    firstRecord = o;
                    if (control) {
                        controlType = controlType(b, r);
                    }
                }
                if (o <= prevRecord && !orderReported) {
                    orderReported = true;
                    report.add(file, position, Violation.OFFSET_ORDER, Severity.ERROR, v2 ? base : last,
                            "record offset " + o + " does not follow " + prevRecord + " within the batch");
                }
                prevRecord = o;
                if (o > maxRecord) {
                    maxRecord = o;
                }
                if (coordinator != null && !control && b.isValid() && r.isValid()) {
                    checkCoordinatorRecord(b, r);
                }
                if (!r.isValid() && !innerCrcReported) {
                    innerCrcReported = true;
                    report.add(file, position, Violation.CRC_MISMATCH, Severity.ERROR, last,
                            "inner message at offset " + o + " of the compressed wrapper: stored CRC-32 0x"
                                    + String.format("%08x", r.checksumOrMinusOne()) + " is wrong");
                }
            }
        } catch (FormatException e) {
            recordsOk = false;
            report.add(e, Severity.ERROR);
        }
        report.stats.records += count;
        if (pendingResync != null) {
            flushPending(v2 ? base : firstRecord >= 0 ? firstRecord : last);
        }
        long first = v2 ? base : firstRecord >= 0 ? firstRecord : last;
        if (v2) {
            checkV2(b, position, base, last, count, firstRecord, maxRecord, recordsOk);
        }
        if (segFirst < 0) {
            segFirst = first;
            if (fileBase >= 0 && first < fileBase) {
                report.add(file, position, Violation.SEGMENT_BASE_OFFSET, Severity.ERROR, first,
                        "first batch starts at offset " + first + ", below the base offset " + fileBase
                                + " of the file name: Kafka's index lookups for those offsets go to the previous segment");
            }
        }
        long floor = segLast >= 0 ? segLast : prevLast;
        if (floor >= 0 && first <= floor) {
            report.add(file, position, Violation.OFFSET_ORDER, Severity.ERROR, first,
                    "batch offsets " + first + ".." + last + " do not follow the previous last offset " + floor
                            + (segLast >= 0 ? "" : " (of the previous segment)"));
        } else if (floor >= 0 && first > floor + 1) {
            compacted = true;
        }
        if (fileBase >= 0 && last - fileBase > Integer.MAX_VALUE && !overflowReported) {
            overflowReported = true;
            report.add(file, position, Violation.RELATIVE_OFFSET_OVERFLOW, Severity.WARNING, first,
                    "offset " + last + " is more than Integer.MAX_VALUE above the segment base offset " + fileBase
                            + ": index entries cannot address it (Kafka splits such a segment at load)");
        }
        segLast = Math.max(segLast, last);
        if (epochs != null && v2) {
            epochs.observe(b.partitionLeaderEpoch(), base, file, position);
        }
        indexes.onBatch(b, first, last, controlType);
    }

    private void checkV2(Batch b, long position, long base, long last, int count, long firstRecord, long maxRecord,
                         boolean recordsOk) {
        if (b.hasDeleteHorizon()) {
            compacted = true;
        }
        if (last < base) {
            report.add(file, position, Violation.INCONSISTENT_HEADER, Severity.ERROR, base,
                    "lastOffsetDelta " + (last - base) + " is negative");
            return;
        }
        if (!recordsOk) {
            return;
        }
        if (count > 0 && (firstRecord < base || maxRecord > last)) {
            report.add(file, position, Violation.INCONSISTENT_HEADER, Severity.ERROR, base,
                    "records span offsets " + firstRecord + ".." + maxRecord + " outside the header's " + base + ".."
                            + last + " (lastOffsetDelta " + (last - base) + ")");
        } else if (count == 0 || maxRecord < last) {
            compacted = true;
            if (gapBatches++ == 0) {
                gapFirstPosition = position;
                gapFirstBase = base;
            }
        }
    }

    /**
     * What the topic's coordinator makes of a record when it loads the partition (Kafka 4.4.0's
     * {@code CoordinatorLoaderImpl} over {@code CoordinatorRecordSerde}): a record type it does not
     * know is skipped (and types 9 and 18, which only earlier releases wrote, are such types); a
     * missing or malformed key, a value version its type does not define or a value that does not
     * parse throws, and the load of the whole partition fails. Offset commits, nearly every record
     * of {@code __consumer_offsets}, are read with an allocation-free view first.
     */
    private void checkCoordinatorRecord(Batch b, LogRecord r) {
        ByteBuffer keyBuf = r.hasKey() ? r.buffer() : null;
        ByteBuffer valueBuf = r.hasValue() ? r.buffer() : null;
        if (coordinator == CoordinatorRecordDecoder.consumerOffsets()
                && offsetCommit.wrap(keyBuf, r.keyOffset(), r.keyLength(), valueBuf, r.valueOffset(), r.valueLength())) {
            return;
        }
        CoordinatorResult result = coordinator.decode(keyBuf, r.keyOffset(), r.keyLength(), valueBuf, r.valueOffset(),
                r.valueLength());
        if (!(result instanceof Unknown u) || u.reason() == UnknownReason.UNKNOWN_RECORD_TYPE) {
            return;
        }
        RecordSchema schema = u.recordType() >= 0 ? coordinator.schemas().forType(u.recordType()) : null;
        if (schema != null && !schema.inKafka440()) {
            return; // a type only earlier releases wrote: 4.4.0's loader skips it as unknown
        }
        boolean value = u.reason() == UnknownReason.MALFORMED_VALUE || u.reason() == UnknownReason.UNKNOWN_VALUE_VERSION;
        String field = u.field() != null ? u.field() : value ? "value" : "key";
        String name = switch (u.topic()) {
            case CONSUMER_OFFSETS -> "group";
            case TRANSACTION_STATE -> "transaction";
            case SHARE_GROUP_STATE -> "share";
        };
        Problem p = new Problem(u.reason().violation(), file, b.position(), b.magic() >= 2 ? b.baseOffset() : r.offset(), field, null,
                "type " + u.recordType() + (u.valueVersion() >= 0 ? " version " + u.valueVersion() : ""),
                "record at offset " + r.offset() + " (CRC valid): " + u.kafkaMessage()
                        + (u.kafkaMessage().contains(u.detail()) ? "" : " (" + u.detail() + ")"));
        report.add(new Finding(p, "; the " + name + " coordinator would fail to load this partition (Kafka 4.4.0's"
                + " loader throws on it and the partition's coordinator stays unavailable)", Severity.ERROR, -1, -1, -1, -1));
    }

    private short controlType(Batch b, LogRecord r) {
        try {
            return ControlRecord.typeId(b, r);
        } catch (FormatException e) {
            report.add(e, Severity.ERROR);
            return -1;
        }
    }
}
