package io.segscope.format.record;

import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.internals.ByteBufferOutputStream;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/** Small fixed segments built with Kafka's builder, and byte surgery on them, for error tests. */
final class Segments {
    private Segments() {
    }

    /** {@code batches} uncompressed v2 batches of {@code perBatch} records each, offsets from 0. */
    static ByteBuffer v2(int batches, int perBatch, String codec) {
        ByteBuffer out = ByteBuffer.allocate(16 << 20);
        long offset = 0;
        for (int b = 0; b < batches; b++) {
            MemoryRecordsBuilder builder = new MemoryRecordsBuilder(new ByteBufferOutputStream(256),
                    RecordBatch.MAGIC_VALUE_V2, Compression.of(codec).build(), TimestampType.CREATE_TIME, offset,
                    RecordBatch.NO_TIMESTAMP, -1L, (short) -1, -1, false, false, 0, Integer.MAX_VALUE,
                    RecordBatch.NO_TIMESTAMP);
            for (int i = 0; i < perBatch; i++) {
                builder.appendWithOffset(offset++, 1_700_000_000_000L + i, ("key-" + i).getBytes(StandardCharsets.UTF_8),
                        ("value-" + i + "-" + "x".repeat((i % 10) * 7)).getBytes(StandardCharsets.UTF_8));
            }
            out.put(builder.build().buffer());
        }
        out.flip();
        return out;
    }

    /** One legacy batch (magic 0 or 1) with {@code n} records. */
    static ByteBuffer legacy(byte magic, String codec, int n, long baseOffset) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(1 << 16), magic,
                Compression.of(codec).build(), magic == 0 ? TimestampType.NO_TIMESTAMP_TYPE : TimestampType.CREATE_TIME,
                baseOffset);
        for (int i = 0; i < n; i++) {
            builder.append(magic == 0 ? RecordBatch.NO_TIMESTAMP : 1_700_000_000_000L + i,
                    ("k" + i).getBytes(StandardCharsets.UTF_8), ("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        return builder.build().buffer();
    }

    static ByteBuffer concat(ByteBuffer... parts) {
        int n = 0;
        for (ByteBuffer p : parts) {
            n += p.remaining();
        }
        ByteBuffer out = ByteBuffer.allocate(n);
        for (ByteBuffer p : parts) {
            out.put(p.duplicate());
        }
        out.flip();
        return out;
    }

    static ByteBuffer copy(ByteBuffer b) {
        return concat(b);
    }

    /** Position of the i-th batch (0-based) in a segment of batches. */
    static int batchPosition(ByteBuffer seg, int i) {
        int p = 0;
        for (int k = 0; k < i; k++) {
            p += seg.getInt(p + 8) + 12;
        }
        return p;
    }

    /** Recomputes the CRC-32 of the legacy message of the entry at {@code p}. */
    static void fixLegacyCrc(ByteBuffer seg, int p) {
        int size = seg.getInt(p + 8);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        ByteBuffer v = seg.duplicate();
        v.position(p + 12 + 4).limit(p + 12 + size);
        crc.update(v);
        seg.putInt(p + 12, (int) crc.getValue());
    }

    /** Recomputes the CRC-32C of the v2 batch at {@code p}, so that a header edit stays CRC-valid. */
    static void fixCrc(ByteBuffer seg, int p) {
        int size = seg.getInt(p + 8) + 12;
        CRC32C crc = new CRC32C();
        ByteBuffer v = seg.duplicate();
        v.position(p + 21).limit(p + size);
        crc.update(v);
        seg.putInt(p + 17, (int) crc.getValue());
    }
}
