package io.segscope.format.replay;

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
