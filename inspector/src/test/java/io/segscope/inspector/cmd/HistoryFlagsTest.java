package io.segscope.inspector.cmd;

import io.segscope.inspector.Run;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code history} flags a commit made while the group had no members (a manual reset with
 * {@code kafka-consumer-groups.sh --reset-offsets}, which needs an Empty group) and a commit that
 * went backwards, on a partition written with Kafka 4.4.0's own record classes.
 */
class HistoryFlagsTest {
    @Test
    void aResetOfAnEmptyGroupIsFlagged(@TempDir Path dir) throws IOException {
        Path partition = dir.resolve("__consumer_offsets-0");
        java.nio.file.Files.createDirectories(partition);
        MemoryRecordsBuilder b = new MemoryRecordsBuilder(ByteBuffer.allocate(1 << 16), RecordBatch.CURRENT_MAGIC_VALUE,
                Compression.NONE, TimestampType.CREATE_TIME, 0L, 1000L, RecordBatch.NO_PRODUCER_ID,
                RecordBatch.NO_PRODUCER_EPOCH, RecordBatch.NO_SEQUENCE, false, false, 0, 1 << 16);
        GroupMetadataValue.MemberMetadata member = new GroupMetadataValue.MemberMetadata().setMemberId("m1")
                .setClientId("c1").setClientHost("/10.0.0.1").setSessionTimeout(45000).setRebalanceTimeout(300000)
                .setSubscription(new byte[0]).setAssignment(new byte[0]);
        append(b, 1000, new GroupMetadataKey().setGroup("g"), 3, new GroupMetadataValue().setProtocolType("consumer")
                .setGeneration(1).setProtocol("range").setLeader("m1").setCurrentStateTimestamp(1000).setMembers(List.of(member)));
        append(b, 2000, commitKey(), 3, commitValue(50, 2000));
        // the member leaves: the group is Empty, generation 2
        append(b, 3000, new GroupMetadataKey().setGroup("g"), 3, new GroupMetadataValue().setProtocolType("consumer")
                .setGeneration(2).setProtocol(null).setLeader(null).setCurrentStateTimestamp(3000).setMembers(List.of()));
        // kafka-consumer-groups.sh --reset-offsets --to-earliest: a commit with no members, backwards
        append(b, 4000, commitKey(), 3, commitValue(10, 4000));
        try (FileChannel ch = FileChannel.open(partition.resolve("00000000000000000000.log"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            ch.write(b.build().buffer());
        }
        Run r = Run.of("history", "--format", "jsonl", "--group", "g", partition.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> commits = r.out().lines().filter(l -> l.contains("\"event\":\"commit\"")).toList();
        assertThat(commits).hasSize(2);
        assertThat(commits.get(0)).contains("\"offset\":50").contains("\"flags\":[]");
        assertThat(commits.get(1)).contains("\"offset\":10").contains("\"delta\":-40")
                .contains("\"flags\":[\"backwards\",\"no-members\"]");
    }

    private static OffsetCommitKey commitKey() {
        return new OffsetCommitKey().setGroup("g").setTopic("orders").setPartition(0);
    }

    private static OffsetCommitValue commitValue(long offset, long time) {
        return new OffsetCommitValue().setOffset(offset).setLeaderEpoch(-1).setMetadata("").setCommitTimestamp(time);
    }

    private static void append(MemoryRecordsBuilder b, long ts, ApiMessage key, int version, ApiMessage value) {
        b.append(ts, MessageUtil.toCoordinatorTypePrefixedBytes(key), MessageUtil.toVersionPrefixedBytes((short) version, value));
    }
}
