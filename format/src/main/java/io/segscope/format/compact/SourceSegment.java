package io.segscope.format.compact;

import io.segscope.format.index.TxnIndexReader;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.Tail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One segment of the log being cleaned, as the cleaner sees it: an input segment (never written) or
 * a segment an earlier round wrote. Holds what Kafka's {@code LogSegment} would answer: size, next
 * offset, last-modified time, largest timestamp, the aborted transactions of its {@code .txnindex},
 * and its offset and time index entries as Kafka's recovery rebuilds them with
 * {@code index.interval.bytes} (their counts decide the grouping, their offsets where the map build
 * starts reading). A torn tail ends the segment, as recovery truncates it.
 */
final class SourceSegment {
    final long baseOffset;
    final Path log;
    final Path txnIndexFile;
    final boolean written;
    /** The mapped {@code .log} while a pass reads it ({@link #source()}), null otherwise ({@link #release()}). */
    private ByteSource source;
    long size;
    long nextOffset;
    long lastModifiedMs;
    long largestTimestamp = -1L;
    /** Where reading stopped before the end of the file (a torn or damaged batch, a zero-filled tail), or null. */
    Tail tail;
    /** The position of the first batch whose CRC is wrong (compacted as read), or -1. */
    long badCrcPosition = -1;
    String badCrcOffsets;
    long firstBatchTimestamp = -1L;
    int offsetIndexEntries;
    int timeIndexEntries;
    long[] indexOffsets = new long[0];
    int[] indexPositions = new int[0];
    List<AbortedTxn> abortedTxns = List.of();

    SourceSegment(long baseOffset, Path log, Path txnIndexFile, boolean written) {
        this.baseOffset = baseOffset;
        this.log = log;
        this.txnIndexFile = txnIndexFile;
        this.written = written;
    }

    /**
     * The segment's bytes, mapped now if they are not: valid until {@link #release()}. Each pass maps
     * a segment for as long as it reads it, so that only the segment being read counts in the
     * resident set, not every segment of the partition.
     */
    ByteSource source() {
        if (source == null) {
            String name = log.getFileName().toString();
            boolean large;
            try {
                large = Files.size(log) > MappedSource.windowedAbove();
            } catch (IOException e) {
                large = false;   // the mapping names the error
            }
            // a segment over the threshold is read through a window, as dump and verify read it, so that
            // its pages do not all count in the resident set while it is cleaned (the passes read it in order)
            source = large ? MappedSource.open(log, name) : MappedSource.openReleasable(log, name);
        }
        return source;
    }

    /** Unmaps the segment's bytes: no batch, record or buffer of it may be used afterwards. */
    void release() {
        if (source != null) {
            source.close();
            source = null;
        }
    }

    /** Walks the batch headers once, feeding {@code visitor} if not null; the segment is released after. */
    void open(int indexIntervalBytes, ReaderOptions options, BatchVisitor visitor) throws IOException {
        lastModifiedMs = Files.getLastModifiedTime(log).toMillis();
        if (txnIndexFile != null && Files.isRegularFile(txnIndexFile) && Files.size(txnIndexFile) > 0) {
            ByteSource txn = MappedSource.open(txnIndexFile, txnIndexFile.getFileName().toString());
            TxnIndexReader reader = new TxnIndexReader().wrap(txn, baseOffset);
            List<AbortedTxn> list = new ArrayList<>(reader.entries());
            for (int i = 0; i < reader.entries(); i++) {
                list.add(new AbortedTxn(reader.producerId(i), reader.firstOffset(i), reader.lastOffset(i),
                        reader.lastStableOffset(i)));
            }
            abortedTxns = List.copyOf(list);
        }
        IndexSizer sizer = new IndexSizer(indexIntervalBytes);
        nextOffset = baseOffset;
        try (BatchReader reader = new BatchReader(source(), options)) {
            while (reader.next()) {
                Batch b = reader.batch();
                if (firstBatchTimestamp == -1L && size == 0) {
                    firstBatchTimestamp = b.maxTimestamp();
                }
                sizer.add(b.lastOffset(), (int) b.position(), b.sizeInBytes(), b.maxTimestamp());
                nextOffset = b.nextOffset();
                size = b.position() + b.sizeInBytes();
                if (visitor != null) {
                    visitor.batch(b);
                }
                if (badCrcPosition < 0 && b.magic() >= 2 && !b.isValid()) {
                    badCrcPosition = b.position();
                    badCrcOffsets = b.baseOffset() + ".." + b.lastOffset();
                }
            }
            Tail t = reader.tail();
            tail = t != null && !t.isClean() ? t : null;
        } finally {
            release();
        }
        sizer.finish();
        offsetIndexEntries = sizer.offsetEntries;
        timeIndexEntries = sizer.timeEntries;
        // LogSegment.largestTimestamp: the file's modification time when no batch has a timestamp
        largestTimestamp = sizer.maxTimestamp >= 0 ? sizer.maxTimestamp : lastModifiedMs;
        indexOffsets = Arrays.copyOf(sizer.offsets, sizer.offsetEntries);
        indexPositions = Arrays.copyOf(sizer.positions, sizer.offsetEntries);
    }

    /** The position Kafka's offset index lookup gives for {@code offset}: the last entry at or before it, else 0. */
    int lookup(long offset) {
        int lo = 0;
        int hi = offsetIndexEntries - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (indexOffsets[mid] <= offset) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? 0 : indexPositions[found];
    }

    /** Kafka's {@code offsetIndex().sizeInBytes()} after recovery. */
    long offsetIndexBytes() {
        return 8L * offsetIndexEntries;
    }

    long timeIndexBytes() {
        return 12L * timeIndexEntries;
    }

    void close() {
        release();
    }

    @Override
    public String toString() {
        return log.getFileName() + " [" + baseOffset + ", " + nextOffset + ") " + size + " bytes";
    }

    /** Sees every batch of the header walk. */
    interface BatchVisitor {
        void batch(Batch batch);
    }

    /**
     * Counts index entries as {@code LogSegment.recover} rebuilds them: before a batch, when more than
     * {@code index.interval.bytes} lie between the last indexed batch and this one, an offset entry
     * (its last offset) and a time entry if the largest timestamp so far grew; a last time entry at the end.
     */
    static final class IndexSizer {
        private final int interval;
        int offsetEntries;
        int timeEntries;
        long[] offsets = new long[16];
        int[] positions = new int[16];
        long maxTimestamp = -1L;
        private long lastTimeEntry = -1L;
        private int lastIndexEntry;

        IndexSizer(int interval) {
            this.interval = interval;
        }

        void add(long lastOffset, int position, int size, long batchMaxTimestamp) {
            if (batchMaxTimestamp > maxTimestamp) {
                maxTimestamp = batchMaxTimestamp;
            }
            if (position - lastIndexEntry > interval) {
                if (offsetEntries == offsets.length) {
                    offsets = Arrays.copyOf(offsets, offsetEntries * 2);
                    positions = Arrays.copyOf(positions, offsetEntries * 2);
                }
                offsets[offsetEntries] = lastOffset;
                positions[offsetEntries] = position;
                offsetEntries++;
                timeEntry();
                lastIndexEntry = position;
            }
        }

        private void timeEntry() {
            if (maxTimestamp > lastTimeEntry) {
                timeEntries++;
                lastTimeEntry = maxTimestamp;
            }
        }

        void finish() {
            timeEntry();
        }
    }
}
