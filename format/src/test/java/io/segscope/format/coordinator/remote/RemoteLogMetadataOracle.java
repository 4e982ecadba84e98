package io.segscope.format.coordinator.remote;

import io.segscope.format.coordinator.DumpLogSegmentsParser;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.server.log.remote.metadata.storage.RemoteLogSegmentMetadataSnapshot;
import org.apache.kafka.server.log.remote.storage.RemoteLogMetadata;
import org.apache.kafka.server.log.remote.storage.RemoteLogSegmentId;
import org.apache.kafka.server.log.remote.storage.RemoteLogSegmentMetadata;
import org.apache.kafka.server.log.remote.storage.RemoteLogSegmentMetadataUpdate;
import org.apache.kafka.server.log.remote.storage.RemoteLogSegmentState;
import org.apache.kafka.server.log.remote.storage.RemotePartitionDeleteMetadata;
import org.apache.kafka.server.log.remote.storage.RemotePartitionDeleteState;

/**
 * Kafka 4.4.0's side of the {@code __remote_log_metadata} tests: random {@link RemoteLogMetadata}
 * objects of the four kinds, and what DumpLogSegments' {@code --remote-log-metadata-decoder}
 * parser prints for a value.
 */
public final class RemoteLogMetadataOracle {
    private static final DumpLogSegmentsParser PARSER = new DumpLogSegmentsParser("RemoteMetadataLogMessageParser");

    private RemoteLogMetadataOracle() {
    }

    /** What the tool prints after {@code payload: } for this value at {@code offset}. */
    public static String dumpPayload(byte[] value, long offset) {
        return PARSER.payload(value, offset);
    }

    /** A random object of kind {@code kind} (0-3, the apiKeys). */
    public static RemoteLogMetadata random(int kind, Random r) {
        TopicIdPartition tp = new TopicIdPartition(uuid(r), new TopicPartition(name(r), r.nextInt(100)));
        RemoteLogSegmentId id = new RemoteLogSegmentId(tp, uuid(r));
        long start = r.nextInt(3) == 0 ? 0 : r.nextLong() >>> 2;
        long end = start + r.nextInt(100_000);
        Map<Integer, Long> epochs = new HashMap<>();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            epochs.put(r.nextInt(50), start + r.nextInt(1000));
        }
        Optional<RemoteLogSegmentMetadata.CustomMetadata> custom = r.nextBoolean() ? Optional.empty()
                : Optional.of(new RemoteLogSegmentMetadata.CustomMetadata(new byte[r.nextInt(40)]));
        RemoteLogSegmentState state = RemoteLogSegmentState.values()[r.nextInt(RemoteLogSegmentState.values().length)];
        switch (kind) {
            case 0:
                return new RemoteLogSegmentMetadata(id, start, end, r.nextLong(), r.nextInt(10), r.nextLong(), r.nextInt(),
                        custom, state, epochs, r.nextBoolean());
            case 1:
                return new RemoteLogSegmentMetadataUpdate(id, r.nextLong(), custom, state, r.nextInt(10));
            case 2:
                return new RemotePartitionDeleteMetadata(tp,
                        RemotePartitionDeleteState.values()[r.nextInt(RemotePartitionDeleteState.values().length)],
                        r.nextLong(), r.nextInt(10));
            default:
                return new RemoteLogSegmentMetadataSnapshot(uuid(r), start, end, r.nextLong(), r.nextInt(10), r.nextLong(),
                        r.nextInt(), custom, state, epochs, r.nextBoolean());
        }
    }

    private static Uuid uuid(Random r) {
        return new Uuid(r.nextLong(), r.nextLong());
    }

    private static String name(Random r) {
        String[] names = {"orders", "tiered-ü", "a,b \"c\"", "t"};
        return names[r.nextInt(names.length)] + r.nextInt(10);
    }
}
