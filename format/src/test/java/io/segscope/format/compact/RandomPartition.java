package io.segscope.format.compact;

import io.segscope.testkit.Gen;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.internals.ByteBufferOutputStream;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.apache.kafka.storage.internals.log.UnifiedLog;
import org.apache.kafka.storage.log.metrics.BrokerTopicStats;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A random compacted partition written by Kafka 4.4.0's own {@code UnifiedLog} (as a follower
 * appends: batches kept as built, offsets as given): keys from a small key space so that records
 * supersede each other, tombstones, headers, a few keyless records, every codec, create and log
 * append time; plain, idempotent and transactional producers (committed, aborted and still open
 * transactions), producers last seen long ago (expired at "now") and recently; batches that already
 * carry a delete horizon before or after "now" (as a previous cleaning leaves them), and a rolled
 * segment every few batches.
 */
final class RandomPartition {
    static final long NOW = 1_764_460_800_000L;

    private RandomPartition() {
    }

    /** Writes the partition {@code topic-0} under {@code parent}; returns its directory. */
    static Path write(Gen gen, Path parent, String topic) throws Exception {
        Path dir = Files.createDirectories(parent.resolve(topic + "-0"));
        KafkaScheduler scheduler = new KafkaScheduler(1);
        scheduler.startup();
        UnifiedLog log = UnifiedLog.create(dir.toFile(), new LogConfig(Map.of("cleanup.policy", "compact")), 0L, 0L,
                scheduler, new BrokerTopicStats(), KafkaCleanerOracle.fixed(NOW), 60_000,
                new ProducerStateManagerConfig(86_400_000, false), 600_000, new LogDirFailureChannel(1), true,
                Optional.empty());
        try {
            int keySpace = gen.choose(3, 20, 200);
            Compression[] codecs = {Compression.NONE, Compression.gzip().build(), Compression.snappy().build(),
                    Compression.lz4().build(), Compression.zstd().build()};
            Compression partitionCodec = gen.bool() ? null : gen.choose(codecs);
            long offset = 0;
            int epoch = 0;
            Map<Long, int[]> seqs = new HashMap<>();      // producer id -> {epoch, next sequence}
            Map<Long, Boolean> inTxn = new HashMap<>();
            int batches = gen.size(1, 60);
            for (int i = 0; i < batches; i++) {
                if (gen.oneIn(12)) {
                    epoch++;
                }
                // old producers write early, recent ones late: some are expired at NOW, some active
                long ts = NOW - 3 * 3_600_000L + (long) i * 3 * 3_600_000L / batches + gen.intBetween(-1000, 1000);
                int kind = gen.intBetween(0, 9);
                long pid = kind <= 4 ? -1L : kind <= 6 ? 1000 + gen.intBetween(0, 2) : 2000 + gen.intBetween(0, 2);
                boolean txnProducer = pid >= 2000;
                if (txnProducer && inTxn.getOrDefault(pid, false) && gen.bool()) {
                    int[] st = seqs.get(pid);
                    ControlRecordType type = gen.bool() ? ControlRecordType.COMMIT : ControlRecordType.ABORT;
                    MemoryRecords marker = MemoryRecords.withEndTransactionMarker(offset, ts, epoch, pid, (short) st[0],
                            new EndTransactionMarker(type, 0));
                    log.appendAsFollower(marker, epoch);
                    offset++;
                    inTxn.put(pid, false);
                    if (gen.oneIn(4)) {
                        st[0]++;   // the next transaction comes with a new epoch
                        st[1] = 0;
                    }
                    maybeRoll(gen, log);
                    continue;
                }
                if (i == batches - 1) {
                    // most transactions end before the log does, so the last stable offset is not stuck at the start
                    for (Map.Entry<Long, Boolean> t : inTxn.entrySet()) {
                        if (t.getValue() && !gen.oneIn(4)) {
                            ControlRecordType type = gen.bool() ? ControlRecordType.COMMIT : ControlRecordType.ABORT;
                            log.appendAsFollower(MemoryRecords.withEndTransactionMarker(offset, ts, epoch, t.getKey(),
                                    (short) seqs.get(t.getKey())[0], new EndTransactionMarker(type, 0)), epoch);
                            offset++;
                            t.setValue(false);
                        }
                    }
                }
                int[] st = pid < 0 ? null : seqs.computeIfAbsent(pid, p -> new int[] {0, 0});
                boolean transactional = txnProducer;
                if (transactional) {
                    inTxn.put(pid, true);
                }
                Compression codec = partitionCodec != null ? partitionCodec : gen.choose(codecs);
                TimestampType tt = gen.oneIn(6) ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME;
                long horizon = gen.oneIn(6) ? NOW + gen.choose(-5000L, 5000L, 0L) : RecordBatch.NO_TIMESTAMP;
                int n = gen.size(1, 25);
                MemoryRecordsBuilder b = new MemoryRecordsBuilder(new ByteBufferOutputStream(256), RecordBatch.MAGIC_VALUE_V2,
                        codec, tt, offset, tt == TimestampType.LOG_APPEND_TIME ? ts : RecordBatch.NO_TIMESTAMP,
                        pid, pid < 0 ? RecordBatch.NO_PRODUCER_EPOCH : (short) st[0],
                        pid < 0 ? RecordBatch.NO_SEQUENCE : st[1], transactional, false, epoch, Integer.MAX_VALUE, horizon);
                for (int r = 0; r < n; r++) {
                    byte[] key = gen.oneIn(60) ? null
                            : ("key-" + gen.intBetween(0, keySpace - 1)).getBytes(StandardCharsets.UTF_8);
                    byte[] value = gen.oneIn(5) ? null : gen.bytes(0, gen.oneIn(10) ? 2000 : 60);
                    Header[] headers = gen.oneIn(6)
                            ? new Header[] {new RecordHeader("h" + gen.intBetween(0, 3), gen.oneIn(3) ? null : gen.bytes(0, 8))}
                            : new Header[0];
                    b.appendWithOffset(offset, new SimpleRecord(ts + gen.intBetween(0, 500), key, value, headers));
                    offset += gen.oneIn(10) ? gen.intBetween(2, 5) : 1;
                }
                MemoryRecords built = b.build();
                if (st != null) {
                    RecordBatch only = built.batches().iterator().next();
                    st[1] += (int) (only.lastOffset() - only.baseOffset() + 1);
                }
                log.appendAsFollower(built, epoch);
                maybeRoll(gen, log);
            }
            log.flush(true);
        } finally {
            log.close();
            scheduler.shutdown();
        }
        return dir;
    }

    private static void maybeRoll(Gen gen, UnifiedLog log) throws Exception {
        if (gen.oneIn(5) && log.activeSegment().size() > 0) {
            log.roll();
        }
    }
}
