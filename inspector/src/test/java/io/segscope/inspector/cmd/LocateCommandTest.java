package io.segscope.inspector.cmd;

import io.segscope.inspector.Run;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code locate} against Kafka's own rule, Utils.abs(groupId.hashCode()) % partitions. */
class LocateCommandTest {

    @Test
    void integerMinValueHashGoesToPartitionZero() {
        assertThat("polygenelubricants".hashCode()).isEqualTo(Integer.MIN_VALUE);
        Run run = Run.of("locate", "polygenelubricants", "my-group", "grupo, \"ñ\"\n");
        assertThat(run.exit()).isZero();
        assertThat(run.out()).isEqualTo("\"polygenelubricants\"\t__consumer_offsets-0\n"
                + "\"my-group\"\t__consumer_offsets-" + Utils.abs("my-group".hashCode()) % 50 + "\n"
                + "\"grupo, \\\"ñ\\\"\\n\"\t__consumer_offsets-" + Utils.abs("grupo, \"ñ\"\n".hashCode()) % 50 + "\n");
    }

    @Test
    void partitionCountAndTopicAreOptions() {
        Run run = Run.of("locate", "--partitions", "7", "--topic", "__transaction_state", "txn-1");
        assertThat(run.out()).isEqualTo("\"txn-1\"\t__transaction_state-" + Utils.abs("txn-1".hashCode()) % 7 + "\n");
    }

    @Test
    void nonPositivePartitionCountIsAUsageError() {
        Run run = Run.of("locate", "--partitions", "0", "g");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--partitions must be positive");
    }
}
