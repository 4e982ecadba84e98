package io.segscope.jmh.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.apache.kafka.storage.internals.log.UnifiedLog;
import org.apache.kafka.storage.log.metrics.BrokerTopicStats;

/**
 * What a Kafka 4.4.0 broker leaves in a {@code __consumer_offsets} partition directory besides the
 * {@code .log} files: the generated directory is opened by Kafka's {@code UnifiedLog} as a broker
 * opens it after an unclean shutdown (no recovery point: {@code LogLoader} recovers every segment,
 * which writes each one's {@code .index} and {@code .timeindex} every {@code index.interval.bytes},
 * the {@code .txnindex} of the aborted transactions, the {@code leader-epoch-checkpoint} from the
 * batches' partition leader epochs and the producer state), then shut down cleanly as
 * {@code LogManager.shutdown} does ({@code prepareActiveSegmentForClose}, which trims the active
 * segment's preallocated indexes, {@code flush(true)}, {@code close}, which writes the producer
 * snapshot). The {@code .log} bytes are not changed. The topic's configuration is the one the group
 * coordinator creates {@code __consumer_offsets} with: compacted, segments of
 * {@code offsets.topic.segment.bytes} (100 MiB); the rest is Kafka's defaults (the broker's
 * {@code transaction.max.timeout.ms} and {@code producer.id.expiration.ms} included). The clock stands at
 * {@code now}, the log's last timestamp, so that no producer has expired.
 */
final class BrokerRestart {
    private BrokerRestart() {
    }

    static void recoverAndShutDown(Path partitionDir, long now) throws IOException {
        LogConfig config = new LogConfig(Map.of("cleanup.policy", "compact",
                "segment.bytes", Integer.toString(OffsetsSegmentGenerator.OFFSETS_SEGMENT_BYTES)));
        KafkaScheduler scheduler = new KafkaScheduler(1);
        scheduler.startup();
        try {
            recoverAndShutDown(partitionDir, now, config, Optional.empty(), scheduler);
        } finally {
            try {
                scheduler.shutdown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The same with the topic's {@code config} and {@code scheduler}; with a {@code topicId}, Kafka
     * also writes {@code partition.metadata}. Returns the log end offset.
     */
    static long recoverAndShutDown(Path partitionDir, long now, LogConfig config, Optional<Uuid> topicId,
            KafkaScheduler scheduler) throws IOException {
        UnifiedLog log = UnifiedLog.create(partitionDir.toFile(), config, 0L, 0L, scheduler, new BrokerTopicStats(),
                clock(now), 900_000, new ProducerStateManagerConfig(86_400_000, false), 600_000,
                new LogDirFailureChannel(1), false, topicId);
        long end = log.logEndOffset();
        log.prepareActiveSegmentForClose();
        log.flush(true);
        log.close();
        return end;
    }

    private static Time clock(long now) {
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
}
