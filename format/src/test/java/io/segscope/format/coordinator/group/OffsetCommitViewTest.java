package io.segscope.format.coordinator.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.junit.jupiter.api.Test;

/** The offset-commit flyweight reads every field in place and allocates nothing per record. */
class OffsetCommitViewTest {

    private static final byte[] KEY = MessageUtil.toCoordinatorTypePrefixedBytes(
            new OffsetCommitKey().setGroup("h3b-grüße-组").setTopic("orders").setPartition(7));
    private static final byte[] VALUE = MessageUtil.toVersionPrefixedBytes((short) 4, new OffsetCommitValue()
            .setOffset(5).setLeaderEpoch(3).setMetadata("m").setCommitTimestamp(1796002544333L)
            .setTopicId(Uuid.fromString("ovg8G8h6Sj2XwouCs2oc5Q")));

    @Test
    void readsAllFields() {
        OffsetCommitView v = new OffsetCommitView();
        assertThat(v.wrap(ByteBuffer.wrap(KEY), 0, KEY.length, ByteBuffer.wrap(VALUE), 0, VALUE.length)).isTrue();
        assertThat(v.recordType()).isEqualTo((short) 1);
        assertThat(v.group().toString()).isEqualTo("h3b-grüße-组");
        assertThat(v.topic().contentEquals("orders")).isTrue();
        assertThat(v.partition()).isEqualTo(7);
        assertThat(v.valueVersion()).isEqualTo((short) 4);
        assertThat(v.offset()).isEqualTo(5);
        assertThat(v.leaderEpoch()).isEqualTo(3);
        assertThat(v.metadata().toString()).isEqualTo("m");
        assertThat(v.commitTimestamp()).isEqualTo(1796002544333L);
        assertThat(v.expireTimestamp()).isEqualTo(-1);
        assertThat(v.hasTopicId()).isTrue();
        Uuid id = Uuid.fromString("ovg8G8h6Sj2XwouCs2oc5Q");
        assertThat(v.topicIdMostSignificantBits()).isEqualTo(id.getMostSignificantBits());
        assertThat(v.topicIdLeastSignificantBits()).isEqualTo(id.getLeastSignificantBits());
        assertThat(v.wrapValue(null, 0, -1)).isTrue();
        assertThat(v.isTombstone()).isTrue();
        assertThat(v.valueVersion()).isEqualTo((short) -1);
    }

    @Test
    void rejectsOtherTypesAndVersions() {
        OffsetCommitView v = new OffsetCommitView();
        byte[] groupKey = KEY.clone();
        groupKey[1] = 2;
        assertThat(v.wrapKey(ByteBuffer.wrap(groupKey), 0, groupKey.length)).isFalse();
        byte[] v5 = VALUE.clone();
        v5[1] = 5;
        assertThat(v.wrap(ByteBuffer.wrap(KEY), 0, KEY.length, ByteBuffer.wrap(v5), 0, v5.length)).isFalse();
        byte[] legacyKey = KEY.clone();
        legacyKey[1] = 0;
        // LegacyOffsetCommit (type 0) defines value version 0 only
        assertThat(v.wrap(ByteBuffer.wrap(legacyKey), 0, legacyKey.length, ByteBuffer.wrap(VALUE), 0, VALUE.length)).isFalse();
        assertThat(v.wrap(ByteBuffer.wrap(KEY), 0, KEY.length - 1, ByteBuffer.wrap(VALUE), 0, VALUE.length)).isFalse();
        assertThat(v.wrap(ByteBuffer.wrap(KEY), 0, KEY.length, ByteBuffer.wrap(VALUE), 0, VALUE.length - 1)).isFalse();
    }

    @Test
    void hotPathAllocatesNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ByteBuffer k = ByteBuffer.allocateDirect(KEY.length).put(0, KEY);
        ByteBuffer val = ByteBuffer.allocateDirect(VALUE.length).put(0, VALUE);
        OffsetCommitView v = new OffsetCommitView();
        long sink = 0;
        for (int i = 0; i < 20_000; i++) { // warm up so that the JIT has compiled the loop
            sink += read(v, k, val);
        }
        long tid = Thread.currentThread().getId();
        long before = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 100_000; i++) {
            sink += read(v, k, val);
        }
        long allocated = mx.getThreadAllocatedBytes(tid) - before;
        assertThat(sink).isNotZero();
        // a few hundred bytes of measurement noise at most, never bytes per record
        assertThat(allocated).isLessThan(100_000);
    }

    private static long read(OffsetCommitView v, ByteBuffer k, ByteBuffer val) {
        if (!v.wrap(k, 0, KEY.length, val, 0, VALUE.length)) {
            return 0;
        }
        return v.group().javaHashCode() + v.topic().javaHashCode() + v.partition() + v.offset() + v.leaderEpoch()
                + v.commitTimestamp() + v.expireTimestamp() + (v.group().contentEquals("h3b-grüße-组") ? 1 : 0);
    }
}
