package io.segscope.format.write;

import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.segscope.format.record.BatchView;
import io.segscope.format.record.CompressionType;
import io.segscope.format.record.TimestampType;
import org.xerial.snappy.SnappyOutputStream;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Builds magic-2 record batches into one reused buffer exactly as Kafka 4.4.0's
 * {@code MemoryRecordsBuilder} does: the same header fields, the same record encoding, and for a
 * compressed batch the same codec libraries at Kafka's default levels behind the same stream
 * buffering (gzip and zstd behind a 16 KiB {@code BufferedOutputStream}, gzip with an 8 KiB deflate
 * buffer; lz4 as Kafka's own frame writer with 64 KiB blocks; snappy's {@code SnappyOutputStream}).
 *
 * <pre>{@code
 * BatchBuilder b = new BatchBuilder();
 * b.begin(baseOffset, CompressionType.ZSTD).partitionLeaderEpoch(7).producer(pid, epoch, seq);
 * b.append(offset, timestamp, key, 0, key.length, value, 0, value.length, RecordHeaders.NONE);
 * ByteBuffer batch = b.finish();   // valid until the next begin
 * }</pre>
 *
 * Nothing is allocated per record: keys, values and headers are byte slices copied straight into
 * the output (or the codec's buffer). An uncompressed batch and gzip and lz4 reuse every buffer from
 * batch to batch; zstd and snappy open one stream per batch as Kafka does (zstd-jni's
 * {@code RecyclingBufferPool} and snappy-java's buffer cache reuse their buffers). Not thread-safe.
 */
public final class BatchBuilder {
    /** Kafka's {@code BufferedOutputStream} size in front of gzip and zstd. */
    static final int STREAM_BUFFER = 16 * 1024;
    /** zstd's default level in Kafka ({@code CompressionType.ZSTD.defaultLevel()}). */
    static final int ZSTD_LEVEL = 3;
    /** The header value of a batch with no timestamp, of a producer id, epoch, sequence not set. */
    public static final long NO_TIMESTAMP = -1L;

    private final GrowableBuffer out;
    private final CRC32C crc = new CRC32C();
    private final Chunker buffered = new Chunker(STREAM_BUFFER);
    private final Chunker direct = new Chunker(0);
    private GzipSink gzip;
    private Lz4Sink lz4;

    private OutputStream records;
    private Chunker chunker;
    private boolean open;

    private long baseOffset;
    private CompressionType codec = CompressionType.NONE;
    private TimestampType timestampType = TimestampType.CREATE_TIME;
    private long logAppendTime = NO_TIMESTAMP;
    private int partitionLeaderEpoch = -1;
    private long producerId = -1L;
    private short producerEpoch = -1;
    private int baseSequence = -1;
    private boolean transactional;
    private boolean control;
    private long deleteHorizonMs = NO_TIMESTAMP;

    private boolean haveBaseTimestamp;
    private long baseTimestamp;
    private long maxTimestamp;
    private long lastOffset;
    private long lastOffsetOverride = -1L;
    private int count;
    private long uncompressedBytes;

    public BatchBuilder() {
        this(64 * 1024);
    }

    public BatchBuilder(int initialCapacity) {
        out = new GrowableBuffer(initialCapacity);
    }

    /**
     * Starts a batch at {@code baseOffset}; every other header field goes back to Kafka's default
     * (create time, leader epoch -1, no producer, not transactional, not control, no delete horizon).
     */
    public BatchBuilder begin(long baseOffset, CompressionType codec) {
        if (codec == null) {
            throw new IllegalArgumentException("codec");
        }
        this.baseOffset = baseOffset;
        this.codec = codec;
        timestampType = TimestampType.CREATE_TIME;
        logAppendTime = NO_TIMESTAMP;
        partitionLeaderEpoch = -1;
        producerId = -1L;
        producerEpoch = -1;
        baseSequence = -1;
        transactional = false;
        control = false;
        deleteHorizonMs = NO_TIMESTAMP;
        haveBaseTimestamp = false;
        baseTimestamp = NO_TIMESTAMP;
        maxTimestamp = NO_TIMESTAMP;
        lastOffset = -1L;
        lastOffsetOverride = -1L;
        count = 0;
        uncompressedBytes = 0;
        records = null;
        out.buf.clear();
        out.buf.position(BatchView.RECORDS_OFFSET);
        open = true;
        return this;
    }

    public BatchBuilder partitionLeaderEpoch(int epoch) {
        partitionLeaderEpoch = epoch;
        return this;
    }

    /** Create time (the default) or log append time with the time that stands for every record. */
    public BatchBuilder timestampType(TimestampType type, long logAppendTime) {
        if (type != TimestampType.CREATE_TIME && type != TimestampType.LOG_APPEND_TIME) {
            throw new IllegalArgumentException("a magic 2 batch has create or log append time, not " + type);
        }
        this.timestampType = type;
        this.logAppendTime = logAppendTime;
        return this;
    }

    public BatchBuilder producer(long producerId, short producerEpoch, int baseSequence) {
        this.producerId = producerId;
        this.producerEpoch = producerEpoch;
        this.baseSequence = baseSequence;
        return this;
    }

    public BatchBuilder transactional(boolean on) {
        transactional = on;
        return this;
    }

    public BatchBuilder control(boolean on) {
        control = on;
        return this;
    }

    /**
     * Sets the delete horizon (the cleaner's second pass): the attribute bit is set and the base
     * timestamp holds the horizon, record timestamp deltas being taken from it. Before any append.
     */
    public BatchBuilder deleteHorizon(long deleteHorizonMs) {
        if (count > 0) {
            throw new IllegalStateException("the delete horizon is set before the first record");
        }
        this.deleteHorizonMs = deleteHorizonMs;
        if (deleteHorizonMs >= 0) {
            haveBaseTimestamp = true;
            baseTimestamp = deleteHorizonMs;
        } else {
            haveBaseTimestamp = false;
            baseTimestamp = NO_TIMESTAMP;
        }
        return this;
    }

    /**
     * Makes the header's last offset {@code lastOffset} rather than the last appended record's, as
     * Kafka's {@code MemoryRecordsBuilder.overrideLastOffset} does when the cleaner rebuilds a batch
     * (the producer's last sequence stays derivable from the batch). At least the last record's offset.
     */
    public BatchBuilder overrideLastOffset(long lastOffset) {
        if (!open) {
            throw new IllegalStateException("begin a batch first");
        }
        lastOffsetOverride = lastOffset;
        return this;
    }

    /** Records appended so far. */
    public int count() {
        return count;
    }

    /** Bytes of the records before compression (Kafka's {@code uncompressedRecordsSizeInBytes}). */
    public long uncompressedBytes() {
        return uncompressedBytes;
    }

    /**
     * Appends a record. A length of -1 is a null key or value (its array is then ignored). Offsets
     * must increase; a timestamp is -1 or non-negative.
     */
    public void append(long offset, long timestamp, byte[] key, int keyOffset, int keyLength,
                       byte[] value, int valueOffset, int valueLength, RecordHeaders headers) {
        if (!open) {
            throw new IllegalStateException("begin a batch first");
        }
        if (count > 0 && offset <= lastOffset) {
            throw new IllegalArgumentException("Illegal offset " + offset + " following previous offset " + lastOffset
                    + " (Offsets must increase monotonically).");
        }
        if (offset - baseOffset > Integer.MAX_VALUE || offset < baseOffset) {
            throw new IllegalArgumentException("offset " + offset + " out of the batch's range from " + baseOffset);
        }
        if (timestamp < 0 && timestamp != NO_TIMESTAMP) {
            throw new IllegalArgumentException("Invalid negative timestamp " + timestamp);
        }
        if (keyLength < -1 || valueLength < -1) {
            throw new IllegalArgumentException("lengths are -1 (null) or more");
        }
        if (headers == null) {
            throw new IllegalArgumentException("Headers cannot be null");
        }
        if (!haveBaseTimestamp) {
            haveBaseTimestamp = true;
            baseTimestamp = timestamp;
        }
        if (count == 0) {
            openRecords();
        }
        int offsetDelta = (int) (offset - baseOffset);
        long timestampDelta = timestamp - baseTimestamp;
        int body = 1 + varlongSize(timestampDelta) + varintSize(offsetDelta)
                + (keyLength < 0 ? 1 : varintSize(keyLength) + keyLength)
                + (valueLength < 0 ? 1 : varintSize(valueLength) + valueLength)
                + varintSize(headers.count);
        for (int i = 0; i < headers.count; i++) {
            int kl = headers.keyLengths[i];
            int vl = headers.valueLengths[i];
            body += varintSize(kl) + kl + (vl < 0 ? 1 : varintSize(vl) + vl);
        }
        try {
            OutputStream o = records;
            writeVarint(o, body);
            o.write(0);
            writeVarlong(o, timestampDelta);
            writeVarint(o, offsetDelta);
            writeBytes(o, key, keyOffset, keyLength);
            writeBytes(o, value, valueOffset, valueLength);
            writeVarint(o, headers.count);
            for (int i = 0; i < headers.count; i++) {
                writeVarint(o, headers.keyLengths[i]);
                o.write(headers.keys[i], headers.keyOffsets[i], headers.keyLengths[i]);
                writeBytes(o, headers.values[i], headers.valueOffsets[i], headers.valueLengths[i]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        count++;
        uncompressedBytes += varintSize(body) + body;
        lastOffset = offset;
        if (timestamp > maxTimestamp) {
            maxTimestamp = timestamp;
        }
    }

    /** {@link #append(long, long, byte[], int, int, byte[], int, int, RecordHeaders)} with whole arrays (null allowed). */
    public void append(long offset, long timestamp, byte[] key, byte[] value, RecordHeaders headers) {
        append(offset, timestamp, key, 0, key == null ? -1 : key.length, value, 0, value == null ? -1 : value.length, headers);
    }

    private void openRecords() {
        try {
            switch (codec) {
                case NONE -> records = out;
                case GZIP -> {
                    if (gzip == null) {
                        gzip = new GzipSink();
                    }
                    buffered.target(gzip.begin(out));
                    records = buffered;
                }
                case ZSTD -> {
                    buffered.target(new ZstdOutputStreamNoFinalizer(out, RecyclingBufferPool.INSTANCE, ZSTD_LEVEL));
                    records = buffered;
                }
                case LZ4 -> {
                    if (lz4 == null) {
                        lz4 = new Lz4Sink();
                    }
                    direct.target(lz4.begin(out));
                    records = direct;
                }
                case SNAPPY -> {
                    direct.target(new SnappyOutputStream(out));
                    records = direct;
                }
                default -> throw new IllegalArgumentException("codec " + codec);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Closes the batch: the codec's end, then the header with its CRC-32C. Returns the reused
     * buffer, position 0 and limit the batch's size (0 for a batch with no records, which Kafka does
     * not write either); valid until the next {@link #begin}.
     */
    public ByteBuffer finish() {
        if (!open) {
            throw new IllegalStateException("begin a batch first");
        }
        open = false;
        ByteBuffer b = out.buf;
        if (count == 0) {
            b.clear().limit(0);
            return b;
        }
        if (producerId != -1L) {
            if (producerEpoch == -1) {
                throw new IllegalArgumentException("Invalid negative producer epoch");
            }
            if (baseSequence < 0 && !control) {
                throw new IllegalArgumentException("Invalid negative sequence number used");
            }
        } else if (transactional) {
            throw new IllegalArgumentException("Cannot write transactional messages without a valid producer ID");
        }
        if (records != out) {
            try {
                records.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        records = null;
        b = out.buf;
        int size = b.position();
        int attributes = codec.id
                | (timestampType == TimestampType.LOG_APPEND_TIME ? 0x08 : 0)
                | (transactional ? 0x10 : 0)
                | (control ? 0x20 : 0)
                | (deleteHorizonMs >= 0 ? 0x40 : 0);
        b.putLong(BatchView.BASE_OFFSET_OFFSET, baseOffset);
        b.putInt(BatchView.LENGTH_OFFSET, size - BatchView.LOG_OVERHEAD);
        b.putInt(BatchView.PARTITION_LEADER_EPOCH_OFFSET, partitionLeaderEpoch);
        b.put(BatchView.MAGIC_OFFSET, (byte) 2);
        b.putShort(BatchView.ATTRIBUTES_OFFSET, (short) attributes);
        long last = lastOffsetOverride >= 0 ? lastOffsetOverride : lastOffset;
        if (last < lastOffset || last - baseOffset > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("last offset " + last + " before the last record " + lastOffset
                    + " or out of the batch's range from " + baseOffset);
        }
        b.putInt(BatchView.LAST_OFFSET_DELTA_OFFSET, (int) (last - baseOffset));
        b.putLong(BatchView.BASE_TIMESTAMP_OFFSET, baseTimestamp);
        b.putLong(BatchView.MAX_TIMESTAMP_OFFSET,
                timestampType == TimestampType.LOG_APPEND_TIME ? logAppendTime : maxTimestamp);
        b.putLong(BatchView.PRODUCER_ID_OFFSET, producerId);
        b.putShort(BatchView.PRODUCER_EPOCH_OFFSET, producerEpoch);
        b.putInt(BatchView.BASE_SEQUENCE_OFFSET, baseSequence);
        b.putInt(BatchView.RECORDS_COUNT_OFFSET, count);
        crc.reset();
        b.limit(size).position(BatchView.ATTRIBUTES_OFFSET);
        crc.update(b);
        b.putInt(BatchView.CRC_OFFSET, (int) crc.getValue());
        b.position(0);
        return b;
    }

    private static void writeBytes(OutputStream o, byte[] b, int off, int len) throws IOException {
        if (len < 0) {
            o.write(1);   // varint -1
        } else {
            writeVarint(o, len);
            o.write(b, off, len);
        }
    }

    static void writeVarint(OutputStream o, int value) throws IOException {
        int v = (value << 1) ^ (value >> 31);
        while ((v & 0xFFFFFF80) != 0) {
            o.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        o.write(v);
    }

    static void writeVarlong(OutputStream o, long value) throws IOException {
        long v = (value << 1) ^ (value >> 63);
        while ((v & 0xFFFFFFFFFFFFFF80L) != 0L) {
            o.write(((int) v & 0x7F) | 0x80);
            v >>>= 7;
        }
        o.write((int) v);
    }

    static int varintSize(int value) {
        int v = (value << 1) ^ (value >> 31);
        int bytes = 1;
        while ((v & 0xFFFFFF80) != 0) {
            bytes++;
            v >>>= 7;
        }
        return bytes;
    }

    static int varlongSize(long value) {
        long v = (value << 1) ^ (value >> 63);
        int bytes = 1;
        while ((v & 0xFFFFFFFFFFFFFF80L) != 0L) {
            bytes++;
            v >>>= 7;
        }
        return bytes;
    }
}
