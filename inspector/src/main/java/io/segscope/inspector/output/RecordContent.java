package io.segscope.inspector.output;

import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.record.ControlRecord;

/**
 * What a record says, as far as segscope understands it: a coordinator record (decoded or
 * unknown), a control record, or plain bytes.
 */
public sealed interface RecordContent {
    /** Key and value are opaque bytes of a user topic. */
    record Plain() implements RecordContent {
        public static final Plain INSTANCE = new Plain();
    }

    /** A record of a coordinator topic. */
    record Coordinator(CoordinatorResult result) implements RecordContent {
    }

    /**
     * A control record.
     *
     * @param typeId the raw type id, or -1 when the key does not parse
     * @param coordinatorEpoch for COMMIT/ABORT, else -1
     * @param error why the key or value did not parse, or null
     */
    record Control(ControlRecord.Type type, short typeId, int coordinatorEpoch, String error) implements RecordContent {
    }
}
