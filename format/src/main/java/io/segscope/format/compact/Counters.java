package io.segscope.format.compact;

/** The running figures of one round, Kafka's {@code CleanerStats} fields (docs/format.md 4.6). */
final class Counters {
    long mapBytesRead;
    long mapMessagesRead;
    long bytesRead;
    long bytesWritten;
    long messagesRead;
    long messagesWritten;
    long invalidMessages;
    long batchesCopied;
    long batchesRebuilt;
    long emptyBatchesWritten;
    long batchesDropped;
}
