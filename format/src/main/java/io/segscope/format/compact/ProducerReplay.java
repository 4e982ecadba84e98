package io.segscope.format.compact;

import io.segscope.format.record.Batch;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.RecordIterator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The partition's producer state as Kafka 4.4.0's recovery rebuilds it from the log (no snapshot,
 * every batch replayed; docs/format.md 4.3): per producer its epoch, the last offset of its last data
 * batch (forgotten when a marker or batch brings a new epoch), its last timestamp and the first
 * offset of its open transaction. From it: the active producers the cleaner keeps the last batch of
 * (those idle less than {@code producer.id.expiration.ms}, or inside a transaction) and the last
 * stable offset (the first offset of an open transaction, at most the high watermark).
 */
final class ProducerReplay implements SourceSegment.BatchVisitor {
    private static final class Entry {
        short epoch;
        long lastDataOffset = -1L;
        long lastTimestamp = -1L;
        long txnFirstOffset = -1L;
    }

    private final Map<Long, Entry> producers = new HashMap<>();
    /** The aborted transactions completed since {@link #takeAborted()}, as recovery writes them to a {@code .txnindex}. */
    private final List<AbortedTxn> aborted = new ArrayList<>();

    @Override
    public void batch(Batch b) {
        if (b.magic() < 2 || b.producerId() < 0) {
            return;
        }
        Entry e = producers.get(b.producerId());
        if (b.isControl()) {
            RecordIterator it = b.records();
            if (!it.next()) {
                return;   // an emptied marker: Kafka's replay skips it
            }
            short type = ControlRecord.typeId(b, it.record());
            if (type != ControlRecord.Type.ABORT.id && type != ControlRecord.Type.COMMIT.id) {
                return;
            }
            e = entry(e, b);
            if (type == ControlRecord.Type.ABORT.id && e.txnFirstOffset >= 0) {
                // LogSegment.updateProducerState: the transaction from its first offset to the marker
                // (4.4.0's appendEndTxnMarker completes none when none is open: a marker whose data the
                // cleaner removed gives no entry); its last stable offset is the first offset of the
                // earliest transaction another producer still has open, else the offset after the marker
                long first = e.txnFirstOffset;
                long lso = b.lastOffset() + 1;
                for (Map.Entry<Long, Entry> o : producers.entrySet()) {
                    if (o.getKey() != b.producerId() && o.getValue().txnFirstOffset >= 0) {
                        lso = Math.min(lso, o.getValue().txnFirstOffset);
                    }
                }
                aborted.add(new AbortedTxn(b.producerId(), first, b.lastOffset(), lso));
            }
            e.txnFirstOffset = -1L;
            e.lastTimestamp = b.maxTimestamp();
            return;
        }
        e = entry(e, b);
        e.lastDataOffset = b.lastOffset();
        e.lastTimestamp = b.maxTimestamp();
        if (b.isTransactional() && e.txnFirstOffset < 0) {
            e.txnFirstOffset = b.baseOffset();
        }
    }

    /** The batch's producer entry ({@code e} or a new one), at the batch's epoch (a new epoch forgets the last data offset). */
    private Entry entry(Entry e, Batch b) {
        if (e == null) {
            e = new Entry();
            e.epoch = b.producerEpoch();
            producers.put(b.producerId(), e);
        }
        if (e.epoch != b.producerEpoch()) {
            e.epoch = b.producerEpoch();
            e.lastDataOffset = -1L;
        }
        return e;
    }

    /** The aborted transactions completed since the last call, in log order. */
    List<AbortedTxn> takeAborted() {
        List<AbortedTxn> out = List.copyOf(aborted);
        aborted.clear();
        return out;
    }

    /** The producers Kafka still holds at {@code now}: in a transaction, or active within the expiration time. */
    Map<Long, CompactSettings.LastRecord> active(long now, long expirationMs) {
        Map<Long, CompactSettings.LastRecord> out = new HashMap<>();
        producers.forEach((pid, e) -> {
            boolean expired = e.txnFirstOffset < 0 && now - e.lastTimestamp >= expirationMs;
            if (!expired) {
                out.put(pid, new CompactSettings.LastRecord(e.lastDataOffset, e.epoch));
            }
        });
        return out;
    }

    /** The first offset of the producer's open transaction, or -1 when it has none. */
    long openTransactionFirstOffset(long producerId) {
        Entry e = producers.get(producerId);
        return e == null ? -1L : e.txnFirstOffset;
    }

    /**
     * Kafka's last stable offset for a high watermark, as a log just loaded has it: the first offset
     * of the earliest open transaction, at most the high watermark. (A live broker also holds it back
     * for transactions whose marker is not yet below the high watermark; a loaded log has forgotten
     * those, and so does this.)
     */
    long lastStableOffset(long highWatermark) {
        long lso = highWatermark;
        for (Entry e : producers.values()) {
            if (e.txnFirstOffset >= 0 && e.txnFirstOffset < lso) {
                lso = e.txnFirstOffset;
            }
        }
        return lso;
    }
}
