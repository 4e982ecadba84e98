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

    /**
     * A record of a coordinator topic. Made by a walk, it decodes the record when {@link #result()}
     * is first asked for, which must be while the record is the walk's current one (the sink's
     * call): a writer that prints the record straight from its bytes ({@link #keyBuffer()} and the
     * rest) never decodes it. A walk reuses one instance for all its records, as it reuses the
     * record itself: keep the result, not the content.
     */
    final class Coordinator implements RecordContent {
        private CoordinatorResult result;
        private io.segscope.format.coordinator.CoordinatorRecordDecoder decoder;
        private java.nio.ByteBuffer keyBuffer;
        private int keyOffset;
        private int keyLength;
        private java.nio.ByteBuffer valueBuffer;
        private int valueOffset;
        private int valueLength;

        /** A record already decoded. */
        public Coordinator(CoordinatorResult result) {
            this(result, null, null, 0, -1, null, 0, -1);
        }

        private Coordinator(CoordinatorResult result, io.segscope.format.coordinator.CoordinatorRecordDecoder decoder,
                            java.nio.ByteBuffer keyBuffer, int keyOffset, int keyLength,
                            java.nio.ByteBuffer valueBuffer, int valueOffset, int valueLength) {
            this.result = result;
            this.decoder = decoder;
            this.keyBuffer = keyBuffer;
            this.keyOffset = keyOffset;
            this.keyLength = keyLength;
            this.valueBuffer = valueBuffer;
            this.valueOffset = valueOffset;
            this.valueLength = valueLength;
        }

        /** A record to decode on demand (null buffer: no key, or a tombstone). */
        public static Coordinator of(io.segscope.format.coordinator.CoordinatorRecordDecoder decoder,
                                     java.nio.ByteBuffer keyBuffer, int keyOffset, int keyLength,
                                     java.nio.ByteBuffer valueBuffer, int valueOffset, int valueLength) {
            return new Coordinator(null, decoder, keyBuffer, keyOffset, keyLength, valueBuffer, valueOffset, valueLength);
        }

        /** Points this content at the next record of a walk ({@link Decoding#decode}). */
        Coordinator reset(io.segscope.format.coordinator.CoordinatorRecordDecoder decoder,
                          java.nio.ByteBuffer keyBuffer, int keyOffset, int keyLength,
                          java.nio.ByteBuffer valueBuffer, int valueOffset, int valueLength) {
            this.result = null;
            this.decoder = decoder;
            this.keyBuffer = keyBuffer;
            this.keyOffset = keyOffset;
            this.keyLength = keyLength;
            this.valueBuffer = valueBuffer;
            this.valueOffset = valueOffset;
            this.valueLength = valueLength;
            return this;
        }

        public CoordinatorResult result() {
            if (result == null) {
                result = decoder.decode(keyBuffer, keyOffset, keyLength, valueBuffer, valueOffset, valueLength);
            }
            return result;
        }

        /** The decoder of an undecoded record, or null once decoded or when made decoded. */
        public io.segscope.format.coordinator.CoordinatorRecordDecoder decoder() {
            return result == null ? decoder : null;
        }

        public java.nio.ByteBuffer keyBuffer() {
            return keyBuffer;
        }

        public int keyOffset() {
            return keyOffset;
        }

        public int keyLength() {
            return keyLength;
        }

        public java.nio.ByteBuffer valueBuffer() {
            return valueBuffer;
        }

        public int valueOffset() {
            return valueOffset;
        }

        public int valueLength() {
            return valueLength;
        }
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
