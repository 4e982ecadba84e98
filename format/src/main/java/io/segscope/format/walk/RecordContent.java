package io.segscope.format.walk;

import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.metadata.ControlValue;
import io.segscope.format.coordinator.metadata.MetadataResult;
import io.segscope.format.record.ControlRecord;

/**
 * What a record says, as far as segscope understands it: a coordinator record (decoded or
 * unknown), a KRaft metadata record, a control record, or plain bytes.
 */
public sealed interface RecordContent {
    /** Key and value are opaque bytes of a user topic. */
    record Plain() implements RecordContent {
        public static final Plain INSTANCE = new Plain();
    }

    /** A record of a coordinator topic. */
    record Coordinator(CoordinatorResult result) implements RecordContent {
    }

    /** A record of the KRaft metadata log ({@code __cluster_metadata}) or of a KRaft snapshot. */
    record Metadata(MetadataResult result) implements RecordContent {
    }

    /**
     * A control record.
     *
     * @param type the type named by the key (UNKNOWN for ids Kafka does not define)
     * @param typeId the raw type id, or -1 when the key does not parse
     * @param value the decoded value, or null when the key does not parse
     * @param error why the key did not parse, or null
     */
    record Control(ControlRecord.Type type, short typeId, ControlValue value, String error) implements RecordContent {
        /** The coordinator epoch of a COMMIT/ABORT marker, else -1. */
        public int coordinatorEpoch() {
            return value instanceof ControlValue.EndTxnMarker m ? m.coordinatorEpoch() : -1;
        }

        /** Why the value did not parse, or null. */
        public String valueError() {
            return value instanceof ControlValue.Malformed m ? m.detail() : null;
        }
    }
}
