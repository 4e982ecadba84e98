package io.segscope.format.record;

/**
 * One entry of a {@code .log} file as Kafka's {@code FileRecords.batches()} yields it: a magic-2
 * record batch ({@link BatchView}) or a legacy shallow message, plain or compressed wrapper
 * ({@link LegacyBatchView}). Instances are flyweights owned by a {@link BatchReader}: valid until
 * the reader moves on, never to be kept.
 *
 * <p>The accessors mean what Kafka's {@code RecordBatch} methods of the same names mean, so a
 * reader who knows Kafka knows these.
 */
public interface Batch {
    /** Name of the file the batch was read from (for messages). */
    String file();

    /** Byte position of the batch's first byte (its offset field) in the file. */
    long position();

    /** Whole size: 12 bytes of offset and size fields plus the declared size. */
    int sizeInBytes();

    byte magic();

    /** First offset. For a legacy compressed wrapper this needs the inner messages (decompresses). */
    long baseOffset();

    /** Last offset: baseOffset + lastOffsetDelta (v2), the entry's own offset (legacy). */
    long lastOffset();

    default long nextOffset() {
        return lastOffset() + 1;
    }

    /** The raw attributes (int16 for v2, int8 for legacy, widened). */
    int attributes();

    CompressionType compression();

    TimestampType timestampType();

    /** v2: maxTimestamp field; legacy v1: the message timestamp; v0: -1. */
    long maxTimestamp();

    /** v2: the baseTimestamp field (the delete horizon when {@link #hasDeleteHorizon()}); legacy: -1. */
    long baseTimestamp();

    long producerId();

    short producerEpoch();

    int baseSequence();

    /** baseSequence + lastOffsetDelta, wrapping past Integer.MAX_VALUE to 0; -1 without a sequence. */
    int lastSequence();

    int partitionLeaderEpoch();

    boolean isTransactional();

    boolean isControl();

    boolean hasDeleteHorizon();

    /** The delete horizon in ms, or -1 when the attribute bit is clear. */
    long deleteHorizonMs();

    /** Declared record count (v2); -1 for legacy entries, as Kafka's countOrNull. */
    int countOrMinusOne();

    /** The CRC stored in the batch (unsigned). */
    long storedCrc();

    /** The CRC computed over the bytes Kafka covers: CRC-32C (v2) or CRC-32 (legacy). */
    long computedCrc();

    /** Size at least the minimum for the magic and stored CRC equal to computed CRC, as Kafka's isValid. */
    boolean isValid();

    /** Throws {@link io.segscope.format.error.FormatException} with CRC_MISMATCH unless {@link #isValid()}. */
    void ensureValid();

    /** The records, decompressing if needed. The iterator is reused: one walk at a time. */
    RecordIterator records();
}
