package io.segscope.format.coordinator.txn;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.Field;
import org.apache.kafka.coordinator.transaction.TransactionState;
import org.junit.jupiter.api.Test;

/** The schema's TransactionStatus field names its values as Kafka's TransactionState does. */
class TransactionStatusNamesTest {
    private static Field status() {
        return TransactionLogSchemas.TRANSACTION_LOG.value().fields().stream()
                .filter(f -> f.name().equals("TransactionStatus")).findFirst().orElseThrow();
    }

    @Test
    void namesAreKafkas() {
        Field f = status();
        assertThat(f.hasValueNames()).isTrue();
        for (TransactionState s : TransactionState.values()) {
            assertThat(f.valueName((byte) s.id())).isEqualTo(s.stateName());
        }
    }

    @Test
    void anUnknownIdPrintsAsItsNumber() {
        assertThat(status().valueName((byte) 8)).isEqualTo("8");
        assertThat(status().valueName((byte) -1)).isEqualTo("-1");
    }
}
