package io.segscope.format.compact;

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

/**
 * Kafka 4.4.0's own cleaner, driven offline on a copy of a partition directory with the settings and
 * clock segscope is given: the copy (segments with their modification times, no producer snapshots,
 * so the producer state is rebuilt from the whole log) is opened by {@code UnifiedLog.create} as
 * after an unclean shutdown (recovery rebuilds every index and {@code .txnindex}), the high
 * watermark set, expired producers removed at "now", the log rolled when every segment is to be
 * cleaned, and then {@code Cleaner.doClean} runs pass after pass from the first dirty offset, each
 * continuing at the previous pass's end offset, until no dirty bytes are left (the cleaner thread's
 * loop with a minimum dirty ratio of 0). The oracle of the compaction tests and Kafka's side of the
 * compaction benchmark in {@code jmh} (which takes this class from the format test-jar, and prepares
 * a session outside the time it measures).
 */
public final class KafkaCleanerOracle {
    private KafkaCleanerOracle() {
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

    /** A clock standing still at {@code now[0]} (the nanosecond clock runs, for the stats' durations). */
    static Time clock(long[] now) {
        return new Time() {
            @Override
            public long milliseconds() {
                return now[0];
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
    }

    /** A clock standing still at {@code now}. */
    public static Time fixed(long now) {
        return clock(new long[] {now});
    }

    /** Copies {@code source} to {@code copy} (a directory of the same name, not existing yet), cleans the copy and closes it. */
    static Result clean(Path source, Path copy, CompactSettings s) throws IOException {
        try (Session session = open(source, copy, s)) {
            return session.clean(s);
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
     * Copies {@code source} to {@code copy} and opens the copy; {@link Session#clean} may then run
     * several times on the same open log, as a broker's cleaner does on a live partition (the
     * {@code .txnindex} files it wrote are read back as written, the producer state kept).
     */
    static Session open(Path source, Path copy, CompactSettings s) throws IOException {
        copy(source, copy);
        return new Session(copy, s);
    }

    /** Opens {@code copy} (made by {@link #copy}) with Kafka's {@code UnifiedLog}. */
    public static Session open(Path copy, CompactSettings s) throws IOException {
        return new Session(copy, s);
    }

    /**
     * Opens {@code dir} with Kafka's {@code UnifiedLog} and closes it: recovery rebuilds the indexes,
     * the {@code .txnindex} files and the producer state, as a broker writes them while appending.
     */
    public static void recover(Path dir, CompactSettings s) throws IOException {
        new Session(dir, s).close();
    }

    /** A copy opened by Kafka's {@code UnifiedLog}, with a clock that each {@link #clean} sets. */
    public static final class Session implements AutoCloseable {
        private final KafkaScheduler scheduler = new KafkaScheduler(1);
        private final long[] now = new long[1];
        private final Time time;
        private final UnifiedLog log;
        private final Path dir;
        private Cleaner prepared;

        Session(Path copy, CompactSettings s) throws IOException {
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
            now[0] = s.now();
            time = clock(now);
            scheduler.startup();
            log = UnifiedLog.create(copy.toFile(), config, 0L, 0L, scheduler, new BrokerTopicStats(), time,
                    60_000, new ProducerStateManagerConfig((int) Math.min(Integer.MAX_VALUE, s.producerIdExpirationMs()), false),
                    600_000, new LogDirFailureChannel(1), false, Optional.empty());
        }

        public Path dir() {
            return dir;
        }

        /**
         * Everything before the passes, with the settings' clock: the high watermark, expired producers
         * removed, the roll when every segment is to be cleaned, the cleaner and its offset map
         * allocated. {@link #clean} does it when it was not done.
         */
        public void prepare(CompactSettings s) throws IOException {
            now[0] = s.now();
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
            prepared = new Cleaner(0, map, s.readBufferBytes(), s.maxMessageBytes(),
                    s.loadFactor(), new Throttler(Double.MAX_VALUE, 300, "cleaner-io", "bytes", time), time, tp -> { });
        }

        /** Cleaning passes with the settings' clock, from the settings' first dirty offset until nothing is dirty. */
        public Result clean(CompactSettings s) throws IOException {
            if (prepared == null) {
                prepare(s);
            }
            Cleaner cleaner = prepared;
            prepared = null;
            long firstDirty = s.firstDirtyOffset() < 0 ? log.logStartOffset() : s.firstDirtyOffset();
            if (firstDirty < log.logStartOffset() || firstDirty > log.logEndOffset()) {
                firstDirty = log.logStartOffset();   // LogCleanerManager.cleanableOffsets' reset of a bad checkpoint
            }
            List<Long> ends = new ArrayList<>();
            List<CleanerStats> stats = new ArrayList<>();
            while (true) {
                long active = log.activeSegment().baseOffset();
                long uncleanable = Math.min(log.lastStableOffset(), active);
                if (s.cleanUpTo() >= 0) {
                    uncleanable = Math.min(uncleanable, s.cleanUpTo());
                }
                if (s.minCompactionLagMs() > 0 && firstDirty <= active) {
                    for (var seg : log.logSegments(firstDirty, active)) {
                        if (seg.largestTimestamp() > s.now() - s.minCompactionLagMs()) {
                            uncleanable = Math.min(uncleanable, seg.baseOffset());
                            break;
                        }
                    }
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
