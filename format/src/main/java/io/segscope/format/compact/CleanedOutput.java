package io.segscope.format.compact;

import io.segscope.format.write.SegmentWriter;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where a cleaned segment goes: a {@link SegmentWriter}, or nowhere (a dry run's last round). */
interface CleanedOutput {
    void append(ByteBuffer batches) throws IOException;

    void appendAbortedTxn(long producerId, long firstOffset, long lastOffset, long lastStableOffset);

    static CleanedOutput of(SegmentWriter writer) {
        return new CleanedOutput() {
            @Override
            public void append(ByteBuffer batches) throws IOException {
                writer.append(batches);
            }

            @Override
            public void appendAbortedTxn(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
                writer.appendAbortedTxn(producerId, firstOffset, lastOffset, lastStableOffset);
            }
        };
    }

    /** Counts nothing, keeps nothing: the figures are in the round's counters already. */
    CleanedOutput DISCARD = new CleanedOutput() {
        @Override
        public void append(ByteBuffer batches) {
        }

        @Override
        public void appendAbortedTxn(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
        }
    };
}
