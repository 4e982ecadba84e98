package io.segscope.format.salvage;

import io.segscope.format.compact.KafkaCleanerOracle;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.log.BatchMetadata;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.LogSegment;
import org.apache.kafka.storage.internals.log.ProducerStateEntry;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.apache.kafka.storage.internals.log.UnifiedLog;
import org.apache.kafka.storage.log.metrics.BrokerTopicStats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A partition dir as Kafka 4.4.0's {@code UnifiedLog} loads it (test scope): the log end offset,
 * each segment's size and batches after loading, the producer state, the leader epochs and the
 * aborted transactions of each segment's {@code .txnindex}. Loading may change the files: callers
 * load copies.
 */
public record KafkaLoad(long logEndOffset, long logStartOffset, Map<Long, Integer> segmentSizes, List<String> batches,
                 Map<Long, String> producers, List<String> epochs, Map<Long, List<String>> abortedTxns) {

    /**
     * Loads {@code dir} after an unclean shutdown with the given recovery point (0: every segment is
     * recovered, as after a crash with nothing flushed) and closes it.
     */
    public static KafkaLoad load(Path dir, long logStartOffset, long recoveryPoint) throws IOException {
        return load(dir, logStartOffset, recoveryPoint, false);
    }

    /**
     * Loads {@code dir} as after a clean shutdown ({@code clean}: nothing recovered, the producer
     * state read from the latest snapshot) or an unclean one, and closes it.
     */
    public static KafkaLoad load(Path dir, long logStartOffset, long recoveryPoint, boolean clean) throws IOException {
        return withLog(dir, logStartOffset, recoveryPoint, clean, KafkaLoad::of);
    }

    /** What a test reads from a loaded log. */
    @FunctionalInterface
    public interface LogQuery<T> {
        T apply(UnifiedLog log) throws IOException;
    }

    /** Loads {@code dir} (see {@link #load(Path, long, long, boolean)}), runs {@code query} on it and closes it. */
    public static <T> T withLog(Path dir, long logStartOffset, long recoveryPoint, boolean clean, LogQuery<T> query)
            throws IOException {
        Map<String, Object> props = new HashMap<>();
        props.put("file.delete.delay.ms", "3600000");
        LogConfig config = new LogConfig(props);
        KafkaScheduler scheduler = new KafkaScheduler(1);
        scheduler.startup();
        try {
            UnifiedLog log = UnifiedLog.create(dir.toFile(), config, logStartOffset, recoveryPoint, scheduler,
                    new BrokerTopicStats(), KafkaCleanerOracle.fixed(0), 60_000,
                    new ProducerStateManagerConfig(Integer.MAX_VALUE, false), 600_000, new LogDirFailureChannel(1),
                    clean, Optional.empty());
            try {
                return query.apply(log);
            } finally {
                log.close();
            }
        } finally {
            try {
                scheduler.shutdown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static KafkaLoad of(UnifiedLog log) throws IOException {
        Map<Long, Integer> sizes = new TreeMap<>();
        List<String> batches = new ArrayList<>();
        Map<Long, List<String>> aborted = new TreeMap<>();
        for (LogSegment s : log.logSegments()) {
            sizes.put(s.baseOffset(), s.size());
            FileRecords records = s.log();
            for (RecordBatch b : records.batches()) {
                batches.add(b.baseOffset() + ".." + b.lastOffset() + " magic " + b.magic() + " crc " + b.checksum()
                        + " bytes " + b.sizeInBytes());
            }
            List<String> txns = new ArrayList<>();
            s.txnIndex().allAbortedTxns().forEach(t -> txns.add(t.producerId() + " " + t.firstOffset() + ".."
                    + t.lastOffset() + " lso " + t.lastStableOffset()));
            if (!txns.isEmpty()) {
                aborted.put(s.baseOffset(), txns);
            }
        }
        Map<Long, String> producers = new TreeMap<>();
        for (Map.Entry<Long, ProducerStateEntry> e : log.producerStateManager().activeProducers().entrySet()) {
            ProducerStateEntry p = e.getValue();
            BatchMetadata last = p.batchMetadata().stream().reduce((a, b) -> b).orElse(null);
            producers.put(e.getKey(), "epoch " + p.producerEpoch() + " lastSeq " + (last == null ? -1 : last.lastSeq())
                    + " lastOffset " + p.lastDataOffset() + " delta " + (last == null ? 0 : last.offsetDelta())
                    + " ts " + p.lastTimestamp()
                    + " coordinatorEpoch " + p.coordinatorEpoch() + " txnFirst " + p.currentTxnFirstOffset());
        }
        List<String> epochs = new ArrayList<>();
        log.leaderEpochCache().epochEntries().forEach(e -> epochs.add(e.epoch() + " " + e.startOffset()));
        return new KafkaLoad(log.logEndOffset(), log.logStartOffset(), sizes, batches, producers, epochs, aborted);
    }

    /** Copies the regular files of {@code from} into a new dir {@code to}. */
    public static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (var s = Files.list(from)) {
            for (Path f : s.toList()) {
                if (Files.isRegularFile(f)) {
                    Files.copy(f, to.resolve(f.getFileName()));
                }
            }
        }
    }
}
