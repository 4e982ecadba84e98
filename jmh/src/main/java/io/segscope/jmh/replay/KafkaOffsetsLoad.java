package io.segscope.jmh.replay;

import io.segscope.format.replay.KafkaShards;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.requests.TransactionResult;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.LogContext;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.common.runtime.Deserializer.UnknownRecordTypeException;
import org.apache.kafka.coordinator.common.runtime.SnapshottableCoordinator;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.coordinator.group.GroupCoordinatorShard;
import org.apache.kafka.timeline.SnapshotRegistry;

/**
 * Kafka 4.4.0's own load of a {@code __consumer_offsets} partition, in this JVM, as the broker's
 * {@code CoordinatorLoaderImpl} does it, without a {@code UnifiedLog}: each segment is read with
 * {@link FileRecords#readInto} into one heap buffer of {@code offsets.load.buffer.size} (5 MiB),
 * its batches iterated by {@link MemoryRecords}; a control batch is replayed with
 * {@code replayEndTransactionMarker}, every other record is deserialized by
 * {@link GroupCoordinatorRecordSerde} (unknown types skipped) and replayed into a
 * {@link GroupCoordinatorShard} through a {@link SnapshottableCoordinator}, with the loader's
 * {@code updateLastWrittenOffset}/{@code updateLastCommittedOffset} every
 * {@code commitIntervalOffsets} (100,000) offsets and at the end (the high watermark is the log end).
 */
public final class KafkaOffsetsLoad {
    static final int LOAD_BUFFER_SIZE = 5 * 1024 * 1024;
    static final long COMMIT_INTERVAL_OFFSETS = 100_000;
    static final TopicPartition TP = new TopicPartition("__consumer_offsets", 0);

    private KafkaOffsetsLoad() {
    }

    /** Loads {@code segments} (one partition's .log files in offset order) into a new shard. */
    public static GroupCoordinatorShard load(List<Path> segments) throws IOException {
        LogContext lc = new LogContext();
        SnapshotRegistry registry = new SnapshotRegistry(lc);
        GroupCoordinatorShard shard = KafkaShards.newShard(Time.SYSTEM, lc, registry, TP);
        SnapshottableCoordinator<GroupCoordinatorShard, CoordinatorRecord> coordinator =
                new SnapshottableCoordinator<>(lc, registry, shard, TP);
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
        coordinator.updateLastWrittenOffset(current);
        coordinator.updateLastCommittedOffset(current);
        return shard;
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
