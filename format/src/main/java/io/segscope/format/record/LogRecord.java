package io.segscope.format.record;

import java.nio.ByteBuffer;

/**
 * One record: a v2 record ({@link RecordView}) or a legacy message ({@link LegacyMessageView}).
 * Keys, values and headers are slices of {@link #buffer()} (the mapped file for uncompressed
 * batches, the reused decompression buffer otherwise): nothing is copied until a caller asks.
 * A flyweight: valid until its iterator moves on.
 */
public interface LogRecord {
    long offset();

    long timestamp();

    TimestampType timestampType();

    /** The producer sequence of this record, or -1. */
    int sequence();

    /** Bytes this record occupies in its (decompressed) batch. */
    int sizeInBytes();

    /** The buffer holding key, value and header bytes. */
    ByteBuffer buffer();

    boolean hasKey();

    /** Index of the key's first byte in {@link #buffer()}. */
    int keyOffset();

    /** Key length, or -1 for a null key. */
    int keyLength();

    boolean hasValue();

    int valueOffset();

    /** Value length, or -1 for a null value (a tombstone). */
    int valueLength();

    /** Number of headers (always 0 for legacy messages). */
    int headerCount();

    /** The headers; the iterator is reused. */
    HeaderIterator headers();

    /** Legacy messages carry their own CRC; v2 records do not (null semantics: -1). */
    long checksumOrMinusOne();

    /** True for a legacy message whose own CRC is right, and always for v2 records. */
    boolean isValid();
}
