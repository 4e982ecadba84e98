package io.segscope.format.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.group.GroupCoordinatorSchemas;
import io.segscope.format.coordinator.group.OffsetCommitView;
import io.segscope.format.coordinator.share.ShareCoordinatorSchemas;
import io.segscope.format.coordinator.txn.TransactionLogSchemas;
import io.segscope.format.json.CoordinatorJson;
import io.segscope.testkit.Tries;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitValue;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * For every record type and value version of Kafka 4.4.0's three coordinator topics: random
 * contents built and serialized by Kafka's generated classes, decoded by segscope, rendered, and
 * compared with the key and payload text of Kafka's own DumpLogSegments parsers on the same
 * bytes. Offset commits are also read through {@link OffsetCommitView} and compared field by
 * field with Kafka's message.
 */
public class KafkaRoundTripTest {

    /** One (topic, record type, value version) cell of the matrix. */
    public record Cell(CoordinatorTopic topic, RecordSchema schema, short version) {
        @Override
        public String toString() {
            return topic.topicName() + " type " + schema.type() + " " + schema.name() + " v" + version;
        }
    }

    public static List<Cell> cells() {
        List<Cell> cells = new ArrayList<>();
        for (SchemaSet set : List.of(GroupCoordinatorSchemas.SCHEMAS, TransactionLogSchemas.SCHEMAS, ShareCoordinatorSchemas.SCHEMAS)) {
            for (RecordSchema s : set.records()) {
                if (!s.inKafka440()) {
                    continue;
                }
                for (int v = s.valueVersions().lowest(); v <= s.valueVersions().highest(); v++) {
                    cells.add(new Cell(set.topic(), s, (short) v));
                }
            }
        }
        return cells;
    }

    private static final List<Cell> CELLS = cells();

    @Test
    void matrixCoversEveryTypeAndVersion() {
        // 4.4.0: __consumer_offsets types 0-8, 10-17, 19-23 (type 0: v0; 1, 2: v0-4; others v0),
        // __transaction_state type 0 v0-1, __share_group_state types 0-1 v0
        assertThat(cells()).hasSize(1 + 5 + 5 + 19 + 2 + 2);
    }

    @TestFactory
    Stream<DynamicTest> decodesAndPrintsLikeKafka() {
        return Tries.of(4400, 3000, gen -> decodesAndPrintsLikeKafka(gen.choose(CELLS), gen.random()));
    }

    private static void decodesAndPrintsLikeKafka(Cell cell, Random random) {
        RandomMessages gen = new RandomMessages(random);
        Object key = gen.key(cell);
        boolean tombstone = random.nextInt(10) == 0;
        Object value = tombstone ? null : gen.value(cell);
        byte[] k = KafkaOracle.keyBytes(key);
        byte[] v = tombstone ? null : KafkaOracle.valueBytes(cell.version(), value);
        String[] kafka = KafkaOracle.dump(cell.topic(), k, v);

        // the record inside larger buffers, heap or direct, at non-zero offsets
        int kOff = random.nextInt(7);
        int vOff = random.nextInt(7);
        ByteBuffer kb = place(k, kOff, random.nextBoolean());
        ByteBuffer vb = v == null ? null : place(v, vOff, random.nextBoolean());
        CoordinatorResult r = CoordinatorRecordDecoder.forTopic(cell.topic())
                .decode(kb, kOff, k.length, vb, vOff, v == null ? -1 : v.length);

        assertThat(r).isInstanceOf(Decoded.class);
        Decoded d = (Decoded) r;
        assertThat(d.keyTrailingBytes()).isZero();
        assertThat(d.valueTrailingBytes()).isZero();
        assertThat(d.unknownTaggedFields()).isZero();
        assertThat(CoordinatorJson.keyText(d)).isEqualTo(kafka[0]);
        assertThat(CoordinatorJson.valueText(d)).isEqualTo(kafka[1]);

        if (cell.topic() == CoordinatorTopic.CONSUMER_OFFSETS && cell.schema().type() <= 1) {
            checkView(key, value, kb, kOff, k.length, vb, vOff, v == null ? -1 : v.length);
        }
    }

    /** The bytes inside a larger heap or direct buffer filled with 0x5a, at {@code offset}. */
    static ByteBuffer place(byte[] bytes, int offset, boolean direct) {
        ByteBuffer b = direct ? ByteBuffer.allocateDirect(bytes.length + offset + 3) : ByteBuffer.allocate(bytes.length + offset + 3);
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) 0x5a);
        }
        b.put(offset, bytes);
        return b;
    }

    private static void checkView(Object key, Object value, ByteBuffer kb, int kOff, int kLen, ByteBuffer vb, int vOff, int vLen) {
        OffsetCommitView view = new OffsetCommitView();
        assertThat(view.wrap(kb, kOff, kLen, vb, vOff, vLen)).isTrue();
        String group;
        String topic;
        int partition;
        if (key instanceof OffsetCommitKey) {
            OffsetCommitKey ok = (OffsetCommitKey) key;
            group = ok.group();
            topic = ok.topic();
            partition = ok.partition();
            assertThat(view.recordType()).isEqualTo((short) 1);
        } else {
            LegacyOffsetCommitKey lk = (LegacyOffsetCommitKey) key;
            group = lk.group();
            topic = lk.topic();
            partition = lk.partition();
            assertThat(view.recordType()).isEqualTo((short) 0);
        }
        assertThat(view.group().contentEquals(group)).isTrue();
        assertThat(view.group().javaHashCode()).isEqualTo(group.hashCode());
        assertThat(view.group().toString()).isEqualTo(group);
        assertThat(view.topic().contentEquals(topic)).isTrue();
        assertThat(view.topic().javaHashCode()).isEqualTo(topic.hashCode());
        assertThat(view.partition()).isEqualTo(partition);
        assertThat(view.isTombstone()).isEqualTo(value == null);
        if (value instanceof OffsetCommitValue) {
            OffsetCommitValue ov = (OffsetCommitValue) value;
            assertThat(view.offset()).isEqualTo(ov.offset());
            assertThat(view.leaderEpoch()).isEqualTo(ov.leaderEpoch());
            assertThat(view.metadata().contentEquals(ov.metadata())).isTrue();
            assertThat(view.commitTimestamp()).isEqualTo(ov.commitTimestamp());
            assertThat(view.expireTimestamp()).isEqualTo(ov.expireTimestamp());
            assertThat(view.topicIdMostSignificantBits()).isEqualTo(ov.topicId().getMostSignificantBits());
            assertThat(view.topicIdLeastSignificantBits()).isEqualTo(ov.topicId().getLeastSignificantBits());
        } else if (value instanceof LegacyOffsetCommitValue) {
            LegacyOffsetCommitValue lv = (LegacyOffsetCommitValue) value;
            assertThat(view.offset()).isEqualTo(lv.offset());
            assertThat(view.leaderEpoch()).isEqualTo(-1);
            assertThat(view.metadata().contentEquals(lv.metadata())).isTrue();
            assertThat(view.commitTimestamp()).isEqualTo(lv.commitTimestamp());
            assertThat(view.expireTimestamp()).isEqualTo(-1L);
            assertThat(view.hasTopicId()).isFalse();
        }
    }
}
