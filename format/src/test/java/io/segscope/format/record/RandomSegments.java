package io.segscope.format.record;

import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.internals.ByteBufferOutputStream;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Builds random segments with Kafka's own {@link MemoryRecordsBuilder}: magic x codec x
 * transactional x control x sizes, concatenated the way a .log file holds them.
 */
final class RandomSegments {
    private static final String[] CODECS = {"none", "gzip", "snappy", "lz4", "zstd"};
    private static final String[] HEADER_KEYS = {"k", "", "trace-id", "日本語", "a,b:c", "émoji 😀"};

    private RandomSegments() {
    }

    /** {@link #segment} as the bytes of a file, for tests that damage it. */
    static byte[] segmentBytes(Random rnd, int maxBatches) {
        ByteBuffer seg = segment(rnd, maxBatches);
        byte[] file = new byte[seg.remaining()];
        seg.get(file);
        return file;
    }

    /** A random segment of 1..maxBatches entries, all of one magic or mixed. */
    static ByteBuffer segment(Random rnd, int maxBatches) {
        ByteBuffer out = ByteBuffer.allocate(1 << 16);
        long offset = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(1_000_000);
        int n = 1 + rnd.nextInt(maxBatches);
        byte fixedMagic = (byte) (rnd.nextInt(4) == 0 ? -1 : rnd.nextInt(3));
        for (int i = 0; i < n; i++) {
            byte magic = fixedMagic >= 0 ? fixedMagic : (byte) rnd.nextInt(3);
            ByteBuffer batch = batch(rnd, magic, offset);
            out = ensure(out, batch.remaining());
            out.put(batch);
            offset = lastOffset(batch.flip()) + 1 + (rnd.nextInt(4) == 0 ? rnd.nextInt(100) : 0);
        }
        out.flip();
        return out;
    }

    private static long lastOffset(ByteBuffer batch) {
        long last = -1;
        for (RecordBatch b : MemoryRecords.readableRecords(batch.duplicate()).batches()) {
            last = b.lastOffset();
        }
        return last;
    }

    private static ByteBuffer ensure(ByteBuffer b, int more) {
        if (b.remaining() >= more) {
            return b;
        }
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(b.capacity() * 2, b.position() + more));
        b.flip();
        bigger.put(b);
        return bigger;
    }

    static ByteBuffer batch(Random rnd, byte magic, long baseOffset) {
        String codec = CODECS[rnd.nextInt(magic == 2 ? 5 : 4)];
        long now = 1_700_000_000_000L + rnd.nextInt(1_000_000);
        if (magic == 2 && rnd.nextInt(8) == 0) {
            ControlRecordType type = rnd.nextBoolean() ? ControlRecordType.COMMIT : ControlRecordType.ABORT;
            return MemoryRecords.withEndTransactionMarker(baseOffset, now, rnd.nextInt(50), 1000L + rnd.nextInt(5),
                    (short) rnd.nextInt(3), new EndTransactionMarker(type, rnd.nextInt(100))).buffer();
        }
        TimestampType tsType = magic == 0 ? TimestampType.NO_TIMESTAMP_TYPE
                : rnd.nextInt(4) == 0 ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME;
        boolean idempotent = magic == 2 && rnd.nextBoolean();
        boolean transactional = idempotent && rnd.nextBoolean();
        long producerId = idempotent ? rnd.nextInt(10_000) : RecordBatch.NO_PRODUCER_ID;
        short epoch = idempotent ? (short) rnd.nextInt(5) : RecordBatch.NO_PRODUCER_EPOCH;
        int baseSeq = idempotent ? (rnd.nextBoolean() ? rnd.nextInt(1000) : Integer.MAX_VALUE - rnd.nextInt(5))
                : RecordBatch.NO_SEQUENCE;
        int leaderEpoch = magic == 2 ? rnd.nextInt(3) - 1 : RecordBatch.NO_PARTITION_LEADER_EPOCH;
        long deleteHorizon = magic == 2 && rnd.nextInt(6) == 0 ? now + 86_400_000L : RecordBatch.NO_TIMESTAMP;
        int records = rnd.nextInt(6) == 0 ? 1 + rnd.nextInt(300) : 1 + rnd.nextInt(8);
        ByteBufferOutputStream stream = new ByteBufferOutputStream(1024);
        MemoryRecordsBuilder builder = new MemoryRecordsBuilder(stream, magic, Compression.of(codec).build(), tsType,
                baseOffset, tsType == TimestampType.LOG_APPEND_TIME ? now + 5 : RecordBatch.NO_TIMESTAMP,
                producerId, epoch, baseSeq, transactional, false, leaderEpoch, Integer.MAX_VALUE, deleteHorizon);
        long offset = baseOffset;
        for (int i = 0; i < records; i++) {
            byte[] key = rnd.nextInt(5) == 0 ? null : bytes(rnd, rnd.nextInt(40));
            byte[] value = rnd.nextInt(7) == 0 ? null : bytes(rnd, rnd.nextInt(20) == 0 ? 70_000 : rnd.nextInt(300));
            long ts = magic == 0 ? RecordBatch.NO_TIMESTAMP : now + rnd.nextInt(2000) - 1000;
            Header[] headers = magic == 2 ? headers(rnd) : new Header[0];
            if (magic == 2 && !idempotent && rnd.nextInt(4) == 0) {
                offset += rnd.nextInt(10); // compacted logs have gaps inside batches
            }
            builder.appendWithOffset(offset, ts, key, value, headers);
            offset++;
        }
        MemoryRecords built = builder.build();
        return built.buffer();
    }

    private static Header[] headers(Random rnd) {
        int n = rnd.nextInt(4);
        Header[] h = new Header[n];
        for (int i = 0; i < n; i++) {
            h[i] = new RecordHeader(HEADER_KEYS[rnd.nextInt(HEADER_KEYS.length)],
                    rnd.nextInt(4) == 0 ? null : bytes(rnd, rnd.nextInt(16)));
        }
        return h;
    }

    private static byte[] bytes(Random rnd, int n) {
        byte[] b = new byte[n];
        if (rnd.nextBoolean()) {
            rnd.nextBytes(b);
        } else { // compressible text
            byte[] text = "offset commit, \"metadata\"\n日本語 ".getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < n; i++) {
                b[i] = text[i % text.length];
            }
        }
        return b;
    }
}
