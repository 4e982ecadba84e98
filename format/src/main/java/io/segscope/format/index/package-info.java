/**
 * Readers for a segment's index files (docs/format.md 1.8): {@link io.segscope.format.index.OffsetIndexReader}
 * ({@code .index}), {@link io.segscope.format.index.TimeIndexReader} ({@code .timeindex}) and
 * {@link io.segscope.format.index.TxnIndexReader} ({@code .txnindex}). Flyweights over a
 * {@link io.segscope.format.io.ByteSource}: absolute reads, no allocation per entry, Kafka's own
 * lookups, preallocated zero tails detected, sanity checks returned as findings.
 */
package io.segscope.format.index;
