package io.segscope.format.compact;

import java.util.Map;

/**
 * What the cleaner is told: the topic's and broker's cleaner settings, the clock, and where to stop
 * (docs/format.md 4.1). Defaults are Kafka 4.4.0's; {@link #defaults(long)} takes the fixed "now"
 * every time comparison uses (delete horizons, compaction lags, producer expiration).
 *
 * @param deleteRetentionMs       {@code delete.retention.ms}: how long tombstones and empty
 *                                transaction markers outlive their first cleaning
 * @param minCompactionLagMs      {@code min.compaction.lag.ms}: segments with a newer largest
 *                                timestamp are not cleaned
 * @param maxCompactionLagMs      {@code max.compaction.lag.ms}: only decides when a broker's
 *                                cleaner picks the partition; offline every dirty byte is cleaned,
 *                                so it changes nothing here (kept for the command's settings)
 * @param segmentBytes            {@code segment.bytes}: the most log bytes one cleaned segment groups
 * @param maxIndexBytes           {@code segment.index.bytes}: the most index bytes one cleaned
 *                                segment groups
 * @param indexIntervalBytes      {@code index.interval.bytes}
 * @param dedupeBufferBytes       {@code log.cleaner.dedupe.buffer.size} (all cleaner threads)
 * @param cleanerThreads          {@code log.cleaner.threads}: the map has the dedupe buffer's share
 *                                of one thread
 * @param ioBufferBytes           {@code log.cleaner.io.buffer.size} (all threads; read and write
 *                                buffers of {@code / threads / 2} each)
 * @param maxMessageBytes         the topic's {@code max.message.bytes} and broker's
 *                                {@code message.max.bytes}: how far the read buffer grows
 * @param loadFactor              {@code log.cleaner.io.buffer.load.factor}: the map is full at
 *                                {@code (int) (slots * loadFactor)} keys
 * @param highWatermark           the partition's high watermark, or -1 for the log end offset
 * @param now                     the cleaner's clock, epoch ms
 * @param cleanUpTo               clean below this offset: -1 for the active (last) segment's base
 *                                offset, as the broker does; {@link Long#MAX_VALUE} (or any offset
 *                                at or past the log end) to clean every segment, as after a roll
 * @param firstDirtyOffset        the cleaner checkpoint, or -1 for the log start offset
 * @param producerIdExpirationMs  {@code producer.id.expiration.ms}: producers idle this long are no
 *                                longer active (their last batch may go)
 * @param producers               the active producers (producer id to last record), or null to
 *                                compute them from the log as Kafka's recovery does
 * @param kafkaRounds             true: the map has exactly Kafka's capacity
 *                                ({@code min(dedupe / threads, Integer.MAX_VALUE)} bytes), so the
 *                                rounds are Kafka's; false: the whole dedupe buffer is one map,
 *                                fewer rounds, output no longer Kafka's when Kafka needs several
 */
public record CompactSettings(
        long deleteRetentionMs,
        long minCompactionLagMs,
        long maxCompactionLagMs,
        int segmentBytes,
        int maxIndexBytes,
        int indexIntervalBytes,
        long dedupeBufferBytes,
        int cleanerThreads,
        int ioBufferBytes,
        int maxMessageBytes,
        double loadFactor,
        long highWatermark,
        long now,
        long cleanUpTo,
        long firstDirtyOffset,
        long producerIdExpirationMs,
        Map<Long, LastRecord> producers,
        boolean kafkaRounds) {

    public static final long DEFAULT_DELETE_RETENTION_MS = 86_400_000L;
    public static final int DEFAULT_SEGMENT_BYTES = 1024 * 1024 * 1024;
    public static final int DEFAULT_MAX_INDEX_BYTES = 10 * 1024 * 1024;
    public static final int DEFAULT_INDEX_INTERVAL_BYTES = 4096;
    public static final long DEFAULT_DEDUPE_BUFFER_BYTES = 128L * 1024 * 1024;
    public static final int DEFAULT_IO_BUFFER_BYTES = 512 * 1024;
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024 + 12;
    public static final double DEFAULT_LOAD_FACTOR = 0.9;
    public static final long DEFAULT_PRODUCER_ID_EXPIRATION_MS = 86_400_000L;

    /**
     * The last record of an active producer as the cleaner sees it: the last offset of its last data
     * batch (-1 when its last entry is a marker of a new epoch), and its epoch.
     */
    public record LastRecord(long lastDataOffset, short producerEpoch) {
    }

    public CompactSettings {
        if (deleteRetentionMs < 0 || minCompactionLagMs < 0 || producerIdExpirationMs < 0) {
            throw new IllegalArgumentException("retention, lag and expiration times are >= 0");
        }
        if (segmentBytes < 14 || maxIndexBytes < 8 || indexIntervalBytes < 0) {
            throw new IllegalArgumentException("segment.bytes >= 14, segment.index.bytes >= 8, index.interval.bytes >= 0");
        }
        if (cleanerThreads < 1 || ioBufferBytes < 2 * cleanerThreads || maxMessageBytes < 0) {
            throw new IllegalArgumentException("threads >= 1, io buffer >= 2 bytes per thread, max message >= 0");
        }
        if (!(loadFactor > 0 && loadFactor <= 1)) {
            throw new IllegalArgumentException("load factor in (0, 1], not " + loadFactor);
        }
        if (mapMemory(dedupeBufferBytes, cleanerThreads, kafkaRounds) / KeyOffsetMap.ENTRY_SIZE * loadFactor <= 1) {
            throw new IllegalArgumentException("offset map is too small to fit in even a single message, so log cleaning "
                    + "will never make progress: increase the dedupe buffer (" + dedupeBufferBytes + " bytes)");
        }
        producers = producers == null ? null : Map.copyOf(producers);
    }

    /** Kafka 4.4.0's defaults with the clock at {@code now}. */
    public static CompactSettings defaults(long now) {
        return new CompactSettings(DEFAULT_DELETE_RETENTION_MS, 0L, Long.MAX_VALUE, DEFAULT_SEGMENT_BYTES,
                DEFAULT_MAX_INDEX_BYTES, DEFAULT_INDEX_INTERVAL_BYTES, DEFAULT_DEDUPE_BUFFER_BYTES, 1,
                DEFAULT_IO_BUFFER_BYTES, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_LOAD_FACTOR, -1L, now, -1L, -1L,
                DEFAULT_PRODUCER_ID_EXPIRATION_MS, null, true);
    }

    /** Bytes of the key map: a thread's share of the dedupe buffer (Kafka), or all of it. */
    public int mapMemory() {
        return mapMemory(dedupeBufferBytes, cleanerThreads, kafkaRounds);
    }

    private static int mapMemory(long dedupe, int threads, boolean kafka) {
        long m = kafka ? dedupe / threads : dedupe;
        return (int) Math.min(m, kafka ? Integer.MAX_VALUE : Integer.MAX_VALUE - 64);
    }

    /** The cleaner's read (and write) buffer at rest: {@code io.buffer.size / threads / 2}. */
    public int readBufferBytes() {
        return ioBufferBytes / cleanerThreads / 2;
    }

    public CompactSettings withDeleteRetentionMs(long v) {
        return new CompactSettings(v, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes,
                indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor,
                highWatermark, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withMinCompactionLagMs(long v) {
        return new CompactSettings(deleteRetentionMs, v, maxCompactionLagMs, segmentBytes, maxIndexBytes,
                indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor,
                highWatermark, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withSegmentBytes(int v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, v, maxIndexBytes,
                indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor,
                highWatermark, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withMaxIndexBytes(int v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, v,
                indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor,
                highWatermark, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withIndexIntervalBytes(int v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes,
                v, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor,
                highWatermark, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withDedupeBufferBytes(long v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes,
                indexIntervalBytes, v, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor,
                highWatermark, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withHighWatermark(long v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes,
                indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor,
                v, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withNow(long v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes,
                indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor,
                highWatermark, v, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withCleanUpTo(long v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes,
                indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor,
                highWatermark, now, v, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withFirstDirtyOffset(long v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes,
                indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor,
                highWatermark, now, cleanUpTo, v, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withProducerIdExpirationMs(long v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes,
                indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor,
                highWatermark, now, cleanUpTo, firstDirtyOffset, v, producers, kafkaRounds);
    }

    public CompactSettings withProducers(Map<Long, LastRecord> v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes,
                indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor,
                highWatermark, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, v, kafkaRounds);
    }

    public CompactSettings withKafkaRounds(boolean v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes,
                indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor,
                highWatermark, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, v);
    }
    public CompactSettings withMaxCompactionLagMs(long v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, v, segmentBytes, maxIndexBytes, indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, loadFactor, highWatermark, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withCleanerThreads(int v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes, indexIntervalBytes, dedupeBufferBytes, v, ioBufferBytes, maxMessageBytes, loadFactor, highWatermark, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withIoBufferBytes(int v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes, indexIntervalBytes, dedupeBufferBytes, cleanerThreads, v, maxMessageBytes, loadFactor, highWatermark, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withMaxMessageBytes(int v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes, indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, v, loadFactor, highWatermark, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }

    public CompactSettings withLoadFactor(double v) {
        return new CompactSettings(deleteRetentionMs, minCompactionLagMs, maxCompactionLagMs, segmentBytes, maxIndexBytes, indexIntervalBytes, dedupeBufferBytes, cleanerThreads, ioBufferBytes, maxMessageBytes, v, highWatermark, now, cleanUpTo, firstDirtyOffset, producerIdExpirationMs, producers, kafkaRounds);
    }
}
