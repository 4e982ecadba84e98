package io.segscope.format.verify;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.index.FixedSizeIndexReader;
import io.segscope.format.index.OffsetIndexReader;
import io.segscope.format.index.TimeIndexReader;
import io.segscope.format.index.TxnIndexReader;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.record.Batch;
import io.segscope.format.record.ControlRecord;

/**
 * Matches a segment's index entries against its batches while {@link SegmentVerifier} walks
 * them (docs/format.md 1.8, 6.2). Kafka's rules:
 * <ul>
 *   <li>{@code .index}: each entry's position is a batch boundary and its offset is that batch's
 *       last offset (Kafka 3.8+ indexes batch by batch; older brokers wrote the last offset of the
 *       whole append, a later batch: reported as info);</li>
 *   <li>{@code .timeindex}: each entry's offset is the last offset of a batch whose maxTimestamp is
 *       the entry's timestamp (the test of DumpLogSegments' {@code --index-sanity-check});</li>
 *   <li>{@code .txnindex}: the ABORT marker of each aborted transaction sits at its lastOffset, as
 *       a control batch of that producer.</li>
 * </ul>
 * Entries are sorted (by position, by offset), so one cursor per file moves forward with the
 * batches and nothing is stored. A preallocated zero tail is judged by where it is: in the
 * segment a crashed broker was appending to it is expected; in the active segment of the KRaft
 * metadata log it is expected even after a clean shutdown (see {@link #fixedChecks}); in a closed
 * segment it is the KAFKA-10207 trap (Kafka trims indexes when it rolls a segment and, for the
 * logs of its LogManager, at clean shutdown).
 */
final class IndexCursors {
    private final Report report;
    private final int maxFindings;
    private final OffsetIndexReader offsetIndex = new OffsetIndexReader();
    private final TimeIndexReader timeIndex = new TimeIndexReader();
    private final TxnIndexReader txnIndex = new TxnIndexReader();
    private ByteSource offsetSource;
    private ByteSource timeSource;
    private ByteSource txnSource;
    private int k;
    private int j;
    private int t;
    private long lastTimeOffset;
    private int offsetFindings;
    private int timeFindings;
    private int txnFindings;
    private long appendOffsetEntries;
    private long appendOffsetPosition;

    IndexCursors(Report report, int maxFindings) {
        this.report = report;
        this.maxFindings = maxFindings;
    }

    /**
     * @param active true for the last segment of a partition
     * @param cleanShutdown true/false when known from the log dir, null when not
     * @param metadataLog true for a segment of the KRaft metadata log ({@code __cluster_metadata-0})
     */
    void open(FileEntry index, FileEntry time, FileEntry txn, long baseOffset, boolean active, Boolean cleanShutdown,
              boolean metadataLog) {
        close();
        k = 0;
        j = 0;
        t = 0;
        lastTimeOffset = Long.MIN_VALUE;
        offsetFindings = 0;
        timeFindings = 0;
        txnFindings = 0;
        appendOffsetEntries = 0;
        long base = Math.max(0, baseOffset);
        if (index != null) {
            offsetSource = openChecked(index);
            if (offsetSource != null && !wrap(() -> offsetIndex.wrap(offsetSource, base), index)) {
                offsetSource = close(offsetSource);
            }
            if (offsetSource != null) {
                fixedChecks(offsetIndex, active, cleanShutdown, metadataLog);
            }
        }
        if (time != null) {
            timeSource = openChecked(time);
            if (timeSource != null && !wrap(() -> timeIndex.wrap(timeSource, base), time)) {
                timeSource = close(timeSource);
            }
            if (timeSource != null) {
                fixedChecks(timeIndex, active, cleanShutdown, metadataLog);
            }
        }
        if (txn != null) {
            txnSource = openChecked(txn);
            if (txnSource != null && !wrap(() -> txnIndex.wrap(txnSource, base), txn)) {
                txnSource = close(txnSource);
            }
            if (txnSource != null) {
                for (FormatException e : txnIndex.sanityCheck()) {
                    if (e.violation() == Violation.TRUNCATED) {
                        // a torn entry: what a crash leaves when the log dir says it stopped uncleanly
                        Finding f = Finding.of(e, Severity.WARNING);
                        report.add(Boolean.FALSE.equals(cleanShutdown) ? f.asCrashArtefact() : f);
                    } else {
                        report.add(e, Severity.ERROR);
                    }
                }
            }
        }
        report.stats.files += (offsetSource != null ? 1 : 0) + (timeSource != null ? 1 : 0) + (txnSource != null ? 1 : 0);
    }

    private ByteSource openChecked(FileEntry f) {
        try {
            return f.open();
        } catch (FormatException e) {
            report.add(e, Severity.ERROR);
            return null;
        }
    }

    private boolean wrap(Runnable wrap, FileEntry f) {
        try {
            wrap.run();
            return true;
        } catch (FormatException e) {
            report.add(e, Severity.ERROR);
            return false;
        }
    }

    /**
     * The structure of an offset or time index, and its zero tail. A zero tail is info
     * ({@code index-preallocated}) in the active segment when the broker did not shut down
     * cleanly (or that is unknown), and in the active segment of the KRaft metadata log whatever
     * the shutdown. Kafka 4.4.0 no longer trims an index in {@code AbstractIndex.close()} (which
     * only unmaps it); the trim at shutdown is {@code UnifiedLog.prepareActiveSegmentForClose()}
     * ({@code LogSegment.onBecomeInactiveSegment()}), called by {@code LogManager.shutdown()} for
     * the logs it manages only. The metadata log is not one of them: {@code KafkaRaftLog.close()}
     * calls {@code UnifiedLog.close()} alone, so its active {@code .index}/{@code .timeindex} keep
     * their 10 MiB preallocation at every clean shutdown. That is harmless: {@code KafkaRaftLog}
     * opens its log with {@code lastShutdownClean=false} and recovery point 0, so every start
     * recovers the segment and rebuilds its indexes. Everywhere else (closed segments of any log,
     * the active segment of a LogManager log after a clean shutdown) a zero tail is a warning
     * ({@code index-zero-tail}, KAFKA-10207).
     */
    private void fixedChecks(FixedSizeIndexReader r, boolean active, Boolean cleanShutdown, boolean metadataLog) {
        for (FormatException e : r.sanityCheck()) {
            report.add(e, Severity.ERROR);
        }
        if (!r.isPreallocated()) {
            return;
        }
        long at = (long) r.entries() * r.entrySize();
        String tail = r.zeroTailSlots() + " zero slot(s) after " + r.entries() + " entries";
        if (active && !Boolean.TRUE.equals(cleanShutdown)) {
            // a crash artefact where the log dir says it stopped uncleanly; unknown for a partition dir alone
            report.add(r.fileName(), at, Violation.INDEX_PREALLOCATED, Severity.INFO, r.baseOffset(),
                    "preallocated index of a segment still open at crash (" + tail + "); Kafka trims it when it recovers"
                            + " or rolls the segment", Boolean.FALSE.equals(cleanShutdown));
        } else if (active && metadataLog) {
            report.add(r.fileName(), at, Violation.INDEX_PREALLOCATED, Severity.INFO, r.baseOffset(),
                    "preallocated index of the KRaft metadata log's active segment (" + tail + "); Kafka 4.4.0 leaves it"
                            + " so at clean shutdown and rebuilds it at start (the metadata log is always recovered)");
        } else {
            boolean timeIndex = r instanceof TimeIndexReader;
            report.add(r.fileName(), at, Violation.INDEX_ZERO_TAIL, Severity.WARNING, r.baseOffset(),
                    tail + " in the index of a " + (active ? "cleanly shut down" : "closed") + " segment"
                            + (timeIndex ? "; Kafka reads the zero entries as real (KAFKA-10207): its sanity check fails"
                                    + " and time-based retention can delete the segment early"
                                    : "; Kafka counts the zero entries as real (offset = base offset, position 0)"),
                    Boolean.FALSE.equals(cleanShutdown));
        }
    }

    /** Moves every cursor past {@code b}, whose offsets run from {@code first} to {@code last}. */
    void onBatch(Batch b, long first, long last, short controlType) {
        long position = b.position();
        if (offsetSource != null) {
            int n = offsetIndex.entries();
            while (k < n && offsetIndex.position(k) < position) {
                offsetError(k, "position " + offsetIndex.position(k) + " (offset " + offsetIndex.offset(k)
                        + ") is not a batch boundary: it points inside the batch or the damage before position " + position);
                k++;
            }
            if (k < n && offsetIndex.position(k) == position) {
                long off = offsetIndex.offset(k);
                if (off > last) {
                    if (appendOffsetEntries++ == 0) {
                        appendOffsetPosition = (long) k * OffsetIndexReader.ENTRY_SIZE;
                    }
                } else if (off != last) {
                    offsetError(k, "offset " + off + " at position " + position + " is not the last offset " + last
                            + " of the batch there; lookups of offsets " + (off + 1) + ".." + last + " would start too late");
                }
                k++;
            }
        }
        if (timeSource != null) {
            int n = timeIndex.entries();
            while (j < n && timeIndex.offset(j) <= last) {
                long off = timeIndex.offset(j);
                if (off >= lastTimeOffset) {
                    lastTimeOffset = off;
                    long ts = timeIndex.timestamp(j);
                    if (off >= first) {
                        // 4.4.0 indexes a batch's last offset; older brokers (KAFKA-16310) the
                        // offset of its first record with the largest timestamp, anywhere in the
                        // batch (seen on 3.3.2 and 3.6.2; docs/format.md 1.8). Either way the
                        // entry names the batch, and lookups by time land on it.
                        if (ts != b.maxTimestamp()) {
                            timeError(j, "timestamp " + ts + " at offset " + off + " but the batch " + first + ".." + last
                                    + " holding it has maxTimestamp " + b.maxTimestamp());
                        }
                    } else {
                        timeError(j, "no batch ends at offset " + off + " (the next batch starts at " + first + ")");
                    }
                }
                j++;
            }
        }
        if (txnSource != null) {
            int n = txnIndex.entries();
            while (t < n && txnIndex.lastOffset(t) <= last) {
                long lo = txnIndex.lastOffset(t);
                long pid = txnIndex.producerId(t);
                if (lo >= first) {
                    if (!b.isControl() || b.producerId() != pid || controlType != ControlRecord.Type.ABORT.id) {
                        txnError(t, Severity.ERROR, "aborted transaction of producer " + pid + " ends at " + lo
                                + " but the batch there (position " + position + ") is "
                                + (b.isControl() ? "a " + ControlRecord.Type.of(controlType) + " control batch of producer " + b.producerId()
                                : "not a control batch"));
                    }
                } else {
                    txnError(t, Severity.INFO, "no batch holds offset " + lo + ", the ABORT marker of producer " + pid
                            + " (the log cleaner removes markers after the delete horizon)");
                }
                t++;
            }
        }
    }

    /**
     * Reports the entries no batch matched, then closes the index files. Entries past the last
     * whole batch of a segment that ends with a crash's torn tail ({@code crashTail}: the segment
     * being appended to) are a warning, not damage: the index was written (or copied, on a live
     * disk) after batches the .log does not hold whole, and Kafka's recovery
     * truncates the segment and rebuilds its indexes from the batches (LogSegment.recover).
     */
    void finish(long segLast, boolean compacted, boolean crashTail) {
        Severity past = crashTail ? Severity.WARNING : Severity.ERROR;
        String why = crashTail ? ", which ends with a torn tail: the index was written after batches the .log does not hold"
                + " whole; Kafka's recovery rebuilds it when it truncates the segment" : "";
        if (offsetSource != null) {
            for (int n = offsetIndex.entries(); k < n; k++) {
                offsetError(k, past, "position " + offsetIndex.position(k) + " (offset " + offsetIndex.offset(k)
                        + ") lies past the last batch of the segment" + why);
            }
            overflowLine(offsetIndex.fileName(), offsetFindings);
            if (appendOffsetEntries > 0) {
                report.add(offsetIndex.fileName(), appendOffsetPosition, Violation.INDEX_APPEND_OFFSET, Severity.INFO,
                        offsetIndex.baseOffset(), appendOffsetEntries + " entr(ies) carry the last offset of a later batch"
                                + " of the same append, as brokers before 3.8 wrote them; lookups still work");
            }
        }
        if (timeSource != null) {
            for (int n = timeIndex.entries(); j < n; j++) {
                if (timeIndex.offset(j) >= lastTimeOffset) {
                    timeError(j, past, "offset " + timeIndex.offset(j) + " lies past the last offset " + segLast
                            + " of the segment" + why);
                }
            }
            overflowLine(timeIndex.fileName(), timeFindings);
        }
        if (txnSource != null) {
            for (int n = txnIndex.entries(); t < n; t++) {
                txnError(t, Severity.WARNING, "the ABORT marker of producer " + txnIndex.producerId(t) + " at offset "
                        + txnIndex.lastOffset(t) + " lies past the last offset " + segLast + " of the segment");
            }
            overflowLine(txnIndex.fileName(), txnFindings);
        }
        close();
    }

    private void overflowLine(String fileName, int findings) {
        if (findings > maxFindings) {
            report.add(fileName, -1, Violation.INDEX_MISMATCH, Severity.ERROR, -1,
                    (findings - maxFindings) + " more mismatching entries not listed");
        }
    }

    private void offsetError(int slot, String message) {
        offsetError(slot, Severity.ERROR, message);
    }

    private void offsetError(int slot, Severity severity, String message) {
        if (++offsetFindings <= maxFindings) {
            report.add(offsetIndex.fileName(), (long) slot * OffsetIndexReader.ENTRY_SIZE, Violation.INDEX_MISMATCH,
                    severity, offsetIndex.baseOffset(), "entry " + slot + ": " + message);
        }
    }

    private void timeError(int slot, String message) {
        timeError(slot, Severity.ERROR, message);
    }

    private void timeError(int slot, Severity severity, String message) {
        if (++timeFindings <= maxFindings) {
            report.add(timeIndex.fileName(), (long) slot * TimeIndexReader.ENTRY_SIZE, Violation.INDEX_MISMATCH,
                    severity, timeIndex.baseOffset(), "entry " + slot + ": " + message);
        }
    }

    private void txnError(int slot, Severity severity, String message) {
        if (severity == Severity.INFO || ++txnFindings <= maxFindings) {
            report.add(txnIndex.fileName(), (long) slot * TxnIndexReader.ENTRY_SIZE, Violation.TXN_MARKER_MISSING,
                    severity, txnIndex.baseOffset(), "entry " + slot + ": " + message);
        }
    }

    void close() {
        offsetSource = close(offsetSource);
        timeSource = close(timeSource);
        txnSource = close(txnSource);
    }

    private static ByteSource close(ByteSource s) {
        if (s != null) {
            s.close();
        }
        return null;
    }
}
