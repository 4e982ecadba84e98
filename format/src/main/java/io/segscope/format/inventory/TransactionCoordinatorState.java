package io.segscope.format.inventory;

import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.coordinator.txn.TransactionState;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.walk.DecoderChoice;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordFilter;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the transaction coordinators had last written for each transactional id, replayed from the
 * {@code __transaction_state} partitions given (the last TransactionLog value per key wins, a
 * tombstone removes the id, as the coordinator loads them): the producer id and epoch, the state,
 * the timeout, the partitions of an ongoing transaction and its start time. {@code kafka-transactions
 * list} and {@code describe} answer from the same state.
 */
public final class TransactionCoordinatorState {
    /**
     * One transactional id's last state.
     *
     * @param transactionalId the id
     * @param producerId the producer id
     * @param producerEpoch the producer epoch
     * @param timeoutMs {@code transaction.timeout.ms} the producer asked for
     * @param state the state's name (e.g. {@code Ongoing}, {@code CompleteCommit}), or the number
     * @param partitions "topic-partition" of the transaction's partitions (empty unless ongoing or preparing)
     * @param startTimestamp when the transaction started (-1: none)
     * @param lastUpdateTimestamp the last update
     * @param coordinatorPartition the {@code __transaction_state} partition holding it
     * @param offset the offset of the record
     */
    public record Txn(String transactionalId, long producerId, short producerEpoch, int timeoutMs, String state,
                      List<String> partitions, long startTimestamp, long lastUpdateTimestamp, int coordinatorPartition,
                      long offset) {
    }

    private final Map<String, Txn> byId = new TreeMap<>();
    private int partitionsRead;

    private TransactionCoordinatorState() {
    }

    /** No {@code __transaction_state} partition given. */
    public static TransactionCoordinatorState none() {
        return new TransactionCoordinatorState();
    }

    /**
     * Replays the {@code .log} files of {@code __transaction_state} partitions (one copy of each),
     * each in offset order.
     */
    public static TransactionCoordinatorState replay(Map<Integer, List<LogFile>> partitions, ReaderOptions options) {
        TransactionCoordinatorState s = new TransactionCoordinatorState();
        for (Map.Entry<Integer, List<LogFile>> p : partitions.entrySet()) {
            s.partitionsRead++;
            int partition = p.getKey();
            RecordSink sink = new RecordSink() {
                @Override
                public void record(LogFile file, Batch batch, LogRecord record, RecordContent content) {
                    if (!(content instanceof RecordContent.Coordinator c) || batch.isControl()) {
                        return;
                    }
                    CoordinatorResult r = c.result();
                    if (!(r instanceof Decoded d) || d.recordType() != 0) {
                        return;
                    }
                    String id = d.keyStruct().getString("TransactionalId");
                    if (id == null) {
                        return;
                    }
                    if (d.isTombstone()) {
                        s.byId.remove(id);
                        return;
                    }
                    StructValue v = d.value();
                    int status = v.getInt("TransactionStatus");
                    TransactionState st = TransactionState.fromId(status);
                    List<String> parts = new ArrayList<>();
                    Object list = v.get("TransactionPartitions");
                    if (list instanceof Collection<?> topics) {
                        for (Object t : topics) {
                            if (t instanceof StructValue tv) {
                                String topic = tv.getString("Topic");
                                if (tv.get("PartitionIds") instanceof Collection<?> ids) {
                                    for (Object i : ids) {
                                        parts.add(topic + "-" + i);
                                    }
                                }
                            }
                        }
                    }
                    s.byId.put(id, new Txn(id, v.getLong("ProducerId"), (short) v.getInt("ProducerEpoch"),
                            v.getInt("TransactionTimeoutMs"), st == null ? String.valueOf(status) : st.stateName(),
                            List.copyOf(parts), v.getLong("TransactionStartTimestampMs"),
                            v.getLong("TransactionLastUpdateTimestampMs"), partition, record.offset()));
                }
            };
            new RecordWalk(options, DecoderChoice.TRANSACTIONS, RecordFilter.ALL, Long.MAX_VALUE).walk(p.getValue(), sink);
        }
        return s;
    }

    /** Whether any {@code __transaction_state} partition was read. */
    public boolean known() {
        return partitionsRead > 0;
    }

    public int partitionsRead() {
        return partitionsRead;
    }

    /** Every transactional id's state, by id. */
    public Collection<Txn> all() {
        return byId.values();
    }

    /** The transactional id whose current producer id is {@code producerId} ({@code listTransactions} filtered by producer id). */
    public Optional<Txn> byProducerId(long producerId) {
        for (Txn t : byId.values()) {
            if (t.producerId() == producerId) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** By producer id, for many lookups. */
    public Map<Long, Txn> indexByProducerId() {
        Map<Long, Txn> out = new HashMap<>();
        for (Txn t : byId.values()) {
            out.put(t.producerId(), t);
        }
        return out;
    }
}
