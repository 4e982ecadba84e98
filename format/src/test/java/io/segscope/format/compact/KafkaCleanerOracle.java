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
 * cleaned, and then {@code Cleaner.doClean} runs pass after pass from the log start offset, each
 * continuing at the previous pass's end offset, until no dirty bytes are left (the cleaner thread's
 * loop with a minimum dirty ratio of 0).
 */
final class KafkaCleanerOracle {
    private KafkaCleanerOracle() {
    }

    /** What Kafka did: per pass, its end offset and {@code CleanerStats}. */
    record Result(List<Long> endOffsets, List<CleanerStats> stats) {
    }

    /** A clock standing still at {@code now} (the nanosecond clock runs, for the stats' durations). */
    static Time fixed(long now) {
        return new Time() {
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
    }

    /** Copies {@code source} to {@code copy} (a directory of the same name, not existing yet), cleans the copy and closes it. */
    static Result clean(Path source, Path copy, CompactSettings s) throws Exception {
        try (Session session = open(source, copy, s)) {
            return session.clean(s);
        }
    }

    /**
     * Copies {@code source} to {@code copy} and opens the copy; {@link Session#clean} may then run
     * several times on the same open log, as a broker's cleaner does on a live partition (the
     * {@code .txnindex} files it wrote are read back as written, the producer state kept).
     */
    static Session open(Path source, Path copy, CompactSettings s) throws Exception {
        Files.createDirectories(copy);
        try (Stream<Path> files = Files.list(source)) {
            for (Path f : files.toList()) {
                String n = f.getFileName().toString();
                if (Files.isRegularFile(f) && !n.endsWith(".snapshot")) {
                    Files.copy(f, copy.resolve(n), StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return new Session(copy, s);
    }

    /** A copy opened by Kafka's {@code UnifiedLog}, with a clock that each {@link #clean} sets. */
    static final class Session implements AutoCloseable {
        private final KafkaScheduler scheduler = new KafkaScheduler(1);
        private final long[] now = new long[1];
        private final Time time;
        private final UnifiedLog log;
        private final Path dir;

        Session(Path copy, CompactSettings s) throws Exception {
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
            time = new Time() {
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
            scheduler.startup();
            log = UnifiedLog.create(copy.toFile(), config, 0L, 0L, scheduler, new BrokerTopicStats(), time,
                    60_000, new ProducerStateManagerConfig((int) Math.min(Integer.MAX_VALUE, s.producerIdExpirationMs()), false),
                    600_000, new LogDirFailureChannel(1), false, Optional.empty());
        }

        Path dir() {
            return dir;
        }

        /** Cleaning passes with the settings' clock, from the settings' first dirty offset until nothing is dirty. */
        Result clean(CompactSettings s) throws Exception {
            now[0] = s.now();
            long logEnd = log.logEndOffset();
            log.updateHighWatermark(s.highWatermark() < 0 ? logEnd : s.highWatermark());
            log.removeExpiredProducers(s.now());
            if (s.cleanUpTo() >= logEnd && log.activeSegment().size() > 0) {
                log.roll();
            }
            Cleaner cleaner = new Cleaner(0, new SkimpyOffsetMap(s.mapMemory()), s.readBufferBytes(), s.maxMessageBytes(),
                    s.loadFactor(), new Throttler(Double.MAX_VALUE, 300, "cleaner-io", "bytes", time), time, tp -> { });
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
                Map.Entry<Long, CleanerStats> r = cleaner.doClean(ltc, s.now());
                ends.add(r.getKey());
                stats.add(r.getValue());
                firstDirty = r.getKey();
            }
            return new Result(ends, stats);
        }

        @Override
        public void close() throws Exception {
            log.close();
            scheduler.shutdown();
        }
    }
}
