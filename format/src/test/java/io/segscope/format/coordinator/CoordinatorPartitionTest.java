package io.segscope.format.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/** {@link CoordinatorPartition} against Kafka's own rule, Utils.abs(groupId.hashCode()) % partitions. */
class CoordinatorPartitionTest {

    @Property(tries = 2000, seed = "50")
    void sameAsKafka(@ForAll String key, @ForAll @IntRange(min = 1, max = 1000) int partitions) {
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
