package io.segscope.format.compact;

/** One {@code .txnindex} entry: an aborted transaction (docs/format.md 1.8). */
record AbortedTxn(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
}
