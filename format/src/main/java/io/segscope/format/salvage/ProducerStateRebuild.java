package io.segscope.format.salvage;

import io.segscope.format.state.ProducerSnapshotEntry;

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
 * {@code .txnindex}. Only the last batch of a producer is kept: it is all a snapshot holds.
 */
final class ProducerStateRebuild {
    /** What Kafka would throw on while replaying a batch: the batch cannot be kept. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** An aborted transaction as a {@code .txnindex} entry holds it. */
    record Aborted(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
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

    /** Checks that a data batch can be replayed (a non-transactional batch inside an open transaction cannot). */
    void checkData(long producerId, boolean transactional) throws Refused {
        Entry e = producers.get(producerId);
        if (e != null && e.txnFirstOffset >= 0 && !transactional) {
            throw new Refused("a non-transactional batch of producer " + producerId + " inside its open transaction"
                    + " (from offset " + e.txnFirstOffset + "): Kafka's recovery fails on it (InvalidTxnStateException)");
        }
    }

    /** A data batch of a producer (magic 2, producer id >= 0); {@link #checkData} first. */
    void data(long producerId, short epoch, int lastSeq, long baseOffset, long lastOffset, long maxTimestamp,
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

    /** A control batch with no record (its marker cleaned away): Kafka still registers the producer. */
    void emptyControl(long producerId) {
        producers.computeIfAbsent(producerId, Entry::new);
    }

    /**
     * A COMMIT or ABORT marker at {@code offset}.
     *
     * @return the aborted transaction it completes, or null
     */
    Aborted marker(long producerId, short epoch, long offset, long timestamp, int coordinatorEpoch, boolean abort) {
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

    int size() {
        return producers.size();
    }

    /** The snapshot's entries, by producer id. */
    List<ProducerSnapshotEntry> entries() {
        List<ProducerSnapshotEntry> out = new ArrayList<>(producers.size());
        for (Entry e : producers.values()) {
            out.add(new ProducerSnapshotEntry(e.producerId, e.epoch, e.hasBatch ? e.lastSeq : -1,
                    e.hasBatch ? e.lastOffset : -1L, e.hasBatch ? e.offsetDelta : 0, e.lastTimestamp,
                    e.coordinatorEpoch, e.txnFirstOffset));
        }
        return out;
    }

    /** The first offset of the earliest transaction still open, or -1. */
    long firstOpenTransactionOffset() {
        long first = -1;
        for (Entry e : producers.values()) {
            if (e.txnFirstOffset >= 0 && (first < 0 || e.txnFirstOffset < first)) {
                first = e.txnFirstOffset;
            }
        }
        return first;
    }
}
