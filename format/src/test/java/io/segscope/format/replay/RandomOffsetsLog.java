package io.segscope.format.replay;

import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.TopicPartitionName;
import io.segscope.testkit.Gen;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataValue;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitValue;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;

/**
 * Seeded random {@code __consumer_offsets} logs built with Kafka 4.4.0's own generated record
 * classes and serializers: plain and transactional offset commits (every value version, key
 * types 0 and 1), COMMIT/ABORT markers, offset tombstones, classic GroupMetadata records and
 * tombstones, KIP-848 consumer group records (members, epochs, assignments, deletions), unknown
 * record types. One record per batch, batch timestamps rising (with the odd step back).
 */
public final class RandomOffsetsLog {
    static final String[] GROUPS = {"g-a", "g,b é", "grp-🚀", "g-d", "g-e"};
    static final String[] TOPICS = {"t1", "topic ü", "t3"};
    static final int PARTITIONS = 3;
    static final long[] PRODUCERS = {1000L, 1001L, 1002L};

    /** One batch: a data record (key, value null for a tombstone) or a marker. */
    record Event(long offset, long timestamp, long producerId, boolean transactional, byte[] key, byte[] value,
                 ControlRecordType marker) {
    }

    final List<Event> events = new ArrayList<>();

    /** How many events (batches) the log has. */
    public int size() {
        return events.size();
    }
    private final Gen gen;
    private long ts = 1_700_000_000_000L;

    public RandomOffsetsLog(Gen gen) {
        this.gen = gen;
        int n = gen.intBetween(1, 120);
        for (int i = 0; i < n; i++) {
            next();
        }
    }

    private void add(long pid, boolean txn, ApiMessage key, short version, ApiMessage value) {
        ts += gen.oneIn(10) ? -gen.intBetween(0, 500) : gen.intBetween(0, 2000);
        byte[] v = value == null ? null : MessageUtil.toVersionPrefixedBytes(version, value);
        events.add(new Event(events.size(), ts, pid, txn, MessageUtil.toCoordinatorTypePrefixedBytes(key), v, null));
    }

    private void marker(long pid, ControlRecordType type) {
        ts += gen.intBetween(0, 2000);
        events.add(new Event(events.size(), ts, pid, true, null, null, type));
    }

    private String group() {
        return GROUPS[gen.intBetween(0, GROUPS.length - 1)];
    }

    /**
     * A group that classic records usually name: the first three. Groups are of one kind in a
     * real log; the odd record of the other kind (1 in 25) keeps the loader's refusal of mixed
     * kinds covered without making most logs fail to load.
     */
    private String classicGroup() {
        return gen.oneIn(25) ? group() : GROUPS[gen.intBetween(0, 2)];
    }

    /** A group that consumer-group records usually name: the last two. */
    private String consumerGroupId() {
        return gen.oneIn(25) ? group() : GROUPS[gen.intBetween(3, GROUPS.length - 1)];
    }

    private void next() {
        int k = gen.intBetween(0, 99);
        String g = group();
        String t = TOPICS[gen.intBetween(0, TOPICS.length - 1)];
        int p = gen.intBetween(0, PARTITIONS - 1);
        long pid = PRODUCERS[gen.intBetween(0, PRODUCERS.length - 1)];
        if (k < 35) {
            commit(g, t, p, -1);
        } else if (k < 50) {
            commit(g, t, p, pid);
        } else if (k < 60) {
            marker(pid, gen.bool() ? ControlRecordType.COMMIT : ControlRecordType.ABORT);
        } else if (k < 68) {
            add(gen.oneIn(4) ? pid : -1, false, new OffsetCommitKey().setGroup(g).setTopic(t).setPartition(p), (short) 0, null);
        } else if (k < 76) {
            classic(classicGroup());
        } else if (k < 80) {
            add(-1, false, new GroupMetadataKey().setGroup(classicGroup()), (short) 0, null);
        } else if (k < 92) {
            consumerGroup(consumerGroupId());
        } else if (k < 96) {
            deleteConsumerGroup(consumerGroupId());
        } else {
            // a record type 4.4.0 does not know: skipped by the loader
            ts += 1;
            byte[] key = ByteBuffer.allocate(4).putShort((short) (gen.bool() ? 9 : 99)).putShort((short) 0).array();
            events.add(new Event(events.size(), ts, -1, false, key, new byte[]{0, 0, 1}, null));
        }
    }

    private void commit(String g, String t, int p, long pid) {
        long offset = gen.longBetween(0, 1000);
        String metadata = gen.oneIn(3) ? "" : gen.oneIn(2) ? "m" + gen.intBetween(0, 3) : gen.string(gen.intBetween(0, 30));
        long commitTs = ts + gen.intBetween(-5000, 5000);
        if (pid == -1 && gen.oneIn(10)) {
            add(-1, false, new LegacyOffsetCommitKey().setGroup(g).setTopic(t).setPartition(p), (short) 0,
                    new LegacyOffsetCommitValue().setOffset(offset).setMetadata(metadata).setCommitTimestamp(commitTs));
            return;
        }
        short version = (short) gen.intBetween(0, 4);
        OffsetCommitValue v = new OffsetCommitValue().setOffset(offset).setMetadata(metadata).setCommitTimestamp(commitTs);
        if (version == 1) {
            v.setExpireTimestamp(gen.bool() ? commitTs + 60_000 : -1);
        }
        if (version >= 3) {
            v.setLeaderEpoch(gen.intBetween(-1, 5));
        }
        if (version >= 4 && gen.bool()) {
            v.setTopicId(new Uuid(gen.anyLong() | 1, gen.anyLong()));
        }
        add(pid, pid != -1, new OffsetCommitKey().setGroup(g).setTopic(t).setPartition(p), version, v);
    }

    private void classic(String g) {
        int members = gen.intBetween(0, 2);
        boolean consumer = members > 0 || gen.bool();
        List<GroupMetadataValue.MemberMetadata> ms = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            List<String> topics = List.of(TOPICS[gen.intBetween(0, TOPICS.length - 1)]);
            ByteBuffer sub = ConsumerProtocol.serializeSubscription(new ConsumerPartitionAssignor.Subscription(topics));
            ByteBuffer asg = ConsumerProtocol.serializeAssignment(new ConsumerPartitionAssignor.Assignment(List.of()));
            ms.add(new GroupMetadataValue.MemberMetadata().setMemberId("m" + i).setClientId("c" + i).setClientHost("/h" + i)
                    .setSessionTimeout(10_000).setRebalanceTimeout(gen.bool() ? -1 : 30_000)
                    .setGroupInstanceId(gen.oneIn(3) ? "i" + i : null)
                    .setSubscription(bytes(sub)).setAssignment(bytes(asg)));
        }
        GroupMetadataValue v = new GroupMetadataValue().setProtocolType(consumer ? "consumer" : "")
                .setGeneration(gen.intBetween(0, 9)).setProtocol(members > 0 ? "range" : null)
                .setLeader(members > 0 ? "m0" : null).setCurrentStateTimestamp(gen.bool() ? ts : -1).setMembers(ms);
        add(-1, false, new GroupMetadataKey().setGroup(g), (short) gen.intBetween(2, 3), v);
    }

    private void consumerGroup(String g) {
        String member = "cm" + gen.intBetween(0, 1);
        int epoch = gen.intBetween(1, 5);
        switch (gen.intBetween(0, 3)) {
            case 0 -> add(-1, false, new ConsumerGroupMetadataKey().setGroupId(g), (short) 0,
                    new ConsumerGroupMetadataValue().setEpoch(epoch));
            case 1 -> add(-1, false, new ConsumerGroupMemberMetadataKey().setGroupId(g).setMemberId(member), (short) 0,
                    new ConsumerGroupMemberMetadataValue().setClientId("client-" + member).setClientHost("/127.0.0.1")
                            .setSubscribedTopicNames(List.of(TOPICS[gen.intBetween(0, TOPICS.length - 1)])));
            case 2 -> add(-1, false, new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(g).setMemberId(member),
                    (short) 0, new ConsumerGroupCurrentMemberAssignmentValue().setMemberEpoch(epoch)
                            .setPreviousMemberEpoch(epoch - 1).setState((byte) (gen.oneIn(4) ? 1 : 0)));
            default -> add(-1, false, new ConsumerGroupTargetAssignmentMetadataKey().setGroupId(g), (short) 0,
                    new ConsumerGroupTargetAssignmentMetadataValue().setAssignmentEpoch(epoch));
        }
    }

    /** The tombstones {@code ConsumerGroup.createGroupTombstoneRecords} writes, in its order. */
    private void deleteConsumerGroup(String g) {
        for (String m : new String[]{"cm0", "cm1"}) {
            add(-1, false, new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(g).setMemberId(m), (short) 0, null);
        }
        for (String m : new String[]{"cm0", "cm1"}) {
            add(-1, false, new ConsumerGroupMemberMetadataKey().setGroupId(g).setMemberId(m), (short) 0, null);
        }
        add(-1, false, new ConsumerGroupTargetAssignmentMetadataKey().setGroupId(g), (short) 0, null);
        add(-1, false, new ConsumerGroupMetadataKey().setGroupId(g), (short) 0, null);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    /** The first {@code count} events as a log segment in {@code dir}/__consumer_offsets-7. */
    public List<LogFile> write(Path dir, int count) throws IOException {
        Path part = dir.resolve("__consumer_offsets-7");
        Files.createDirectories(part);
        Path log = part.resolve("00000000000000000000.log");
        try (var ch = Files.newByteChannel(log, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.TRUNCATE_EXISTING, java.nio.file.StandardOpenOption.WRITE)) {
            for (Event e : events.subList(0, count)) {
                ByteBuffer b;
                if (e.marker() != null) {
                    b = MemoryRecords.withEndTransactionMarker(e.offset(), e.timestamp(), 0, e.producerId(), (short) 0,
                            new EndTransactionMarker(e.marker(), 0)).buffer();
                } else if (e.producerId() == -1) {
                    b = MemoryRecords.withRecords(RecordBatch.CURRENT_MAGIC_VALUE, e.offset(), Compression.NONE,
                            org.apache.kafka.common.record.TimestampType.CREATE_TIME, -1L, (short) -1, 0, 0, false,
                            new SimpleRecord(e.timestamp(), e.key(), e.value())).buffer();
                } else {
                    b = MemoryRecords.withTransactionalRecords(e.offset(), Compression.NONE, e.producerId(), (short) 0, 0, 0,
                            new SimpleRecord(e.timestamp(), e.key(), e.value())).buffer();
                }
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
        }
        return List.of(LogFile.classify(FileEntry.of(log), TopicPartitionName.tryParse(part.getFileName().toString())));
    }
}
