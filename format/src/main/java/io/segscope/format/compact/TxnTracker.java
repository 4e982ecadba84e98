package io.segscope.format.compact;

import io.segscope.format.record.Batch;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.RecordIterator;

import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Which transactional batches and markers the cleaner may drop, batch by batch in log order, as Kafka
 * 4.4.0's {@code CleanedTransactionMetadata} decides (docs/format.md 4.3). Aborted transactions come
 * from the {@code .txnindex} files, ordered by first offset; one becomes "ongoing" for its producer
 * once a batch reaching its first offset is read, and its ABORT marker ends it. A data batch of an
 * ongoing aborted transaction is discardable; an ABORT marker is kept (and its transaction written to
 * the cleaned {@code .txnindex}) only if a batch of that transaction was read in this pass; a COMMIT
 * marker is discardable when no transactional batch of its producer was read since the last one.
 * Other markers are kept; an emptied marker is discardable.
 *
 * <p>Allocates per transaction, not per record (transactions are few next to records).
 */
final class TxnTracker {
    private static final class Ongoing {
        final AbortedTxn txn;
        boolean observed;

        Ongoing(AbortedTxn txn) {
            this.txn = txn;
        }
    }

    private final PriorityQueue<AbortedTxn> aborted = new PriorityQueue<>(Comparator.comparingLong(AbortedTxn::firstOffset));
    private final Map<Long, Ongoing> ongoingAborted = new HashMap<>();
    private final Set<Long> ongoingCommitted = new HashSet<>();
    private CleanedOutput cleanedIndex;

    void cleanedIndex(CleanedOutput writer) {
        cleanedIndex = writer;
    }

    void addAborted(List<AbortedTxn> txns) {
        aborted.addAll(txns);
    }

    /** True when the control batch may be discarded. */
    boolean onControlBatchRead(Batch batch) {
        consumeAbortedUpTo(batch.lastOffset());
        RecordIterator it = batch.records();
        if (!it.next()) {
            return true;
        }
        short type = ControlRecord.typeId(batch, it.record());
        long producerId = batch.producerId();
        if (type == ControlRecord.Type.ABORT.id) {
            Ongoing o = ongoingAborted.remove(producerId);
            if (o != null && o.observed) {
                if (cleanedIndex != null) {
                    cleanedIndex.appendAbortedTxn(o.txn.producerId(), o.txn.firstOffset(), o.txn.lastOffset(),
                            o.txn.lastStableOffset());
                }
                return false;
            }
            return true;
        }
        if (type == ControlRecord.Type.COMMIT.id) {
            return !ongoingCommitted.remove(producerId);
        }
        return false;
    }

    /** True when the data batch belongs to an aborted transaction. */
    boolean onBatchRead(Batch batch) {
        consumeAbortedUpTo(batch.lastOffset());
        if (!batch.isTransactional()) {
            return false;
        }
        Ongoing o = ongoingAborted.get(batch.producerId());
        if (o != null) {
            o.observed = true;
            return true;
        }
        ongoingCommitted.add(batch.producerId());
        return false;
    }

    private void consumeAbortedUpTo(long offset) {
        while (!aborted.isEmpty() && aborted.peek().firstOffset() <= offset) {
            AbortedTxn t = aborted.poll();
            ongoingAborted.computeIfAbsent(t.producerId(), id -> new Ongoing(t));
        }
    }
}
