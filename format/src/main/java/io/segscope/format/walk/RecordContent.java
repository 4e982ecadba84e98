package io.segscope.format.walk;

import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.metadata.ControlValue;
import io.segscope.format.coordinator.metadata.MetadataResult;
import io.segscope.format.record.ControlRecord;

/**
 * What a record says, as far as segscope understands it: a coordinator record (decoded or
 * unknown), a KRaft metadata record, a {@code __remote_log_metadata} record, a record a decoder
 * plugin read, a control record, or plain bytes.
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
     * A record of {@code __remote_log_metadata} (tiered storage), framed as metadata records are,
     * decoded with {@link io.segscope.format.coordinator.remote.RemoteLogMetadataSchemas}.
     */
    record RemoteLogMetadata(MetadataResult result) implements RecordContent {
    }

    /**
     * A record of a user topic decoded by a {@link io.segscope.format.walk.spi.RecordDecoder}
     * found on the classpath or the decoder path.
     *
     * @param decoder the decoder's name
     * @param key what it made of the key (JSON-ish: Map, List, String, Number, Boolean or null), or null
     * @param value what it made of the value, or null
     * @param error why it failed (its exception), or null
     */
    record Plugin(String decoder, Object key, Object value, String error) implements RecordContent {
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
