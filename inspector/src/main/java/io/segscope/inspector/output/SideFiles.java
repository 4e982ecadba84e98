package io.segscope.inspector.output;

import io.segscope.format.index.OffsetIndexReader;
import io.segscope.format.index.TimeIndexReader;
import io.segscope.format.index.TxnIndexReader;
import io.segscope.format.io.ByteSource;
import io.segscope.format.state.ProducerSnapshotReader;
import io.segscope.inspector.input.RandomAccess;
import io.segscope.format.logdir.LogFile;

/**
 * Walks the entries of a side file (offset, time and transaction index, producer snapshot) for
 * the dump writers, each of which prints them its own way. Index files stop at their real end:
 * the zero tail of a preallocated index is not entries (docs/format.md 1.8).
 */
final class SideFiles {
    /** What a side file holds, entry by entry. */
    interface Visitor {
        void indexEntry(long offset, int position);

        /** An offset index with no entries. */
        void emptyIndex();

        void timeIndexEntry(long timestamp, long offset);

        void txnIndexEntry(long producerId, long firstOffset, long lastOffset, long lastStableOffset);

        /** Entry {@code i} of a producer snapshot whose CRC was checked. */
        void snapshotEntry(ProducerSnapshotReader snapshot, int i);
    }

    private SideFiles() {
    }

    /** Visits every entry; false when the file's kind is not a side file's. Throws FormatException on damage. */
    static boolean visit(LogFile target, Visitor v) {
        if (!target.kind().isSegmentFile() || target.kind().holdsRecords()) {
            return false;
        }
        try (ByteSource source = RandomAccess.open(target.file())) {
            switch (target.kind()) {
                case INDEX -> {
                    OffsetIndexReader index = new OffsetIndexReader().wrap(source, target.baseOffset());
                    if (index.entries() == 0) {
                        v.emptyIndex();
                    }
                    for (int i = 0; i < index.entries(); i++) {
                        v.indexEntry(index.offset(i), index.position(i));
                    }
                }
                case TIME_INDEX -> {
                    TimeIndexReader index = new TimeIndexReader().wrap(source, target.baseOffset());
                    for (int i = 0; i < index.entries(); i++) {
                        v.timeIndexEntry(index.timestamp(i), index.offset(i));
                    }
                }
                case TXN_INDEX -> {
                    TxnIndexReader index = new TxnIndexReader().wrap(source, target.baseOffset());
                    for (int i = 0; i < index.entries(); i++) {
                        v.txnIndexEntry(index.producerId(i), index.firstOffset(i), index.lastOffset(i), index.lastStableOffset(i));
                    }
                }
                case SNAPSHOT -> {
                    ProducerSnapshotReader snap = new ProducerSnapshotReader().wrap(source);
                    snap.verifyCrc();
                    for (int i = 0; i < snap.count(); i++) {
                        v.snapshotEntry(snap, i);
                    }
                }
                default -> {
                    return false;
                }
            }
        }
        return true;
    }
}
