package io.segscope.format.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.testkit.Tries;
import java.util.stream.Stream;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** {@link Sequences} against Kafka's DefaultRecordBatch sequence arithmetic. */
class SequencesTest {

    @TestFactory
    Stream<DynamicTest> sameAsKafka() {
        return Tries.of(60, 2000, gen -> sameAsKafka(gen.intBetween(0, Integer.MAX_VALUE), gen.intBetween(0, 100_000)));
    }

    private static void sameAsKafka(int sequence, int delta) {
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
