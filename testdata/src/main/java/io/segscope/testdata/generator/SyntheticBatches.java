package io.segscope.testdata.generator;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.ByteBufferOutputStream;
import org.apache.kafka.storage.internals.log.CompletedTxn;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogSegment;

/**
 * Small helpers around Kafka 4.4.0's {@code MemoryRecordsBuilder} and {@code LogSegment}, so the
 * synthetic segments are made byte for byte by Kafka's own writer: batches by the builder, the
 * {@code .log}, {@code .index}, {@code .timeindex} and {@code .txnindex} files by
 * {@code LogSegment.append} / {@code updateTxnIndex} / {@code close} as a broker does.
 */
final class SyntheticBatches {
    /** 2023-11-14T22:13:20Z: every synthetic timestamp is derived from it. */
    static final long T0 = 1_700_000_000_000L;

    /** Kafka's default {@code index.interval.bytes} is 4096; smaller here so small files get several entries. */
    static final int INDEX_INTERVAL_BYTES = 1024;

    private SyntheticBatches() {
    }

    /** One record to append: the offset it gets, its timestamp, key, value and (magic 2) headers. */
    record Rec(long offset, long timestamp, byte[] key, byte[] value, Header[] headers) {
        Rec(long offset, long timestamp, String key, String value) {
            this(offset, timestamp, utf8(key), utf8(value), new Header[0]);
        }

        Rec(long offset, long timestamp, String key, byte[] value) {
            this(offset, timestamp, utf8(key), value, new Header[0]);
        }
    }

    static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A deterministic value of {@code length} bytes drawn from a 16-letter alphabet: it compresses
     * to about half, so a large one spans several compression blocks.
     */
    static byte[] filler(long seed, int length) {
        Random rnd = new Random(seed);
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) ('a' + rnd.nextInt(16));
        }
        return b;
    }

    /** A magic 0 or 1 message set: uncompressed entries, or one compressed wrapper. */
    static MemoryRecords legacy(byte magic, Compression compression, TimestampType type, long logAppendTime, List<Rec> recs) {
        MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(256), magic, compression, type,
                recs.get(0).offset(), logAppendTime);
        for (Rec r : recs) {
            b.appendWithOffset(r.offset(), magic == RecordBatch.MAGIC_VALUE_V0 ? RecordBatch.NO_TIMESTAMP : r.timestamp(),
                    r.key(), r.value());
        }
        return b.build();
    }

    /** Options of a magic 2 batch; the defaults are a plain producer's (no id, no sequence). */
    static final class V2 {
        Compression compression = Compression.NONE;
        TimestampType timestampType = TimestampType.CREATE_TIME;
        long logAppendTime = RecordBatch.NO_TIMESTAMP;
        long producerId = RecordBatch.NO_PRODUCER_ID;
        short producerEpoch = RecordBatch.NO_PRODUCER_EPOCH;
        int baseSequence = RecordBatch.NO_SEQUENCE;
        boolean transactional;
        int leaderEpoch = RecordBatch.NO_PARTITION_LEADER_EPOCH;
        long deleteHorizonMs = RecordBatch.NO_TIMESTAMP;

        V2 compression(Compression c) {
            this.compression = c;
            return this;
        }

        V2 logAppendTime(long t) {
            this.timestampType = TimestampType.LOG_APPEND_TIME;
            this.logAppendTime = t;
            return this;
        }

        V2 producer(long id, short epoch, int baseSequence) {
            this.producerId = id;
            this.producerEpoch = epoch;
            this.baseSequence = baseSequence;
            return this;
        }

        V2 transactional() {
            this.transactional = true;
            return this;
        }

        V2 leaderEpoch(int e) {
            this.leaderEpoch = e;
            return this;
        }

        V2 deleteHorizon(long ms) {
            this.deleteHorizonMs = ms;
            return this;
        }

        MemoryRecords build(List<Rec> recs) {
            MemoryRecordsBuilder b = new MemoryRecordsBuilder(new ByteBufferOutputStream(256), RecordBatch.MAGIC_VALUE_V2,
                    compression, timestampType, recs.get(0).offset(), logAppendTime, producerId, producerEpoch,
                    baseSequence, transactional, false, leaderEpoch, Integer.MAX_VALUE, deleteHorizonMs);
            for (Rec r : recs) {
                b.appendWithOffset(r.offset(), r.timestamp(), r.key(), r.value(), r.headers());
            }
            return b.build();
        }

        /** A COMMIT or ABORT control batch of this producer, written through the builder. */
        MemoryRecords marker(long offset, long timestamp, ControlRecordType type, int coordinatorEpoch) {
            MemoryRecordsBuilder b = new MemoryRecordsBuilder(new ByteBufferOutputStream(128), RecordBatch.MAGIC_VALUE_V2,
                    Compression.NONE, TimestampType.CREATE_TIME, offset, RecordBatch.NO_TIMESTAMP, producerId,
                    producerEpoch, RecordBatch.NO_SEQUENCE, true, true, leaderEpoch, Integer.MAX_VALUE,
                    RecordBatch.NO_TIMESTAMP);
            b.appendEndTxnMarker(timestamp, new EndTransactionMarker(type, coordinatorEpoch));
            return b.build();
        }

        /**
         * A batch with no records covering {@code [baseOffset, lastOffset]}, as the cleaner leaves
         * to keep a producer's last sequence (docs/format.md 1.2).
         */
        MemoryRecords empty(long baseOffset, long lastOffset, long timestamp, int baseSeq) {
            ByteBuffer buf = ByteBuffer.allocate(DefaultRecordBatch.RECORD_BATCH_OVERHEAD);
            DefaultRecordBatch.writeEmptyHeader(buf, RecordBatch.MAGIC_VALUE_V2, producerId, producerEpoch, baseSeq,
                    baseOffset, lastOffset, leaderEpoch, timestampType, timestamp, transactional, false);
            buf.flip();
            return MemoryRecords.readableRecords(buf);
        }
    }

    static V2 v2() {
        return new V2();
    }

    /** Several records at consecutive offsets with timestamps one second apart. */
    static List<Rec> run(long firstOffset, int count, String keyPrefix, String valuePrefix) {
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long o = firstOffset + i;
            out.add(new Rec(o, T0 + o * 1000, keyPrefix + o, valuePrefix + o));
        }
        return out;
    }

    /** Writes one partition dir through Kafka's {@code LogSegment}, rolling at the offsets asked. */
    static final class PartitionWriter implements Closeable {
        private final Path dir;
        private final LogConfig config;
        private LogSegment active;

        PartitionWriter(Path dir) throws IOException {
            this.dir = dir;
            Files.createDirectories(dir);
            this.config = new LogConfig(Map.of(
                    "index.interval.bytes", Integer.toString(INDEX_INTERVAL_BYTES),
                    "segment.index.bytes", Integer.toString(10 * 1024 * 1024)));
        }

        /** Starts a new segment named by {@code baseOffset} (the previous one becomes inactive, as on a roll). */
        PartitionWriter roll(long baseOffset) throws IOException {
            finishActive(true);
            active = LogSegment.open(dir.toFile(), baseOffset, config, Time.SYSTEM, 0, false);
            return this;
        }

        /** Appends the batches as one append, as the broker does for one produce request. */
        PartitionWriter append(MemoryRecords records) throws IOException {
            long last = -1;
            for (RecordBatch batch : records.batches()) {
                last = Math.max(last, batch.lastOffset());
            }
            active.append(last, records);
            return this;
        }

        /** Records an aborted transaction in the active segment's {@code .txnindex}. */
        PartitionWriter aborted(long producerId, long firstOffset, long lastOffset, long lastStableOffset) throws IOException {
            active.updateTxnIndex(new CompletedTxn(producerId, firstOffset, lastOffset, true), lastStableOffset);
            return this;
        }

        private void finishActive(boolean rolled) throws IOException {
            if (active == null) {
                return;
            }
            if (rolled) {
                active.onBecomeInactiveSegment();
            }
            active.flush();
            active.close();
            active = null;
        }

        /**
         * Closes the last segment as on a roll too: closing alone leaves a 4.4.0 active segment's
         * preallocated 10 MiB index files untrimmed, too big to commit for a few entries.
         */
        @Override
        public void close() throws IOException {
            finishActive(true);
        }
    }
}
