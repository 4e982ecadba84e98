package io.segscope.format.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ConsumerProtocolSubscription;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.junit.jupiter.api.Test;

/** {@link CoordinatorRecordDecoder#decodeKeyCheckValue} fails exactly where and as {@code decode} does. */
class CheckValueTest {
    private static final CoordinatorRecordDecoder OFFSETS = CoordinatorRecordDecoder.consumerOffsets().unrefined();

    @Test
    void checkingAGroupMetadataValueFailsAsReadingIt() {
        byte[] key = MessageUtil.toCoordinatorTypePrefixedBytes(new GroupMetadataKey().setGroup("g"));
        byte[] sub = MessageUtil.toVersionPrefixedBytes((short) 3, new ConsumerProtocolSubscription().setTopics(List.of("t")));
        int cases = 0;
        for (short version = 0; version <= 4; version++) {
            GroupMetadataValue v = new GroupMetadataValue().setProtocolType("consumer").setGeneration(3).setProtocol("range")
                    .setLeader("m1").setCurrentStateTimestamp(version >= 2 ? 1796002547636L : -1)
                    .setMembers(List.of(
                            new GroupMetadataValue.MemberMetadata().setMemberId("m1").setClientId("c").setClientHost("/h")
                                    .setGroupInstanceId(version >= 3 ? "i" : null).setRebalanceTimeout(300000)
                                    .setSessionTimeout(45000).setSubscription(sub).setAssignment(new byte[] {1, 2, 3}),
                            new GroupMetadataValue.MemberMetadata().setMemberId("m2").setClientId("").setClientHost("")
                                    .setRebalanceTimeout(1).setSessionTimeout(2).setSubscription(new byte[0])
                                    .setAssignment(new byte[0])));
            byte[] value = MessageUtil.toVersionPrefixedBytes(version, v);
            for (int len = 0; len <= value.length; len++) {
                byte[] cut = java.util.Arrays.copyOf(value, len);
                same(key, cut);
                cases++;
            }
            for (int i = 2; i < value.length; i++) {
                for (byte b : new byte[] {0, 1, -1, (byte) 0x80, 0x7f}) {
                    byte[] bad = value.clone();
                    bad[i] = b;
                    same(key, bad);
                    cases++;
                }
            }
        }
        same(key, null);
        assertThat(cases).isGreaterThan(500);
    }

    private static void same(byte[] key, byte[] value) {
        ByteBuffer k = ByteBuffer.wrap(key);
        ByteBuffer v = value == null ? null : ByteBuffer.wrap(value);
        int vl = value == null ? -1 : value.length;
        CoordinatorResult read = OFFSETS.decode(k, 0, key.length, v, 0, vl);
        CoordinatorResult checked = OFFSETS.decodeKeyCheckValue(k, 0, key.length, v, 0, vl);
        if (read instanceof Unknown u) {
            CheckValueTest.sameUnknown(u, checked);
        } else {
            Decoded d = (Decoded) read;
            assertThat(checked).isInstanceOf(Decoded.class);
            Decoded c = (Decoded) checked;
            assertThat(c.value()).isNull();
            assertThat(c.valueVersion()).isEqualTo(d.valueVersion());
            assertThat(c.valueTrailingBytes()).isEqualTo(d.valueTrailingBytes());
            assertThat(c.ownerId()).isEqualTo(d.ownerId());
        }
    }

    /** The checked path refused the record exactly where decoding did: same reason, version, detail, field and byte. */
    static void sameUnknown(Unknown u, CoordinatorResult checked) {
        assertThat(checked).isInstanceOf(Unknown.class);
        Unknown c = (Unknown) checked;
        assertThat(c.reason()).isEqualTo(u.reason());
        assertThat(c.valueVersion()).isEqualTo(u.valueVersion());
        assertThat(c.detail()).isEqualTo(u.detail());
        assertThat(c.field()).isEqualTo(u.field());
        assertThat(c.position()).isEqualTo(u.position());
    }
}
