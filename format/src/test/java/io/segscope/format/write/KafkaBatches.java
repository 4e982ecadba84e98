package io.segscope.format.write;

import io.segscope.format.record.CompressionType;
import io.segscope.format.record.TimestampType;
import io.segscope.testkit.Gen;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.internals.ByteBufferOutputStream;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Random batch specifications, built by Kafka's {@code MemoryRecordsBuilder} and by {@link BatchBuilder}. */
final class KafkaBatches {
    private KafkaBatches() {
    }

    record Head(String key, byte[] value) {
    }

    record Rec(long offset, long timestamp, byte[] key, byte[] value, List<Head> headers) {
    }

    record Spec(CompressionType codec, long baseOffset, int leaderEpoch, TimestampType timestampType, long logAppendTime,
                long producerId, short producerEpoch, int baseSequence, boolean transactional, boolean control,
                long deleteHorizon, List<Rec> records) {
        long lastOffset() {
            return records.get(records.size() - 1).offset();
        }
    }

    static byte[] payload(Gen gen, int max) {
        int n = gen.size(0, max);
        byte[] b = new byte[n];
        switch (gen.intBetween(0, 2)) {
            case 0 -> gen.splittable().nextBytes(b);
            case 1 -> {
                for (int i = 0; i < n; i++) {
                    b[i] = (byte) ('a' + (i % 7));
                }
            }
            default -> {
                byte[] word = gen.bytes(1, 12);
                for (int i = 0; i < n; i++) {
                    b[i] = gen.oneIn(20) ? gen.anyByte() : word[i % word.length];
                }
            }
        }
        return b;
    }

    static Spec spec(Gen gen, CompressionType codec, long baseOffset) {
        boolean control = gen.oneIn(6);
        boolean transactional = control || gen.oneIn(3);
        long pid = transactional || gen.bool() ? gen.longBetween(0, Long.MAX_VALUE / 2) : -1L;
        short epoch = pid < 0 ? -1 : (short) gen.intBetween(0, Short.MAX_VALUE);
        int seq = pid < 0 ? -1 : control && gen.bool() ? -1 : gen.intBetween(0, Integer.MAX_VALUE / 2);
        TimestampType tt = gen.oneIn(5) ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME;
        long lat = tt == TimestampType.LOG_APPEND_TIME ? gen.longBetween(0, 4_000_000_000_000L) : -1L;
        long horizon = gen.oneIn(4) ? gen.longBetween(0, 4_000_000_000_000L) : -1L;
        long base = gen.longBetween(0, 4_000_000_000_000L);
        boolean big = gen.oneIn(8);
        int n = control ? gen.intBetween(1, 2) : gen.size(1, big ? 40 : 300);
        List<Rec> recs = new ArrayList<>();
        long offset = baseOffset;
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                offset += gen.oneIn(3) ? gen.intBetween(2, 1000) : 1;
            }
            long ts = gen.oneIn(30) ? -1L : base + gen.longBetween(-100_000, 100_000);
            if (ts < -1) {
                ts = 0;
            }
            byte[] key = control ? new byte[] {0, 0, 0, (byte) gen.intBetween(0, 1)} : gen.oneIn(4) ? null : payload(gen, 40);
            byte[] value = gen.oneIn(6) ? null : payload(gen, big && gen.oneIn(3) ? 150_000 : 600);
            List<Head> hs = new ArrayList<>();
            if (gen.oneIn(3)) {
                int h = gen.size(0, 4);
                for (int j = 0; j < h; j++) {
                    // Kafka sizes a header key with Utils.utf8Length, which counts a lone surrogate as 3 bytes
                    // while String.getBytes writes '?': keys are taken through UTF-8 once so both agree
                    String k = new String(gen.string(0, 12).getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
                    hs.add(new Head(k, gen.oneIn(4) ? null : payload(gen, 30)));
                }
            }
            recs.add(new Rec(offset, ts, key, value, hs));
        }
        return new Spec(codec, baseOffset, gen.oneIn(5) ? -1 : gen.intBetween(0, 1000), tt, lat, pid, epoch, seq,
                transactional, control, horizon, recs);
    }

    static ByteBuffer kafka(Spec s) {
        MemoryRecordsBuilder b = new MemoryRecordsBuilder(new ByteBufferOutputStream(256), RecordBatch.MAGIC_VALUE_V2,
                Compression.of(s.codec().kafkaName).build(),
                s.timestampType() == TimestampType.LOG_APPEND_TIME ? org.apache.kafka.common.record.TimestampType.LOG_APPEND_TIME : org.apache.kafka.common.record.TimestampType.CREATE_TIME, s.baseOffset(),
                s.logAppendTime(), s.producerId(), s.producerEpoch(), s.baseSequence(), s.transactional(),
                s.control(), s.leaderEpoch(), Integer.MAX_VALUE, s.deleteHorizon());
        for (Rec r : s.records()) {
            Header[] hs = new Header[r.headers().size()];
            for (int i = 0; i < hs.length; i++) {
                hs[i] = new RecordHeader(r.headers().get(i).key(), r.headers().get(i).value());
            }
            SimpleRecord sr = new SimpleRecord(r.timestamp(), r.key(), r.value(), hs);
            if (s.control()) {
                b.appendControlRecordWithOffset(r.offset(), sr);
            } else {
                b.appendWithOffset(r.offset(), sr);
            }
        }
        return b.build().buffer();
    }

    static ByteBuffer segscope(BatchBuilder b, RecordHeaders headers, Spec s) {
        b.begin(s.baseOffset(), s.codec()).partitionLeaderEpoch(s.leaderEpoch())
                .timestampType(s.timestampType(), s.logAppendTime())
                .producer(s.producerId(), s.producerEpoch(), s.baseSequence())
                .transactional(s.transactional()).control(s.control()).deleteHorizon(s.deleteHorizon());
        for (Rec r : s.records()) {
            headers.clear();
            for (Head h : r.headers()) {
                headers.add(h.key().getBytes(StandardCharsets.UTF_8), h.value());
            }
            b.append(r.offset(), r.timestamp(), r.key(), r.value(), headers);
        }
        return b.finish();
    }
}
