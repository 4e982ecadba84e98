package io.segscope.format.state;

import io.segscope.format.record.Batch;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.RecordIterator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The producer state Kafka 4.4.0's log recovery builds from a partition's batches
 * ({@code LogSegment.updateProducerState} with {@code AppendOrigin.REPLICATION}, docs/format.md
 * 1.9): per producer id its epoch, the last data batch (last sequence, last offset, offset delta),
 * the last timestamp, the coordinator epoch of the last marker and the first offset of its open
 * transaction; and the aborted transactions with the last stable offset that recovery writes to the
 * {@code .txnindex}. Only the last batch of a producer is kept: it is all a snapshot holds. Starts
 * empty (recovery with no snapshot) or from a producer snapshot's entries ({@link #load}), as Kafka's
 * {@code ProducerStateManager} loads the latest snapshot and replays the batches after it.
 */
public final class ProducerState {
    /** What Kafka would throw on while replaying a batch: the batch cannot be kept. */
    public static final class Refused extends Exception {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** An aborted transaction as a {@code .txnindex} entry holds it. */
    public record Aborted(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
    }

    private static final class Entry {
        final long producerId;
        short epoch = -1;
        int coordinatorEpoch = -1;
        long lastTimestamp = -1L;
        long txnFirstOffset = -1L;
        boolean hasBatch;
        int lastSeq = -1;
        long lastOffset = -1L;
        int offsetDelta;

        Entry(long producerId) {
            this.producerId = producerId;
        }

        void epoch(short e) {
            if (epoch != e) {
                hasBatch = false;
                lastSeq = -1;
                lastOffset = -1L;
                offsetDelta = 0;
                epoch = e;
            }
        }
    }

    private final Map<Long, Entry> producers = new TreeMap<>();

    /** Takes a producer snapshot's entry as it is (Kafka's {@code loadFromSnapshot}). */
    public void load(ProducerSnapshotEntry s) {
        Entry e = producers.computeIfAbsent(s.producerId(), Entry::new);
        e.epoch = s.epoch();
        e.coordinatorEpoch = s.coordinatorEpoch();
        e.lastTimestamp = s.timestamp();
        e.txnFirstOffset = s.currentTxnFirstOffset();
        e.hasBatch = s.lastOffset() >= 0;
        e.lastSeq = s.lastSequence();
        e.lastOffset = s.lastOffset();
        e.offsetDelta = s.offsetDelta();
    }

    /** Checks that a data batch can be replayed (a non-transactional batch inside an open transaction cannot). */
    public void checkData(long producerId, boolean transactional) throws Refused {
        Entry e = producers.get(producerId);
        if (e != null && e.txnFirstOffset >= 0 && !transactional) {
            throw new Refused("a non-transactional batch of producer " + producerId + " inside its open transaction"
                    + " (from offset " + e.txnFirstOffset + "): Kafka's recovery fails on it (InvalidTxnStateException)");
        }
    }

    /** A data batch of a producer (magic 2, producer id >= 0); {@link #checkData} first. */
    public void data(long producerId, short epoch, int lastSeq, long baseOffset, long lastOffset, long maxTimestamp,
              boolean transactional) {
        Entry e = producers.computeIfAbsent(producerId, Entry::new);
        e.epoch(epoch);
        e.hasBatch = true;
        e.lastSeq = lastSeq;
        e.lastOffset = lastOffset;
        e.offsetDelta = (int) (lastOffset - baseOffset);
        e.lastTimestamp = maxTimestamp;
        if (transactional && e.txnFirstOffset < 0) {
            e.txnFirstOffset = baseOffset;
        }
    }

    /**
     * Replays one batch as {@code LogSegment.updateProducerState} does (magic 2 with a producer id;
     * others are ignored): a data batch or a COMMIT/ABORT marker. Call {@link #checkData} first
     * where a refusal matters.
     *
     * @return the aborted transaction a marker completes, or null
     */
    public Aborted apply(Batch b) {
        if (b.magic() < 2 || b.producerId() < 0) {
            return null;
        }
        if (!b.isControl()) {
            data(b.producerId(), b.producerEpoch(), b.lastSequence(), b.baseOffset(), b.lastOffset(),
                    b.maxTimestamp(), b.isTransactional());
            return null;
        }
        RecordIterator it = b.records();
        if (!it.next()) {
            emptyControl(b.producerId());
            return null;
        }
        LogRecord r = it.record();
        short type = ControlRecord.typeId(b, r);
        if (type != ControlRecord.Type.ABORT.id && type != ControlRecord.Type.COMMIT.id) {
            return null;
        }
        int coordinatorEpoch = ControlRecord.endTxnMarker(r.buffer(), r.valueOffset(), r.valueLength())
                instanceof ControlRecord.EndTxnMarker m ? m.coordinatorEpoch() : -1;
        return marker(b.producerId(), b.producerEpoch(), b.baseOffset(), r.timestamp(), coordinatorEpoch,
                type == ControlRecord.Type.ABORT.id);
    }

    /** A control batch with no record (its marker cleaned away): Kafka still registers the producer. */
    public void emptyControl(long producerId) {
        producers.computeIfAbsent(producerId, Entry::new);
    }

    /**
     * A COMMIT or ABORT marker at {@code offset}.
     *
     * @return the aborted transaction it completes, or null
     */
    public Aborted marker(long producerId, short epoch, long offset, long timestamp, int coordinatorEpoch, boolean abort) {
        Entry e = producers.computeIfAbsent(producerId, Entry::new);
        Aborted out = null;
        if (e.txnFirstOffset >= 0 && abort) {
            long lso = offset + 1;
            for (Entry o : producers.values()) {
                if (o != e && o.txnFirstOffset >= 0) {
                    lso = Math.min(lso, o.txnFirstOffset);
                }
            }
            out = new Aborted(producerId, e.txnFirstOffset, offset, lso);
        }
        e.epoch(epoch);
        e.coordinatorEpoch = coordinatorEpoch;
        e.txnFirstOffset = -1L;
        e.lastTimestamp = timestamp;
        return out;
    }

    public int size() {
        return producers.size();
    }

    /** The snapshot's entries, by producer id. */
    public List<ProducerSnapshotEntry> entries() {
        List<ProducerSnapshotEntry> out = new ArrayList<>(producers.size());
        for (Entry e : producers.values()) {
            out.add(new ProducerSnapshotEntry(e.producerId, e.epoch, e.hasBatch ? e.lastSeq : -1,
                    e.hasBatch ? e.lastOffset : -1L, e.hasBatch ? e.offsetDelta : 0, e.lastTimestamp,
                    e.coordinatorEpoch, e.txnFirstOffset));
        }
        return out;
    }

    /** The first offset of the earliest transaction still open, or -1. */
    public long firstOpenTransactionOffset() {
        long first = -1;
        for (Entry e : producers.values()) {
            if (e.txnFirstOffset >= 0 && (first < 0 || e.txnFirstOffset < first)) {
                first = e.txnFirstOffset;
            }
        }
        return first;
    }
}
