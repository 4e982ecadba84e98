package io.segscope.format.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.testkit.Tries;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** {@link CoordinatorPartition} against Kafka's own rule, Utils.abs(groupId.hashCode()) % partitions. */
class CoordinatorPartitionTest {

    @TestFactory
    Stream<DynamicTest> sameAsKafka() {
        return Tries.of(50, 2000, gen -> sameAsKafka(gen.string(255), gen.intBetween(1, 1000)));
    }

    private static void sameAsKafka(String key, int partitions) {
        int kafka = Utils.abs(key.hashCode()) % partitions;
        assertThat(CoordinatorPartition.of(key, partitions)).isEqualTo(kafka);
        byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
        Utf8Slice slice = new Utf8Slice().wrap(ByteBuffer.wrap(utf8), 0, utf8.length);
        assertThat(CoordinatorPartition.of(slice, partitions))
                .isEqualTo(Utils.abs(new String(utf8, StandardCharsets.UTF_8).hashCode()) % partitions);
    }

    @Test
    void minValueHashGoesToPartitionZero() {
        // "polygenelubricants".hashCode() == Integer.MIN_VALUE; Kafka's Utils.abs maps it to 0
        String s = "polygenelubricants";
        assertThat(s.hashCode()).isEqualTo(Integer.MIN_VALUE);
        assertThat(CoordinatorPartition.of(s, 50)).isZero();
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        assertThat(CoordinatorPartition.of(new Utf8Slice().wrap(ByteBuffer.wrap(b), 0, b.length), 50)).isZero();
    }
}
