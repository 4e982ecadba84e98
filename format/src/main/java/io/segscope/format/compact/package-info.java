/**
 * The compaction engine: Kafka 4.4.0's log cleaner, offline and byte for byte (docs/format.md §4).
 * {@link io.segscope.format.compact.Compactor} runs the passes over a partition directory with
 * {@link io.segscope.format.compact.CompactSettings} and reports
 * {@link io.segscope.format.compact.CompactStats}; the key map ({@code KeyOffsetMap}) is Kafka's
 * SkimpyOffsetMap, a flat array of MD5 hashes and offsets with no object per key, grown to Kafka's
 * size only as keys arrive. The map build also remembers, two bits per offset
 * ({@code LatestOffsets}), which records it saw replaced, so that the rewrite neither hashes those
 * keys again nor reads (decompresses) a batch whose records all went.
 */
package io.segscope.format.compact;
