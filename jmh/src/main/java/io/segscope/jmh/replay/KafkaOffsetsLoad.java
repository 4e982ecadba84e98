package io.segscope.jmh.replay;

import io.segscope.format.replay.KafkaShards;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.group.GroupCoordinatorShard;

/**
 * Kafka 4.4.0's own load of a {@code __consumer_offsets} partition, in this JVM, as the broker's
 * {@code CoordinatorLoaderImpl} does it ({@link KafkaShards#load}, from the format test-jar), and
 * the number of committed offsets it holds.
 */
public final class KafkaOffsetsLoad {
    private KafkaOffsetsLoad() {
    }

    /** Loads {@code segments} (one partition's .log files in offset order) into a new shard ({@link KafkaShards#load}). */
    public static GroupCoordinatorShard load(List<Path> segments) throws IOException {
        return KafkaShards.load(Time.SYSTEM, segments);
    }

    /** The number of committed offsets in the shard (its OffsetMetadataManager's map, by reflection). */
    public static int committedOffsetCount(GroupCoordinatorShard shard) {
        try {
            Object om = field(GroupCoordinatorShard.class, "offsetMetadataManager").get(shard);
            Object offsets = field(om.getClass(), "offsets").get(om);
            Map<?, ?> byGroup = (Map<?, ?>) field(offsets.getClass(), "offsetsByGroup").get(offsets);
            int n = 0;
            for (Object topics : byGroup.values()) {
                for (Object partitions : ((Map<?, ?>) topics).values()) {
                    n += ((Map<?, ?>) partitions).size();
                }
            }
            return n;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Field field(Class<?> c, String name) throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
