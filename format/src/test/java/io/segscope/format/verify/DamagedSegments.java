package io.segscope.format.verify;

import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.internals.ByteBufferOutputStream;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Valid segments built with Kafka's {@link MemoryRecordsBuilder} (any magic, any codec), with the
 * position and offsets of every batch, and the damage a test does to them.
 */
final class DamagedSegments {
    private static final String[] CODECS = {"none", "gzip", "snappy", "lz4", "zstd"};

    private DamagedSegments() {
    }

    /** One entry of the file: a v2 batch, a legacy message or a legacy compressed wrapper. */
    record Placed(int position, int size, long firstOffset, long lastOffset) {
        int end() {
            return position + size;
        }
    }

    record Built(byte[] bytes, List<Placed> batches) {
    }

    static Built segment(Random rnd, int batches) {
        ByteBuffer out = ByteBuffer.allocate(1 << 20);
        List<Placed> placed = new ArrayList<>();
        long offset = rnd.nextInt(1000);
        for (int i = 0; i < batches; i++) {
            byte magic = (byte) (rnd.nextInt(4) == 0 ? rnd.nextInt(2) : 2);
            String codec = CODECS[rnd.nextInt(magic == 2 ? 5 : 4)];
            TimestampType type = magic == 0 ? TimestampType.NO_TIMESTAMP_TYPE : TimestampType.CREATE_TIME;
            ByteBufferOutputStream stream = new ByteBufferOutputStream(512);
            MemoryRecordsBuilder b = new MemoryRecordsBuilder(stream, magic, Compression.of(codec).build(), type, offset,
                    RecordBatch.NO_TIMESTAMP, RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH,
                    RecordBatch.NO_SEQUENCE, false, false, magic == 2 ? 0 : RecordBatch.NO_PARTITION_LEADER_EPOCH,
                    Integer.MAX_VALUE);
            int records = 1 + rnd.nextInt(6);
            for (int r = 0; r < records; r++) {
                byte[] value = new byte[rnd.nextInt(200)];
                rnd.nextBytes(value);
                b.appendWithOffset(offset + r, magic == 0 ? RecordBatch.NO_TIMESTAMP : 1_700_000_000_000L + offset + r,
                        ("k" + r).getBytes(), value);
            }
            MemoryRecords built = b.build();
            int at = out.position();
            for (RecordBatch entry : built.batches()) { // an uncompressed legacy set is one entry per record
                placed.add(new Placed(at, entry.sizeInBytes(), entry.baseOffset(), entry.lastOffset()));
                at += entry.sizeInBytes();
            }
            out.put(built.buffer());
            offset += records;
        }
        byte[] bytes = new byte[out.position()];
        out.flip().get(bytes);
        return new Built(bytes, placed);
    }

    /** The damage done: bytes [from, to) changed, or the file cut at {@code from} when {@code truncated}. */
    record Damage(int from, int to, boolean truncated, String what) {
    }

    static Damage damage(Random rnd, byte[] bytes, int kind) {
        int n = bytes.length;
        int from = rnd.nextInt(n);
        switch (kind) {
            case 0 -> { // flip one byte
                bytes[from] ^= (byte) (1 + rnd.nextInt(255));
                return new Damage(from, from + 1, false, "flip " + from);
            }
            case 1 -> { // random bytes over a range
                int to = Math.min(n, from + 1 + rnd.nextInt(300));
                for (int i = from; i < to; i++) {
                    bytes[i] = (byte) rnd.nextInt(256);
                }
                return new Damage(from, to, false, "noise " + from + ".." + to);
            }
            case 2 -> { // zeros over a range
                int to = Math.min(n, from + 1 + rnd.nextInt(300));
                java.util.Arrays.fill(bytes, from, to, (byte) 0);
                return new Damage(from, to, false, "zeros " + from + ".." + to);
            }
            default -> {
                return new Damage(from, n, true, "truncate at " + from);
            }
        }
    }
}
