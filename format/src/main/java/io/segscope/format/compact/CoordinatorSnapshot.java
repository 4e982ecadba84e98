package io.segscope.format.compact;

import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.RecordIterator;
import io.segscope.format.write.BatchBuilder;
import io.segscope.format.write.RecordHeaders;
import io.segscope.format.write.SegmentWriter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;

/**
 * The smallest partition a coordinator loads into the same state (docs/format.md 4.8): per key only
 * its latest record, and only when that record has a value (no tombstones); no control batches; no
 * aborted data and no data of open transactions; committed transactional data written as plain
 * records. Records keep their offsets, timestamps, keys, values and headers; each run of kept records
 * of one source batch becomes one uncompressed magic-2 batch with the source batch's leader epoch. Not
 * what Kafka's cleaner writes: a snapshot for loading, inspecting or archiving a coordinator's state.
 */
final class CoordinatorSnapshot {
    private final List<SourceSegment> segments;
    private final ProducerReplay producers;
    private final CompactSettings settings;
    private final ReaderOptions options = ReaderOptions.defaults();
    private final BatchBuilder builder = new BatchBuilder();
    private final RecordHeaders headers = new RecordHeaders();
    private final Scratch scratch = new Scratch();
    private ByteBuffer keyCopy = ByteBuffer.allocate(256);
    private int[] headerAt = new int[32];
    private final Counters c = new Counters();

    CoordinatorSnapshot(List<SourceSegment> segments, ProducerReplay producers, CompactSettings settings) {
        this.segments = segments;
        this.producers = producers;
        this.settings = settings;
    }

    /** Writes the snapshot's segments into {@code dir}; returns the figures as one pass. */
    CompactStats.Round write(Path dir, Path input) throws IOException {
        long t0 = System.nanoTime();
        long keyed = 0;
        for (SourceSegment seg : segments) {
            try (BatchReader reader = new BatchReader(seg.source(), options)) {
                while (reader.next()) {
                    Batch b = reader.batch();
                    if (!b.isControl()) {
                        keyed += b.magic() >= 2 ? b.countOrMinusOne() : count(b);
                    }
                }
            }
        }
        long memory = Math.min(Integer.MAX_VALUE - 64, ((long) (keyed / 0.9) + 2) * KeyOffsetMap.ENTRY_SIZE);
        KeyOffsetMap map = new KeyOffsetMap((int) memory);
        TxnTracker txns = txns();
        for (SourceSegment seg : segments) {
            try (BatchReader reader = new BatchReader(seg.source(), options)) {
                while (reader.next()) {
                    Batch b = reader.batch();
                    if (b.isControl()) {
                        txns.onControlBatchRead(b);
                        continue;
                    }
                    boolean dropped = txns.onBatchRead(b) || open(b);
                    RecordIterator it = b.records();
                    while (it.next()) {
                        LogRecord r = it.record();
                        c.mapMessagesRead++;
                        if (!dropped && r.hasKey()) {
                            ByteBuffer key = key(r);
                            map.put(key, key == r.buffer() ? r.keyOffset() : 0, r.keyLength(), r.offset());
                        }
                    }
                    c.mapBytesRead += b.sizeInBytes();
                }
            }
        }
        long t1 = System.nanoTime();

        txns = txns();
        SegmentWriter writer = null;
        int written = 0;
        long lastKept = -1;
        // the input's last batch: the end of the log, kept as an empty batch when its records are not
        long lastBase = -1;
        long lastOffset = -1;
        int lastLeaderEpoch = -1;
        long lastModified = 0;
        long keptMaxTimestamp = -1;
        try {
            for (SourceSegment seg : segments) {
                try (BatchReader reader = new BatchReader(seg.source(), options)) {
                    while (reader.next()) {
                        Batch b = reader.batch();
                        c.bytesRead += b.sizeInBytes();
                        lastBase = b.magic() >= 2 ? b.baseOffset() : b.lastOffset();
                        lastOffset = b.lastOffset();
                        lastLeaderEpoch = b.magic() >= 2 ? b.partitionLeaderEpoch() : -1;
                        lastModified = seg.lastModifiedMs;
                        if (b.isControl()) {
                            txns.onControlBatchRead(b);
                            c.batchesDropped++;
                            continue;
                        }
                        boolean dropped = txns.onBatchRead(b) || open(b);
                        boolean begun = false;
                        RecordIterator it = b.records();
                        while (it.next()) {
                            LogRecord r = it.record();
                            c.messagesRead++;
                            if (dropped || !r.hasKey() || !r.hasValue()) {
                                continue;
                            }
                            ByteBuffer key = key(r);
                            if (map.get(key, key == r.buffer() ? r.keyOffset() : 0, r.keyLength()) != r.offset()) {
                                continue;
                            }
                            if (!begun) {
                                builder.begin(r.offset(), io.segscope.format.record.CompressionType.NONE)
                                        .partitionLeaderEpoch(b.partitionLeaderEpoch());
                                begun = true;
                            }
                            append(r);
                            c.messagesWritten++;
                        }
                        if (!begun) {
                            c.batchesDropped++;
                            continue;
                        }
                        ByteBuffer batch = builder.finish();
                        if (writer == null || writer.size() + batch.remaining() > settings.segmentBytes()) {
                            if (writer != null) {
                                writer.close();
                            }
                            // the first segment keeps the input's log start offset as its base offset
                            long base = written == 0 ? segments.get(0).baseOffset : batch.getLong(0);
                            writer = SegmentWriter.open(dir, base, settings.indexIntervalBytes(), List.of(input));
                            writer.lastModified(FileTime.fromMillis(seg.lastModifiedMs));
                            written++;
                        }
                        c.bytesWritten += batch.remaining();
                        c.batchesRebuilt++;
                        lastKept = batch.getLong(0) + batch.getInt(23);
                        keptMaxTimestamp = Math.max(keptMaxTimestamp, batch.getLong(35));
                        writer.append(batch);
                    }
                }
            }
            // the log end offset stays the input's (a coordinator's next writes must not reuse offsets
            // others have read): when the last records kept end before it, the log ends with the input's
            // last batch emptied (a 61-byte header, as Kafka's cleaner keeps one), which a loader reads
            // up to the end (an empty segment would not do: Kafka's loader stops at the gap)
            if (lastOffset >= 0 && lastKept < lastOffset) {
                long base = Math.max(lastBase, lastKept + 1);
                // its timestamp: the latest kept (none new for the time index, which indexes records)
                ByteBuffer empty = emptyBatch(base, (int) (lastOffset - base), keptMaxTimestamp, lastLeaderEpoch);
                if (writer == null || writer.size() + empty.remaining() > settings.segmentBytes()) {
                    if (writer != null) {
                        writer.close();
                    }
                    writer = SegmentWriter.open(dir, written == 0 ? segments.get(0).baseOffset : base,
                            settings.indexIntervalBytes(), List.of(input));
                    writer.lastModified(FileTime.fromMillis(lastModified));
                    written++;
                }
                c.bytesWritten += empty.remaining();
                writer.append(empty);
            }
            if (writer != null) {
                writer.close();
                writer = null;
            }
            if (written == 0 && !segments.isEmpty()) {
                // an empty log: one empty segment at its start
                SegmentWriter.open(dir, segments.get(0).baseOffset, settings.indexIntervalBytes(), List.of(input)).close();
                written++;
            }
        } catch (IOException | RuntimeException e) {
            if (writer != null) {
                writer.abort();
            }
            throw e;
        }
        long t2 = System.nanoTime();
        long end = segments.isEmpty() ? 0 : segments.get(segments.size() - 1).nextOffset;
        return new CompactStats.Round(segments.isEmpty() ? 0 : segments.get(0).baseOffset, end, end, segments.size(),
                written, c.mapBytesRead, c.mapMessagesRead, c.bytesRead, c.bytesWritten, c.messagesRead,
                c.messagesWritten, 0, map.slots(), map.size(), map.utilization(), 0, c.batchesRebuilt, 0,
                c.batchesDropped, t1 - t0, t2 - t1);
    }

    /** {@code DefaultRecordBatch.writeEmptyHeader}: a magic-2 batch header holding no record, no producer. */
    static ByteBuffer emptyBatch(long baseOffset, int lastOffsetDelta, long maxTimestamp, int leaderEpoch) {
        ByteBuffer b = ByteBuffer.allocate(61);
        b.putLong(baseOffset).putInt(61 - 12).putInt(leaderEpoch).put((byte) 2).putInt(0).putShort((short) 0)
                .putInt(lastOffsetDelta).putLong(-1L).putLong(maxTimestamp).putLong(-1L).putShort((short) -1)
                .putInt(-1).putInt(0);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(b.array(), 21, 61 - 21);
        b.putInt(17, (int) crc.getValue());
        return b.flip();
    }

    /**
     * The key as the coordinator identifies it: an offset commit key of version 0 and one of version 1
     * have the same fields (group, topic, partition) and name the same offset (docs/format.md 2.2), so
     * a version-0 key is looked up as version 1; other keys as they are. Either {@code r.buffer()} (at
     * the record's key offset) or the reused {@code keyCopy} (at 0).
     */
    private ByteBuffer key(LogRecord r) {
        ByteBuffer buf = r.buffer();
        int at = r.keyOffset();
        if (r.keyLength() < 2 || buf.get(at) != 0 || buf.get(at + 1) != 0) {
            return buf;
        }
        if (keyCopy.capacity() < r.keyLength()) {
            keyCopy = ByteBuffer.allocate(Math.max(keyCopy.capacity() * 2, r.keyLength()));
        }
        keyCopy.clear();
        keyCopy.put(0, buf, at, r.keyLength());
        keyCopy.put(1, (byte) 1);
        return keyCopy;
    }

    private TxnTracker txns() {
        TxnTracker t = new TxnTracker();
        for (SourceSegment s : segments) {
            t.addAborted(s.abortedTxns);
        }
        return t;
    }

    private boolean open(Batch b) {
        if (!b.isTransactional()) {
            return false;
        }
        long first = producers.openTransactionFirstOffset(b.producerId());
        return first >= 0 && b.lastOffset() >= first;
    }

    private static long count(Batch b) {
        long n = 0;
        RecordIterator it = b.records();
        while (it.next()) {
            n++;
        }
        return n;
    }

    private void append(LogRecord r) {
        ByteBuffer buf = r.buffer();
        int used = 0;
        int keyAt = used;
        used = scratch.copy(buf, r.keyOffset(), r.keyLength(), used);
        int valueAt = used;
        used = scratch.copy(buf, r.valueOffset(), r.valueLength(), used);
        headers.clear();
        int n = 0;
        if (r.headerCount() > 0) {
            var h = r.headers();
            while (h.next()) {
                if (4 * n + 4 > headerAt.length) {
                    headerAt = Arrays.copyOf(headerAt, headerAt.length * 2);
                }
                headerAt[4 * n] = used;
                headerAt[4 * n + 1] = h.keyLength();
                used = scratch.copy(buf, h.keyOffset(), h.keyLength(), used);
                headerAt[4 * n + 2] = used;
                headerAt[4 * n + 3] = h.valueLength();
                used = scratch.copy(buf, h.valueOffset(), h.valueLength(), used);
                n++;
            }
            for (int i = 0; i < n; i++) {
                headers.add(scratch.bytes(), headerAt[4 * i], headerAt[4 * i + 1], scratch.bytes(), headerAt[4 * i + 2], headerAt[4 * i + 3]);
            }
        }
        builder.append(r.offset(), r.timestamp(), scratch.bytes(), keyAt, r.keyLength(), scratch.bytes(), valueAt, r.valueLength(),
                n > 0 ? headers : RecordHeaders.NONE);
    }

}
