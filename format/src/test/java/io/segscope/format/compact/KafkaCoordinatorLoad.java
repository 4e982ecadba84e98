package io.segscope.format.compact;

import io.segscope.format.replay.KafkaShards;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.utils.internals.LogContext;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.coordinator.group.GroupCoordinatorShard;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;

/**
 * Kafka 4.4.0's group coordinator loading one {@code __consumer_offsets} partition directory as the
 * broker's {@code CoordinatorLoaderImpl} does (every batch of every segment in offset order; a
 * control batch's COMMIT or ABORT to {@code replayEndTransactionMarker}; every other record
 * deserialized by {@link GroupCoordinatorRecordSerde}, unknown types skipped, and replayed with its
 * offset, producer id and epoch), into a real {@link GroupCoordinatorShard} ({@link KafkaShards}),
 * and the resulting state as comparable text: committed and pending offsets (every field of
 * Kafka's {@code OffsetAndMetadata}, read by reflection), the listed groups and what the describe
 * APIs answer for each.
 */
final class KafkaCoordinatorLoad {
    private static final LogContext LC = new LogContext();
    private static final long LATEST = Long.MAX_VALUE;

    /** The loaded state. */
    record State(Map<String, String> offsets, Map<String, String> pending, Map<String, String> groups,
                 Map<String, String> described) {
    }

    private KafkaCoordinatorLoad() {
    }

    static State load(Path partitionDir) throws IOException, ReflectiveOperationException {
        List<Path> logs;
        try (Stream<Path> s = Files.list(partitionDir)) {
            logs = s.filter(p -> p.getFileName().toString().matches("\\d{20}\\.log")).sorted().toList();
        }
        GroupCoordinatorShard shard = KafkaShards.load(new KafkaShards.Clock(new long[] {0}), logs);
        return state(shard);
    }

    private static State state(GroupCoordinatorShard shard) throws ReflectiveOperationException {
        Object om = field(GroupCoordinatorShard.class, "offsetMetadataManager").get(shard);
        Map<String, String> offsets = new TreeMap<>();
        collect(field(om.getClass(), "offsets").get(om), "", offsets);
        Map<String, String> pending = new TreeMap<>();
        Map<?, ?> byProducer = (Map<?, ?>) field(om.getClass(), "pendingTransactionalOffsets").get(om);
        for (Map.Entry<?, ?> e : byProducer.entrySet()) {
            collect(e.getValue(), e.getKey() + "|", pending);
        }

        Map<String, String> groups = new TreeMap<>();
        Map<String, String> described = new TreeMap<>();
        for (ListGroupsResponseData.ListedGroup g : shard.listGroups(List.of(), List.of(), LATEST)) {
            groups.put(g.groupId(), g.groupType() + "/" + g.groupState() + "/" + g.protocolType());
            List<String> id = List.of(g.groupId());
            String d = switch (g.groupType()) {
                case "classic" -> shard.describeGroups(CONTEXT, id, LATEST).toString();
                case "consumer" -> shard.consumerGroupDescribe(id, LATEST).toString();
                case "share" -> shard.shareGroupDescribe(id, LATEST).toString();
                case "streams" -> shard.streamsGroupDescribe(id, LATEST).describedGroups().toString();
                default -> "type " + g.groupType();
            };
            described.put(g.groupId(), d);
        }
        return new State(offsets, pending, groups, described);
    }

    /** Every offset of one {@code OffsetMetadataManager.Offsets}: group|topic|partition to its fields. */
    private static void collect(Object offsetsObject, String prefix, Map<String, String> out)
            throws ReflectiveOperationException {
        Map<?, ?> byGroup = (Map<?, ?>) field(offsetsObject.getClass(), "offsetsByGroup").get(offsetsObject);
        for (Map.Entry<?, ?> g : byGroup.entrySet()) {
            for (Map.Entry<?, ?> t : ((Map<?, ?>) g.getValue()).entrySet()) {
                for (Map.Entry<?, ?> p : ((Map<?, ?>) t.getValue()).entrySet()) {
                    out.put(prefix + g.getKey() + "|" + t.getKey() + "|" + p.getKey(), text(p.getValue()));
                }
            }
        }
    }

    /** Kafka's OffsetAndMetadata, every field. */
    private static String text(Object oam) throws ReflectiveOperationException {
        Class<?> c = oam.getClass();
        return field(c, "committedOffset").get(oam) + " epoch " + field(c, "leaderEpoch").get(oam)
                + " md " + field(c, "metadata").get(oam) + " ts " + field(c, "commitTimestampMs").get(oam)
                + " exp " + field(c, "expireTimestampMs").get(oam) + " id " + field(c, "topicId").get(oam)
                + " rec " + field(c, "recordOffset").get(oam);
    }

    private static Field field(Class<?> c, String name) throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    /** What describeGroups is handed; the classic describe reads none of it that matters here. */
    private static final AuthorizableRequestContext CONTEXT = new AuthorizableRequestContext() {
        public String listenerName() {
            return ListenerName.forSecurityProtocol(SecurityProtocol.PLAINTEXT).value();
        }

        public SecurityProtocol securityProtocol() {
            return SecurityProtocol.PLAINTEXT;
        }

        public KafkaPrincipal principal() {
            return KafkaPrincipal.ANONYMOUS;
        }

        public InetAddress clientAddress() {
            return InetAddress.getLoopbackAddress();
        }

        public int requestType() {
            return 15;
        }

        public int requestVersion() {
            return 6;
        }

        public String clientId() {
            return "segscope-test";
        }

        public int correlationId() {
            return 0;
        }
    };
}
