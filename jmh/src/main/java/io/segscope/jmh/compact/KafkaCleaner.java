package io.segscope.jmh.compact;

import io.segscope.format.compact.CompactSettings;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.log.Cleaner;
import org.apache.kafka.storage.internals.log.CleanerStats;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.LogToClean;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.apache.kafka.storage.internals.log.SkimpyOffsetMap;
import org.apache.kafka.storage.internals.log.UnifiedLog;
import org.apache.kafka.storage.internals.utils.Throttler;
import org.apache.kafka.storage.log.metrics.BrokerTopicStats;

/**
 * Kafka 4.4.0's log cleaner driven offline on a copy of a partition, as segscope's own test oracle
 * ({@code format}'s {@code KafkaCleanerOracle}) drives it, split in two so that a benchmark can time
 * the cleaning alone:
 *
 * <ol>
 *   <li>{@link #open}: the copy (segments with their modification times, no producer snapshots) is
 *   opened by {@code UnifiedLog.create} as after an unclean shutdown (recovery rebuilds every index,
 *   {@code .txnindex} and the producer state from the whole log), the high watermark set to the log
 *   end, expired producers removed at "now", and the log rolled when every segment is to be cleaned;
 *   the {@code Cleaner} and its {@code SkimpyOffsetMap} (the dedupe buffer) are allocated;</li>
 *   <li>{@link Session#clean}: {@code Cleaner.doClean} pass after pass from the log start offset,
 *   each continuing at the previous pass's end offset, until no dirty bytes are left (the cleaner
 *   thread's loop with a minimum dirty ratio of 0). This is what the benchmark measures: reading,
 *   the key map, filtering, writing the {@code .cleaned} segments with their indexes, flushing
 *   them, and swapping them into the log.</li>
 * </ol>
 */
public final class KafkaCleaner {
    private KafkaCleaner() {
    }

    /** What Kafka did: per pass, its end offset and {@code CleanerStats}. */
    public record Result(List<Long> endOffsets, List<CleanerStats> stats) {
        public int rounds() {
            return endOffsets.size();
        }

        /** The sum of the passes' {@code bytesRead} (the rewrite's input). */
        public long bytesRead() {
            return stats.stream().mapToLong(CleanerStats::bytesRead).sum();
        }
    }

    /** Copies the segment files of {@code source} (no producer snapshots) into {@code copy}, keeping their times. */
    public static void copy(Path source, Path copy) throws IOException {
        Files.createDirectories(copy);
        try (Stream<Path> files = Files.list(source)) {
            for (Path f : files.toList()) {
                String n = f.getFileName().toString();
                if (Files.isRegularFile(f) && !n.endsWith(".snapshot")) {
                    Files.copy(f, copy.resolve(n), StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /**
     * Opens {@code dir} with Kafka's {@code UnifiedLog} and closes it: recovery rebuilds the indexes,
     * the {@code .txnindex} files and the producer state, as a broker writes them while appending.
     */
    public static void recover(Path dir, CompactSettings s) throws IOException {
        new Session(dir, s, false).close();
    }

    /** Opens {@code copy} (a copy made by {@link #copy}) with Kafka's {@code UnifiedLog}, ready to clean. */
    public static Session open(Path copy, CompactSettings s) throws IOException {
        return new Session(copy, s, true);
    }

    /** A copy opened by Kafka's {@code UnifiedLog} and a cleaner with its dedupe buffer. */
    public static final class Session implements AutoCloseable {
        private final KafkaScheduler scheduler = new KafkaScheduler(1);
        private final Time time;
        private final UnifiedLog log;
        private final Path dir;
        private final Cleaner cleaner;
        private boolean cleaned;

        Session(Path copy, CompactSettings s, boolean prepare) throws IOException {
            this.dir = copy;
            Map<String, Object> props = new HashMap<>();
            props.put("cleanup.policy", "compact");
            props.put("delete.retention.ms", Long.toString(s.deleteRetentionMs()));
            props.put("min.compaction.lag.ms", Long.toString(s.minCompactionLagMs()));
            props.put(LogConfig.INTERNAL_SEGMENT_BYTES_CONFIG, Integer.toString(s.segmentBytes()));
            props.put("segment.index.bytes", Integer.toString(s.maxIndexBytes()));
            props.put("index.interval.bytes", Integer.toString(s.indexIntervalBytes()));
            props.put("max.message.bytes", Integer.toString(s.maxMessageBytes()));
            props.put("file.delete.delay.ms", "3600000");
            LogConfig config = new LogConfig(props);
            long now = s.now();
            time = new Time() {
                @Override
                public long milliseconds() {
                    return now;
                }

                @Override
                public long nanoseconds() {
                    return System.nanoTime();
                }

                @Override
                public void sleep(long ms) {
                }

                @Override
                public void waitObject(Object obj, Supplier<Boolean> condition, long deadlineMs) {
                }
            };
            scheduler.startup();
            log = UnifiedLog.create(copy.toFile(), config, 0L, 0L, scheduler, new BrokerTopicStats(), time,
                    60_000, new ProducerStateManagerConfig((int) Math.min(Integer.MAX_VALUE, s.producerIdExpirationMs()), false),
                    600_000, new LogDirFailureChannel(1), false, Optional.empty());
            if (!prepare) {
                cleaner = null;
                return;
            }
            long logEnd = log.logEndOffset();
            log.updateHighWatermark(s.highWatermark() < 0 ? logEnd : s.highWatermark());
            log.removeExpiredProducers(s.now());
            if (s.cleanUpTo() >= logEnd && log.activeSegment().size() > 0) {
                log.roll();
            }
            SkimpyOffsetMap map;
            try {
                map = new SkimpyOffsetMap(s.mapMemory());
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
            cleaner = new Cleaner(0, map, s.readBufferBytes(), s.maxMessageBytes(),
                    s.loadFactor(), new Throttler(Double.MAX_VALUE, 300, "cleaner-io", "bytes", time), time, tp -> { });
        }

        public Path dir() {
            return dir;
        }

        /** Cleaning passes from the log start offset until nothing is dirty; once per session. */
        public Result clean(CompactSettings s) throws IOException {
            if (cleaned) {
                throw new IllegalStateException("a session cleans once");
            }
            cleaned = true;
            long firstDirty = log.logStartOffset();
            List<Long> ends = new ArrayList<>();
            List<CleanerStats> stats = new ArrayList<>();
            while (true) {
                long active = log.activeSegment().baseOffset();
                long uncleanable = Math.min(log.lastStableOffset(), active);
                if (s.cleanUpTo() >= 0) {
                    uncleanable = Math.min(uncleanable, s.cleanUpTo());
                }
                LogToClean ltc = new LogToClean(log, firstDirty, Math.max(firstDirty, uncleanable), false);
                if (ltc.cleanableBytes() == 0) {
                    break;
                }
                Map.Entry<Long, CleanerStats> r;
                try {
                    r = cleaner.doClean(ltc, s.now());
                } catch (java.security.DigestException e) {
                    throw new IllegalStateException(e);
                }
                ends.add(r.getKey());
                stats.add(r.getValue());
                firstDirty = r.getKey();
            }
            return new Result(ends, stats);
        }

        @Override
        public void close() {
            log.close();
            try {
                scheduler.shutdown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Kafka keeps {@code CleanerStats.mapBytesRead} package-private. */
    public static long mapBytesRead(CleanerStats k) {
        try {
            Field f = CleanerStats.class.getDeclaredField("mapBytesRead");
            f.setAccessible(true);
            return f.getLong(k);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
