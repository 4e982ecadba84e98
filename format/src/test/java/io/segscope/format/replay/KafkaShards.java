package io.segscope.format.replay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.requests.TransactionResult;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.common.runtime.Deserializer.UnknownRecordTypeException;
import org.apache.kafka.coordinator.common.runtime.SnapshottableCoordinator;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.LogContext;
import org.apache.kafka.coordinator.common.runtime.CoordinatorExecutor;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.common.runtime.CoordinatorTimer;
import org.apache.kafka.coordinator.group.GroupConfigManager;
import org.apache.kafka.coordinator.group.GroupCoordinatorConfig;
import org.apache.kafka.coordinator.group.GroupCoordinatorShard;
import org.apache.kafka.coordinator.group.metrics.GroupCoordinatorMetrics;
import org.apache.kafka.coordinator.group.modern.share.ShareGroupConfig;
import org.apache.kafka.timeline.SnapshotRegistry;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real Kafka 4.4.0 {@link GroupCoordinatorShard}, built offline as the broker builds one for a
 * {@code __consumer_offsets} partition (default configs, no timer or executor work): the oracle of
 * the replay tests and Kafka's side of the replay benchmark in {@code jmh} (which takes this class
 * from the format test-jar).
 */
public final class KafkaShards {
    private KafkaShards() {
    }

    /** A shard of {@code partition} whose clock is {@code time}. */
    public static GroupCoordinatorShard newShard(Time time, LogContext lc, SnapshotRegistry registry, TopicPartition partition) {
        ConfigDef def = new ConfigDef(GroupCoordinatorConfig.CONFIG_DEF);
        ShareGroupConfig.CONFIG_DEF.configKeys().values().forEach(k -> {
            if (!def.configKeys().containsKey(k.name)) {
                def.define(k);
            }
        });
        AbstractConfig ac = new AbstractConfig(def, Map.of());
        GroupCoordinatorConfig config = new GroupCoordinatorConfig(ac);
        GroupCoordinatorShard.Builder b = new GroupCoordinatorShard.Builder(config,
                new GroupConfigManager(config, new ShareGroupConfig(ac)));
        b.withAuthorizerPlugin(Optional.empty());
        return (GroupCoordinatorShard) b.withLogContext(lc).withTime(time).withTimer(new NoTimer())
                .withExecutor(new NoExecutor()).withCoordinatorMetrics(new GroupCoordinatorMetrics())
                .withTopicPartition(partition).withSnapshotRegistry(registry).build();
    }

    static final int LOAD_BUFFER_SIZE = 5 * 1024 * 1024;
    static final long COMMIT_INTERVAL_OFFSETS = 100_000;

    /**
     * Loads {@code segments} (one partition's .log files in offset order) into a new shard as the
     * broker's {@code CoordinatorLoaderImpl} does it, without a {@code UnifiedLog}: each segment is
     * read with {@link FileRecords#readInto} into one heap buffer of {@code offsets.load.buffer.size}
     * (5 MiB), its batches iterated by {@link MemoryRecords}; a control batch is replayed with
     * {@code replayEndTransactionMarker}, every other record is deserialized by
     * {@link GroupCoordinatorRecordSerde} (unknown types skipped) and replayed through a
     * {@link SnapshottableCoordinator}, with the loader's {@code updateLastWrittenOffset} /
     * {@code updateLastCommittedOffset} every {@code commitIntervalOffsets} (100,000) offsets and at
     * the end (the high watermark is the log end).
     */
    public static GroupCoordinatorShard load(Time time, List<Path> segments) throws IOException {
        LogContext lc = new LogContext();
        SnapshotRegistry registry = new SnapshotRegistry(lc);
        TopicPartition tp = new TopicPartition("__consumer_offsets", 0);
        GroupCoordinatorShard shard = newShard(time, lc, registry, tp);
        SnapshottableCoordinator<GroupCoordinatorShard, CoordinatorRecord> coordinator =
                new SnapshottableCoordinator<>(lc, registry, shard, tp);
        GroupCoordinatorRecordSerde serde = new GroupCoordinatorRecordSerde();
        ByteBuffer buffer = ByteBuffer.allocate(LOAD_BUFFER_SIZE);
        long lastCommitted = 0;
        long current = 0;
        for (Path segment : segments) {
            try (FileRecords file = FileRecords.open(segment.toFile(), false)) {
                int size = file.sizeInBytes();
                int position = 0;
                while (position < size) {
                    buffer.clear();
                    file.readInto(buffer, position);
                    MemoryRecords records = MemoryRecords.readableRecords(buffer);
                    int consumed = 0;
                    for (MutableRecordBatch batch : records.batches()) {
                        consumed += batch.sizeInBytes();
                        if (batch.isControlBatch()) {
                            for (Record r : batch) {
                                ControlRecordType type = ControlRecordType.parse(r.key());
                                if (type == ControlRecordType.COMMIT) {
                                    coordinator.replayEndTransactionMarker(batch.producerId(), batch.producerEpoch(),
                                            TransactionResult.COMMIT);
                                } else if (type == ControlRecordType.ABORT) {
                                    coordinator.replayEndTransactionMarker(batch.producerId(), batch.producerEpoch(),
                                            TransactionResult.ABORT);
                                }
                            }
                        } else {
                            for (Record r : batch) {
                                CoordinatorRecord rec;
                                try {
                                    rec = serde.deserialize(r.key(), r.value());
                                } catch (UnknownRecordTypeException skipped) {
                                    continue;
                                }
                                coordinator.replay(r.offset(), batch.producerId(), batch.producerEpoch(), rec);
                            }
                        }
                        current = batch.nextOffset();
                        if (current - lastCommitted >= COMMIT_INTERVAL_OFFSETS) {
                            coordinator.updateLastWrittenOffset(current);
                            coordinator.updateLastCommittedOffset(current);
                            lastCommitted = current;
                        }
                    }
                    if (consumed == 0) {
                        throw new IOException(segment + ": no whole batch at position " + position);
                    }
                    position += consumed;
                }
            }
        }
        if (current > lastCommitted) {
            coordinator.updateLastWrittenOffset(current);
            coordinator.updateLastCommittedOffset(current);
        }
        return shard;
    }

    /** A clock a test moves by hand. */
    public static final class Clock implements Time {
        private final long[] now;

        public Clock(long[] now) {
            this.now = now;
        }

        public long milliseconds() {
            return now[0];
        }

        public long nanoseconds() {
            return now[0] * 1_000_000;
        }

        public void sleep(long ms) {
            now[0] += ms;
        }

        public void waitObject(Object o, java.util.function.Supplier<Boolean> condition, long deadlineMs) {
        }
    }

    static final class NoTimer implements CoordinatorTimer<CoordinatorRecord> {
        public void schedule(String key, long delay, TimeUnit unit, boolean retry, TimeoutOperation<CoordinatorRecord> op) {
        }

        public void schedule(String key, long delay, TimeUnit unit, boolean retry, long backoff, TimeoutOperation<CoordinatorRecord> op) {
        }

        public void scheduleIfAbsent(String key, long delay, TimeUnit unit, boolean retry, TimeoutOperation<CoordinatorRecord> op) {
        }

        public void cancel(String key) {
        }

        public boolean isScheduled(String key) {
            return false;
        }
    }

    static final class NoExecutor implements CoordinatorExecutor<CoordinatorRecord> {
        public <R> boolean schedule(String key, TaskRunnable<R> task, TaskOperation<CoordinatorRecord, R> op) {
            return false;
        }

        public boolean isScheduled(String key) {
            return false;
        }

        public void cancel(String key) {
        }
    }
}
