package io.segscope.format.compact;

import io.segscope.format.io.ByteSource;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.BatchView;
import io.segscope.format.record.HeaderIterator;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.RecordIterator;
import io.segscope.format.record.TimestampType;
import io.segscope.format.write.BatchBuilder;
import io.segscope.format.write.RecordHeaders;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The two per-segment loops of a cleaning round (docs/format.md 4.2-4.4), as Kafka 4.4.0's
 * {@code Cleaner} runs them: {@link #mapSegment} puts the keys of the dirty range into the
 * {@link KeyOffsetMap}; {@link #cleanInto} decides per batch and per record what stays and appends
 * the result to a cleaned segment: a magic-2 batch whose records all stay and that needs no delete
 * horizon is copied byte for byte (an uncompressed one is never decoded beyond its record framing);
 * any other kept batch is rebuilt as magic 2 by {@link BatchBuilder}; a batch that must stay with no
 * records becomes a 61-byte empty header.
 *
 * <p>Records are flyweights over the mapped segment or the reused decompression buffer; a rebuilt
 * batch's records are remembered as positions in that buffer, never as objects.
 */
final class SegmentCleaner {
    private static final int EMPTY_BATCH_SIZE = BatchView.RECORDS_OFFSET;
    private static final int TIMESTAMP_TYPE_MASK = 0x08;
    private static final int TRANSACTIONAL_MASK = 0x10;
    private static final int CONTROL_MASK = 0x20;

    private final CompactSettings settings;
    private final KeyOffsetMap map;
    private final ReaderOptions options;
    private final long highWatermark;
    private final long now;
    private final long[] producerIds;
    private final long[] producerLastData;
    private final short[] producerEpochs;
    private final BatchBuilder builder = new BatchBuilder();
    private final RecordHeaders headers = new RecordHeaders();
    private final CRC32C crc = new CRC32C();
    private int readCapacity;
    private ByteBuffer out = ByteBuffer.allocate(64 * 1024);

    // the records kept from the current batch, as positions in its buffer
    private int kept;
    private long[] keptOffset = new long[64];
    private long[] keptTimestamp = new long[64];
    private int[] keptKey = new int[128];
    private int[] keptValue = new int[128];
    private int[] keptHeaderStart = new int[65];
    private int[] headerSlices = new int[256];
    private int headerInts;
    private int[] headerAt = new int[256];
    private final Scratch scratch = new Scratch();
    private final LatestOffsets latest;

    SegmentCleaner(CompactSettings settings, KeyOffsetMap map, ReaderOptions options, long highWatermark,
                   Map<Long, CompactSettings.LastRecord> producers) {
        this.settings = settings;
        this.map = map;
        this.options = options;
        this.highWatermark = highWatermark;
        this.now = settings.now();
        this.readCapacity = settings.readBufferBytes();
        this.latest = new LatestOffsets(settings.mapMemory() / 4);
        producerIds = producers.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
        producerLastData = new long[producerIds.length];
        producerEpochs = new short[producerIds.length];
        for (int i = 0; i < producerIds.length; i++) {
            CompactSettings.LastRecord r = producers.get(producerIds[i]);
            producerLastData[i] = r.lastDataOffset();
            producerEpochs[i] = r.producerEpoch();
        }
    }

    // ---------------------------------------------------------------- the map

    /** A new round: the map is empty, its dirty range starts at {@code firstDirty}. */
    void startRound(long firstDirty) {
        latest.reset(firstDirty);
    }

    /**
     * Puts the keys of {@code seg} at offsets from {@code start} into the map, reading from the offset
     * index position of {@code start}. Returns true when the map filled (the round ends at the map's
     * latest offset); otherwise the map's latest offset becomes {@code nextSegmentStart - 1}.
     */
    boolean mapSegment(SourceSegment seg, long start, long nextSegmentStart, TxnTracker txn, Counters c) {
        int maxDesired = (int) (map.slots() * settings.loadFactor());
        long position = seg.lookup(start);
        long chunkStart = position;
        try (BatchReader reader = new BatchReader(seg.source(), options, position)) {
            while (reader.next()) {
                Batch b = reader.batch();
                long p = b.position();
                int size = b.sizeInBytes();
                if (p + size - chunkStart > readCapacity) {
                    // Kafka reads a buffer's worth of whole batches at a time and counts the bytes per read
                    c.mapBytesRead += p - chunkStart;
                    chunkStart = p;
                    while (size > readCapacity) {
                        readCapacity = grow(readCapacity, size);
                    }
                }
                if (b.isControl()) {
                    txn.onControlBatchRead(b);
                    c.mapMessagesRead++;
                } else if (txn.onBatchRead(b)) {
                    c.mapMessagesRead += Math.max(0, b.countOrMinusOne());
                } else {
                    RecordIterator it = b.records();
                    while (it.next()) {
                        LogRecord r = it.record();
                        if (r.hasKey() && r.offset() >= start) {
                            if (map.size() >= maxDesired) {
                                return true;   // buffers are not restored, as in Kafka
                            }
                            long offset = r.offset();
                            latest.onPut(offset, map.put(r.buffer(), r.keyOffset(), r.keyLength(), offset));
                        }
                        c.mapMessagesRead++;
                    }
                }
                if (b.lastOffset() >= start) {
                    map.updateLatestOffset(b.lastOffset());
                }
            }
        } finally {
            seg.release();
        }
        c.mapBytesRead += seg.size - chunkStart;
        map.updateLatestOffset(nextSegmentStart - 1);
        readCapacity = settings.readBufferBytes();
        return false;
    }

    /** Kafka's {@code growBuffersOrFail}: double up to the largest message size, then to the batch's own size. */
    private int grow(int capacity, int batchSize) {
        int maxMessage = settings.maxMessageBytes();
        int maxSize = capacity >= maxMessage ? batchSize : maxMessage;
        int maxBuffer = Math.max(maxSize, maxMessage);
        if (capacity >= maxBuffer) {
            throw new IllegalStateException("This log contains a message larger than maximum allowable size of "
                    + maxBuffer + ".");
        }
        return (int) Math.min(capacity * 2L, maxBuffer);
    }

    // ---------------------------------------------------------------- the rewrite

    /** Cleans every batch of {@code seg} into {@code dest}. */
    void cleanInto(SourceSegment seg, CleanedOutput dest, TxnTracker txn, boolean retainLegacyDeletes, Counters c)
            throws IOException {
        out.clear();
        try (BatchReader reader = new BatchReader(seg.source(), options)) {
            while (reader.next()) {
                cleanBatch(seg, reader.batch(), txn, retainLegacyDeletes, c);
                if (out.position() >= readCapacity) {
                    flush(dest);
                }
            }
        } finally {
            seg.release();   // what was kept is in the write buffer (copied) already
        }
        flush(dest);
    }

    private void flush(CleanedOutput dest) throws IOException {
        if (out.position() > 0) {
            out.flip();
            dest.append(out);
            out.clear();
        }
    }

    private void cleanBatch(SourceSegment seg, Batch b, TxnTracker txn, boolean retainLegacyDeletes, Counters c) {
        boolean control = b.isControl();
        boolean canDiscard = control ? txn.onControlBatchRead(b) : txn.onBatchRead(b);
        boolean discardRecords = control
                ? canDiscard && b.hasDeleteHorizon() && b.deleteHorizonMs() <= now
                : canDiscard;
        boolean retainEmpty = (b.producerId() >= 0 && isLastBatchOfProducer(b)) || b.nextOffset() == highWatermark;
        boolean markerForEmptyTxn = canDiscard && control;
        c.bytesRead += b.sizeInBytes();
        if (!retainEmpty && discardRecords) {
            c.batchesDropped++;
            return;   // DELETE: not even read
        }

        // filterBatch: which records stay
        kept = 0;
        headerInts = 0;
        boolean allKept = b.magic() >= 2;
        boolean tombstones = false;
        ByteBuffer buf = null;
        boolean legacy = b.magic() < 2;
        int count = b.countOrMinusOne();
        if (!control && !discardRecords && !legacy && count > 0 && latest.allReplaced(b.baseOffset(), b.lastOffset(), count)) {
            // every record was put by the map build and replaced by a later one of its key: all go,
            // as the map would answer, without reading (or decompressing) the records again
            c.messagesRead += count;
            allKept = false;
        } else {
            RecordIterator it = b.records();
            while (it.next()) {
                LogRecord r = it.record();
                c.messagesRead++;
                boolean keep;
                if (discardRecords) {
                    keep = false;
                } else if (control) {
                    keep = true;
                } else if (r.offset() > map.latestOffset()) {
                    keep = true;
                } else if (r.hasKey()) {
                    long offset = r.offset();
                    int known = latest.latest(offset);
                    boolean isLatest = known >= 0 ? known == 1 : offset >= map.get(r.buffer(), r.keyOffset(), r.keyLength());
                    boolean retainDeletes = legacy ? retainLegacyDeletes : !b.hasDeleteHorizon() || now < b.deleteHorizonMs();
                    keep = isLatest && (r.hasValue() || retainDeletes);
                } else {
                    c.invalidMessages++;
                    keep = false;
                }
                if (keep) {
                    buf = r.buffer();
                    remember(r);
                    if (!r.hasValue()) {
                        tombstones = true;
                    }
                } else {
                    allKept = false;
                }
            }
        }

        if (kept > 0) {
            boolean needHorizon = (tombstones || markerForEmptyTxn) && !b.hasDeleteHorizon();
            if (allKept && !needHorizon) {
                int size = b.sizeInBytes();
                ByteSource source = seg.source();
                int at = source.ensure(b.position(), size);
                room(size);
                out.put(source.buffer().duplicate().limit(at + size).position(at));
                c.batchesCopied++;
                c.bytesWritten += size;
            } else {
                long horizon = needHorizon ? now + settings.deleteRetentionMs() : b.deleteHorizonMs();
                ByteBuffer built = rebuild(b, buf, horizon);
                room(built.remaining());
                c.bytesWritten += built.remaining();
                out.put(built);
                c.batchesRebuilt++;
            }
            c.messagesWritten += kept;
        } else if (retainEmpty) {
            if (legacy) {
                throw new IllegalStateException("Empty batches are only supported for magic v2 and above");
            }
            room(EMPTY_BATCH_SIZE);
            writeEmptyHeader(b);
            c.bytesWritten += EMPTY_BATCH_SIZE;
            c.emptyBatchesWritten++;
        } else {
            c.batchesDropped++;
        }
    }

    private boolean isLastBatchOfProducer(Batch b) {
        int i = Arrays.binarySearch(producerIds, b.producerId());
        if (i < 0) {
            return false;
        }
        long lastData = producerLastData[i];
        return lastData >= 0 ? b.lastOffset() == lastData : b.isControl() && b.producerEpoch() == producerEpochs[i];
    }

    private void remember(LogRecord r) {
        if (kept == keptOffset.length) {
            int n = kept * 2;
            keptOffset = Arrays.copyOf(keptOffset, n);
            keptTimestamp = Arrays.copyOf(keptTimestamp, n);
            keptKey = Arrays.copyOf(keptKey, 2 * n);
            keptValue = Arrays.copyOf(keptValue, 2 * n);
            keptHeaderStart = Arrays.copyOf(keptHeaderStart, n + 1);
        }
        keptOffset[kept] = r.offset();
        keptTimestamp[kept] = r.timestamp();
        keptKey[2 * kept] = r.keyOffset();
        keptKey[2 * kept + 1] = r.keyLength();
        keptValue[2 * kept] = r.valueOffset();
        keptValue[2 * kept + 1] = r.valueLength();
        keptHeaderStart[kept] = headerInts;
        if (r.headerCount() > 0) {
            HeaderIterator h = r.headers();
            while (h.next()) {
                if (headerInts + 4 > headerSlices.length) {
                    headerSlices = Arrays.copyOf(headerSlices, headerSlices.length * 2);
                }
                headerSlices[headerInts++] = h.keyOffset();
                headerSlices[headerInts++] = h.keyLength();
                headerSlices[headerInts++] = h.valueOffset();
                headerSlices[headerInts++] = h.valueLength();
            }
        }
        kept++;
        keptHeaderStart[kept] = headerInts;
    }

    /** {@code MemoryRecords.buildRetainedRecordsInto}: the kept records as one magic-2 batch. */
    private ByteBuffer rebuild(Batch b, ByteBuffer buf, long deleteHorizonMs) {
        boolean legacy = b.magic() < 2;
        long baseOffset = legacy ? keptOffset[0] : b.baseOffset();
        builder.begin(baseOffset, b.compression());
        TimestampType type = b.timestampType() == TimestampType.NO_TIMESTAMP_TYPE ? TimestampType.CREATE_TIME : b.timestampType();
        if (type == TimestampType.LOG_APPEND_TIME) {
            builder.timestampType(type, b.maxTimestamp());
        }
        builder.partitionLeaderEpoch(b.partitionLeaderEpoch())
                .producer(b.producerId(), b.producerEpoch(), b.baseSequence())
                .transactional(b.isTransactional())
                .control(b.isControl());
        if (deleteHorizonMs >= 0) {
            builder.deleteHorizon(deleteHorizonMs);
        }
        for (int i = 0; i < kept; i++) {
            int used = 0;
            int keyLen = keptKey[2 * i + 1];
            int keyAt = used;
            used = scratch.copy(buf, keptKey[2 * i], keyLen, used);
            int valueLen = keptValue[2 * i + 1];
            int valueAt = used;
            used = scratch.copy(buf, keptValue[2 * i], valueLen, used);
            headers.clear();
            int hStart = keptHeaderStart[i];
            int hEnd = keptHeaderStart[i + 1];
            if (hEnd > hStart) {
                if (headerAt.length < hEnd - hStart) {
                    headerAt = new int[Math.max(headerAt.length * 2, hEnd - hStart)];
                }
                int[] hAt = headerAt;
                for (int h = hStart; h < hEnd; h += 4) {
                    hAt[h - hStart] = used;
                    used = scratch.copy(buf, headerSlices[h], headerSlices[h + 1], used);
                    hAt[h - hStart + 2] = used;
                    used = scratch.copy(buf, headerSlices[h + 2], headerSlices[h + 3], used);
                }
                for (int h = hStart; h < hEnd; h += 4) {
                    headers.add(scratch.bytes(), hAt[h - hStart], headerSlices[h + 1], scratch.bytes(), hAt[h - hStart + 2], headerSlices[h + 3]);
                }
            }
            builder.append(keptOffset[i], keptTimestamp[i], scratch.bytes(), keyAt, keyLen, scratch.bytes(), valueAt, valueLen,
                    hEnd > hStart ? headers : RecordHeaders.NONE);
        }
        if (!legacy) {
            builder.overrideLastOffset(b.lastOffset());
        }
        return builder.finish();
    }

    /** {@code DefaultRecordBatch.writeEmptyHeader}: a 61-byte magic-2 header, no records, no delete horizon. */
    private void writeEmptyHeader(Batch b) {
        int start = out.position();
        int attributes = (b.timestampType() == TimestampType.LOG_APPEND_TIME ? TIMESTAMP_TYPE_MASK : 0)
                | (b.isTransactional() ? TRANSACTIONAL_MASK : 0)
                | (b.isControl() ? CONTROL_MASK : 0);
        out.putLong(b.baseOffset())
                .putInt(EMPTY_BATCH_SIZE - BatchView.LOG_OVERHEAD)
                .putInt(b.partitionLeaderEpoch())
                .put((byte) 2)
                .putInt(0)
                .putShort((short) attributes)
                .putInt((int) (b.lastOffset() - b.baseOffset()))
                .putLong(-1L)
                .putLong(b.maxTimestamp())
                .putLong(b.producerId())
                .putShort(b.producerEpoch())
                .putInt(b.baseSequence())
                .putInt(0);
        crc.reset();
        crc.update(out.duplicate().limit(start + EMPTY_BATCH_SIZE).position(start + BatchView.ATTRIBUTES_OFFSET));
        out.putInt(start + BatchView.CRC_OFFSET, (int) crc.getValue());
    }

    private void room(int more) {
        if (out.remaining() < more) {
            ByteBuffer bigger = ByteBuffer.allocate(Math.max(out.capacity() * 2, out.position() + more));
            out.flip();
            bigger.put(out);
            out = bigger;
        }
    }
}
