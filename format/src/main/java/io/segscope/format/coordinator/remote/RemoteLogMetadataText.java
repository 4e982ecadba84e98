package io.segscope.format.coordinator.remote;

import io.segscope.format.coordinator.Bytes;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataResult;
import io.segscope.format.coordinator.metadata.MetadataUnknown;
import io.segscope.format.coordinator.metadata.MetadataUnknownReason;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What Kafka 4.4.0's {@code DumpLogSegments --remote-log-metadata-decoder} prints as the
 * {@code payload:} of a {@code __remote_log_metadata} record: {@code RemoteLogMetadataSerde.deserialize}
 * turns the struct into a {@code RemoteLogSegmentMetadata}, {@code RemoteLogSegmentMetadataUpdate},
 * {@code RemotePartitionDeleteMetadata} or {@code RemoteLogSegmentMetadataSnapshot} and the tool
 * prints its {@code toString()}; when anything throws it prints
 * {@code Error at offset <o>, skipping. <message>}. This class redoes both, with the checks those
 * classes' constructors make (state ids they do not know, negative or inverted offsets, no leader
 * epochs), in the order they make them.
 */
public final class RemoteLogMetadataText {
    /** What the tool prints for a record with a null value (the JVM's helpful NullPointerException message). */
    static final String NULL_VALUE_MESSAGE = "Cannot invoke \"java.nio.ByteBuffer.remaining()\" because the return value of"
            + " \"org.apache.kafka.common.record.internal.Record.value()\" is null";

    private static final String[] SEGMENT_STATES = {
        "COPY_SEGMENT_STARTED", "COPY_SEGMENT_FINISHED", "DELETE_SEGMENT_STARTED", "DELETE_SEGMENT_FINISHED"};
    private static final String[] PARTITION_DELETE_STATES = {
        "DELETE_PARTITION_MARKED", "DELETE_PARTITION_STARTED", "DELETE_PARTITION_FINISHED"};

    private RemoteLogMetadataText() {
    }

    /** The {@code payload:} text of the record at {@code offset}. */
    public static String payloadText(MetadataResult r, long offset) {
        String text;
        try {
            text = kafkaText(r);
        } catch (KafkaFailure e) {
            return "Error at offset " + offset + ", skipping. " + e.getMessage();
        }
        return text;
    }

    /** The name of a {@code RemoteLogSegmentState} id, or null when Kafka defines none. */
    public static String segmentState(byte id) {
        return id >= 0 && id < SEGMENT_STATES.length ? SEGMENT_STATES[id] : null;
    }

    /** The name of a {@code RemotePartitionDeleteState} id, or null when Kafka defines none. */
    public static String partitionDeleteState(byte id) {
        return id >= 0 && id < PARTITION_DELETE_STATES.length ? PARTITION_DELETE_STATES[id] : null;
    }

    /** Kafka's {@code toString()} of the deserialized object; throws {@link KafkaFailure} where Kafka throws. */
    static String kafkaText(MetadataResult r) {
        if (r instanceof MetadataUnknown u) {
            throw new KafkaFailure(u.reason() == MetadataUnknownReason.NULL_VALUE ? NULL_VALUE_MESSAGE : u.kafkaMessage());
        }
        MetadataDecoded d = (MetadataDecoded) r;
        StructValue v = d.value();
        switch (d.apiKey()) {
            case 0: return segment(v);
            case 1: return update(v);
            case 2: return partitionDelete(v);
            default: return snapshot(v);
        }
    }

    private static String segment(StructValue v) {
        String id = segmentId((StructValue) v.get("RemoteLogSegmentId"));
        long start = v.getLong("StartOffset");
        long end = v.getLong("EndOffset");
        // new RemoteLogSegmentMetadata(..., COPY_SEGMENT_STARTED, epochs, txnIndexEmpty), then createWithUpdates(update)
        checkOffsets(start, end);
        String epochs = epochs(v);
        String state = requireState(segmentState(((Number) v.get("RemoteLogSegmentState")).byteValue()));
        return "RemoteLogSegmentMetadata{remoteLogSegmentId=" + id + ", startOffset=" + start + ", endOffset=" + end
                + ", brokerId=" + v.getInt("BrokerId") + ", maxTimestampMs=" + v.getLong("MaxTimestampMs")
                + ", eventTimestampMs=" + v.getLong("EventTimestampMs") + ", segmentLeaderEpochs=" + epochs
                + ", segmentSizeInBytes=" + v.getInt("SegmentSizeInBytes") + ", customMetadata=" + custom(v)
                + ", state=" + state + ", txnIdxEmpty=" + txnIndexEmpty(v) + "}";
    }

    private static String update(StructValue v) {
        String id = segmentId((StructValue) v.get("RemoteLogSegmentId"));
        String state = requireState(segmentState(((Number) v.get("RemoteLogSegmentState")).byteValue()));
        return "RemoteLogSegmentMetadataUpdate{remoteLogSegmentId=" + id + ", customMetadata=" + custom(v) + ", state="
                + state + ", eventTimestampMs=" + v.getLong("EventTimestampMs") + ", brokerId=" + v.getInt("BrokerId") + "}";
    }

    private static String partitionDelete(StructValue v) {
        String tp = topicIdPartition((StructValue) v.get("TopicIdPartition"));
        String state = partitionDeleteState(((Number) v.get("RemotePartitionDeleteState")).byteValue());
        if (state == null) {
            throw new KafkaFailure("null"); // Objects.requireNonNull(state) without a message
        }
        return "RemotePartitionDeleteMetadata{topicPartition=" + tp + ", state=" + state + ", eventTimestampMs="
                + v.getLong("EventTimestampMs") + ", brokerId=" + v.getInt("BrokerId") + "}";
    }

    private static String snapshot(StructValue v) {
        String state = requireState(segmentState(((Number) v.get("RemoteLogSegmentState")).byteValue()));
        String epochs = epochs(v);
        return "RemoteLogSegmentMetadataSnapshot{segmentId=" + v.get("SegmentId") + ", startOffset="
                + v.getLong("StartOffset") + ", endOffset=" + v.getLong("EndOffset") + ", maxTimestampMs="
                + v.getLong("MaxTimestampMs") + ", segmentLeaderEpochs=" + epochs + ", segmentSizeInBytes="
                + v.getInt("SegmentSizeInBytes") + ", customMetadata=" + custom(v) + ", state=" + state
                + ", txnIdxEmpty=" + txnIndexEmpty(v) + "}";
    }

    private static void checkOffsets(long start, long end) {
        if (start < 0) {
            throw new KafkaFailure("Unexpected start offset = " + start + ". StartOffset for a remote segment cannot be negative");
        }
        if (end < start) {
            throw new KafkaFailure("Unexpected end offset = " + end
                    + ". EndOffset for a remote segment cannot be less than startOffset = " + start);
        }
    }

    private static String requireState(String state) {
        if (state == null) {
            throw new KafkaFailure("state can not be null");
        }
        return state;
    }

    /** The leader epochs as Kafka's {@code TreeMap} prints them (a later duplicate epoch wins, as in its HashMap). */
    private static String epochs(StructValue v) {
        @SuppressWarnings("unchecked")
        List<StructValue> entries = (List<StructValue>) v.get("SegmentLeaderEpochs");
        Map<Integer, Long> m = new TreeMap<>();
        for (StructValue e : entries) {
            m.put(e.getInt("LeaderEpoch"), e.getLong("Offset"));
        }
        if (m.isEmpty()) {
            throw new KafkaFailure("segmentLeaderEpochs can not be null or empty");
        }
        return m.toString();
    }

    private static String custom(StructValue v) {
        Bytes b = (Bytes) v.get("CustomMetadata");
        return b == null ? "Optional.empty" : "Optional[CustomMetadata{" + b.length() + " bytes}]";
    }

    private static boolean txnIndexEmpty(StructValue v) {
        return Boolean.TRUE.equals(v.get("TxnIndexEmpty"));
    }

    private static String segmentId(StructValue id) {
        return "RemoteLogSegmentId{topicIdPartition=" + topicIdPartition((StructValue) id.get("TopicIdPartition")) + ", id="
                + id.get("Id") + "}";
    }

    /** {@code TopicIdPartition.toString()}: {@code <topicId>:<topic>-<partition>}. */
    private static String topicIdPartition(StructValue tp) {
        return tp.get("Id") + ":" + tp.getString("Name") + "-" + tp.getInt("Partition");
    }

    /** Where Kafka's classes throw: the exception's message. */
    static final class KafkaFailure extends RuntimeException {
        KafkaFailure(String message) {
            super(message, null, false, false);
        }
    }
}
