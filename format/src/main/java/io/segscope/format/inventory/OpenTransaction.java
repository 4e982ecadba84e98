package io.segscope.format.inventory;

/**
 * A transaction open at the end of a partition's log: a producer whose transactional batches have
 * no COMMIT or ABORT marker after them (its {@code currentTxnFirstOffset} in the producer state).
 *
 * @param producerId the producer id
 * @param producerEpoch the producer epoch of its last batch
 * @param coordinatorEpoch the coordinator epoch of its last marker (-1: none)
 * @param firstOffset the transaction's first offset (the last stable offset cannot pass it)
 * @param firstTimestamp the first batch's max timestamp (-1 when the batch was not read)
 * @param lastTimestamp the max timestamp of the producer's last batch ({@code describeProducers}'
 *     lastTimestamp, from which {@code kafka-transactions find-hanging} counts the duration)
 */
public record OpenTransaction(long producerId, short producerEpoch, int coordinatorEpoch, long firstOffset,
                              long firstTimestamp, long lastTimestamp) {
}
