package io.segscope.format.record;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.junit.jupiter.api.Test;

/** {@link Sequences} against Kafka's DefaultRecordBatch sequence arithmetic. */
class SequencesTest {

    @Property(tries = 2000, seed = "60")
    void sameAsKafka(@ForAll @IntRange(min = 0) int sequence, @ForAll @IntRange(min = 0, max = 100_000) int delta) {
        assertThat(Sequences.increment(sequence, delta)).isEqualTo(DefaultRecordBatch.incrementSequence(sequence, delta));
        assertThat(Sequences.decrement(sequence, delta)).isEqualTo(DefaultRecordBatch.decrementSequence(sequence, delta));
        assertThat(Sequences.decrement(Sequences.increment(sequence, delta), delta)).isEqualTo(sequence);
    }

    @Test
    void wrapsAtIntegerMaxValue() {
        assertThat(Sequences.increment(Integer.MAX_VALUE - 1, 3)).isEqualTo(1);
        assertThat(Sequences.decrement(1, 3)).isEqualTo(Integer.MAX_VALUE - 1);
    }
}
