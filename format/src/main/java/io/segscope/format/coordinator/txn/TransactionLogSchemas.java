package io.segscope.format.coordinator.txn;

import static io.segscope.format.coordinator.Field.array;
import static io.segscope.format.coordinator.Field.field;
import static io.segscope.format.coordinator.Field.structs;
import static io.segscope.format.coordinator.FieldType.INT16;
import static io.segscope.format.coordinator.FieldType.INT32;
import static io.segscope.format.coordinator.FieldType.INT64;
import static io.segscope.format.coordinator.FieldType.INT8;
import static io.segscope.format.coordinator.FieldType.STRING;
import static io.segscope.format.coordinator.RecordSchema.record;
import static io.segscope.format.coordinator.StructSchema.schema;

import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.RecordSchema;
import io.segscope.format.coordinator.SchemaSet;
import io.segscope.format.coordinator.StructSchema;
import java.util.List;

/**
 * The {@code __transaction_state} record schema (docs/format.md 2.11): key type 0
 * TransactionLogKey, value TransactionLogValue v0-v1 (flexible from v1; tagged fields 0-3 are only
 * in the tagged section, so v0 values hold their defaults; {@code TransactionStatus} prints as its
 * {@link TransactionState} name). Matches kafka-transaction-coordinator
 * 4.4.0's {@code common/message/*.json} ({@code SchemaTablesTest}).
 */
public final class TransactionLogSchemas {
    private TransactionLogSchemas() {
    }

    public static final RecordSchema TRANSACTION_LOG = transactionLog();

    public static final SchemaSet SCHEMAS = new SchemaSet(CoordinatorTopic.TRANSACTION_STATE,
            List.of(TRANSACTION_LOG), null, null);

    /** Type 0: {@code TransactionLogKey} / {@code TransactionLogValue}. */
    private static RecordSchema transactionLog() {
        StructSchema partitionsSchema = schema("PartitionsSchema",
                field("Topic", STRING, "0+"),
                array("PartitionIds", INT32, "0+"));
        return record(0, "TransactionLog",
                schema("TransactionLogKey",
                        field("TransactionalId", STRING, "0")),
                "0-1", "1+",
                schema("TransactionLogValue",
                        field("ProducerId", INT64, "0+"),
                        field("PreviousProducerId", INT64, "1+").tagged(0, "1+").withDefault("-1"),
                        field("NextProducerId", INT64, "1+").tagged(1, "1+").withDefault("-1"),
                        field("ProducerEpoch", INT16, "0+"),
                        field("NextProducerEpoch", INT16, "1+").tagged(3, "1+").withDefault("-1"),
                        field("TransactionTimeoutMs", INT32, "0+"),
                        field("TransactionStatus", INT8, "0+").named(TransactionState::nameOf),
                        structs("TransactionPartitions", partitionsSchema, "0+").nullable("0+"),
                        field("TransactionLastUpdateTimestampMs", INT64, "0+"),
                        field("TransactionStartTimestampMs", INT64, "0+"),
                        field("ClientTransactionVersion", INT16, "1+").tagged(2, "1+").withDefault("0")));
    }
}
