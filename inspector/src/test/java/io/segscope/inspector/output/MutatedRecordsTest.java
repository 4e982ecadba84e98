package io.segscope.inspector.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.KafkaOracle;
import io.segscope.format.coordinator.KafkaRoundTripTest.Cell;
import io.segscope.format.coordinator.KafkaRoundTripTest;
import io.segscope.format.coordinator.RandomMessages;
import io.segscope.format.coordinator.Unknown;
import io.segscope.format.coordinator.UnknownReason;
import io.segscope.format.coordinator.group.OffsetCommitView;
import io.segscope.testkit.Tries;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Truncated, over-long and garbled keys and values: segscope never throws, gives a typed
 * {@link Unknown} exactly when Kafka's DumpLogSegments parser fails on the same bytes, and prints
 * the same text whenever Kafka decodes them. For offset commits, {@link OffsetCommitView} accepts
 * exactly what the decoder decodes.
 */
class MutatedRecordsTest {

    private static final List<Cell> CELLS = KafkaRoundTripTest.cells();

    @TestFactory
    Stream<DynamicTest> mutatedRecordsGiveTypedResultsLikeKafka() {
        return Tries.of(9092, 4000, gen -> mutatedRecordsGiveTypedResultsLikeKafka(gen.choose(CELLS), gen.random()));
    }

    private static void mutatedRecordsGiveTypedResultsLikeKafka(Cell cell, Random random) {
        RandomMessages gen = new RandomMessages(random);
        byte[] k = KafkaOracle.keyBytes(gen.key(cell));
        byte[] v = KafkaOracle.valueBytes(cell.version(), gen.value(cell));
        int what = random.nextInt(4);
        if (what != 1) {
            v = mutate(v, random);
        }
        if (what != 0) {
            k = mutate(k, random);
        }
        String[] kafka = KafkaOracle.dump(cell.topic(), k, v);
        CoordinatorResult r = CoordinatorRecordDecoder.forTopic(cell.topic()).decode(k, v);

        if (r instanceof Decoded) {
            // also for types 9 and 18, which 4.4.0 calls unknown and segscope decodes
            assertThat(KafkaDumpText.keyText(r, 0)).isEqualTo(kafka[0]);
            assertThat(KafkaDumpText.payloadText(r)).isEqualTo(kafka[1]);
        } else {
            Unknown u = (Unknown) r;
            assertThat(kafka[1]).as("Kafka decoded what segscope calls %s", u).isNull();
            String text = KafkaDumpText.keyText(u, 0);
            if ((u.reason() == UnknownReason.MALFORMED_KEY || u.reason() == UnknownReason.MALFORMED_VALUE) && text.startsWith("Error")) {
                // Kafka's text ends with its reader's exception message, which segscope words its own way
                assertThat(kafka[0]).startsWith(text.substring(0, text.indexOf(" due to: ") < 0 ? text.length() : text.indexOf(" due to: ")));
            } else {
                assertThat(text).isEqualTo(kafka[0]);
            }
            assertThat(u.key()).isNotNull();
            assertThat(u.key().array()).isEqualTo(k);
            assertThat(u.value().array()).isEqualTo(v);
            assertThat(u.toException("00000000000000000000.log", 0, 0).violation()).isEqualTo(u.reason().violation());
        }

        if (cell.topic() == CoordinatorTopic.CONSUMER_OFFSETS) {
            OffsetCommitView view = new OffsetCommitView();
            boolean offsetCommit = r instanceof Decoded && r.recordType() <= 1;
            assertThat(view.wrap(ByteBuffer.wrap(k), 0, k.length, ByteBuffer.wrap(v), 0, v.length)).isEqualTo(offsetCommit);
        }
    }

    private static byte[] mutate(byte[] b, Random r) {
        switch (r.nextInt(7)) {
            case 0: // truncated
                return Arrays.copyOf(b, r.nextInt(b.length + 1));
            case 1: { // over-long
                byte[] longer = Arrays.copyOf(b, b.length + 1 + r.nextInt(16));
                for (int i = b.length; i < longer.length; i++) {
                    longer[i] = (byte) r.nextInt(256);
                }
                return longer;
            }
            case 2: { // a few flipped bytes
                byte[] c = b.clone();
                int n = 1 + r.nextInt(3);
                for (int i = 0; i < n && c.length > 0; i++) {
                    c[r.nextInt(c.length)] ^= (byte) (1 + r.nextInt(255));
                }
                return c;
            }
            case 3: { // garbage
                byte[] g = new byte[r.nextInt(40)];
                r.nextBytes(g);
                return g;
            }
            case 4: { // another type or version number
                byte[] c = b.clone();
                if (c.length >= 2) {
                    ByteBuffer.wrap(c).putShort(0, (short) (r.nextBoolean() ? r.nextInt(30) - 3 : r.nextInt(65536)));
                }
                return c;
            }
            case 5: { // a byte set to a varint/length edge value
                byte[] c = b.clone();
                if (c.length > 2) {
                    byte[] edges = {0, -1, (byte) 0x80, 0x7f, (byte) 0xff, 1};
                    c[2 + r.nextInt(c.length - 2)] = edges[r.nextInt(edges.length)];
                }
                return c;
            }
            default: // unchanged
                return b;
        }
    }
}
