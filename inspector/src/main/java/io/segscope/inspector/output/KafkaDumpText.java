package io.segscope.inspector.output;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.RecordSchema;
import io.segscope.format.coordinator.Unknown;
import io.segscope.format.coordinator.UnknownReason;
import io.segscope.format.coordinator.metadata.ControlValue;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataResult;
import io.segscope.format.coordinator.metadata.MetadataUnknown;
import io.segscope.format.json.CoordinatorJson;
import io.segscope.format.json.JsonOut;
import io.segscope.format.json.MetadataJson;
import io.segscope.format.record.ControlRecord;

/**
 * The record texts Kafka 4.4.0's {@code kafka-dump-log.sh} (DumpLogSegments) prints with its
 * decoders, for {@link KafkaDumpWriter}: the {@code key:}/{@code payload:} of coordinator records
 * ({@code --offsets-decoder}, {@code --transaction-log-decoder}, {@code --share-group-state-decoder}),
 * the {@code payload:} of KRaft metadata records ({@code --cluster-metadata-decoder}) and the text
 * after a control record's metadata. The JSON itself comes from the library
 * ({@link CoordinatorJson}, {@link MetadataJson}); this class decides what the tool prints around
 * it, and when it prints a skip message instead.
 */
public final class KafkaDumpText {
    private KafkaDumpText() {
    }

    /**
     * The {@code key:} text for the coordinator record at {@code offset}: the key JSON, or the
     * tool's one-line message for an unknown type or a record that does not decode. Types that only
     * earlier releases defined (9, 18), which segscope decodes, are unknown types to 4.4.0 and print
     * as such here; {@link CoordinatorJson#keyText} renders them.
     */
    public static String keyText(CoordinatorResult r, long offset) {
        if (r instanceof Decoded && ((Decoded) r).schema().inKafka440()) {
            return CoordinatorJson.keyText((Decoded) r);
        }
        if (r instanceof Decoded || ((Unknown) r).reason() == UnknownReason.UNKNOWN_RECORD_TYPE
                || r.recordType() >= 0 && !isKafka440Type((Unknown) r)) {
            return "Unknown record type " + r.recordType() + " at offset " + offset + ", skipping.";
        }
        return "Error at offset " + offset + ", skipping. " + ((Unknown) r).kafkaMessage();
    }

    /** Appends {@link #keyText}'s text. */
    public static void writeKey(JsonOut o, CoordinatorResult r, long offset) {
        if (r instanceof Decoded d && d.schema().inKafka440()) {
            CoordinatorJson.writeKey(o, d);
        } else {
            o.raw(keyText(r, offset));
        }
    }

    /** Appends {@code " payload: "} and {@link #payloadText}'s text, or nothing when the tool prints no payload. */
    public static void writePayload(JsonOut o, CoordinatorResult r) {
        if (r instanceof Decoded d && d.schema().inKafka440()) {
            o.raw(" payload: ");
            if (d.value() == null) {
                o.raw(CoordinatorJson.DELETE);
            } else {
                CoordinatorJson.writeValue(o, d);
            }
        }
    }

    /** The {@code payload:} text of a coordinator record, or null when the tool prints none (unknown records). */
    public static String payloadText(CoordinatorResult r) {
        return r instanceof Decoded && ((Decoded) r).schema().inKafka440() ? CoordinatorJson.valueText((Decoded) r) : null;
    }

    private static boolean isKafka440Type(Unknown u) {
        RecordSchema s = CoordinatorRecordDecoder.forTopic(u.topic()).schemas().forType(u.recordType());
        return s == null || s.inKafka440();
    }

    /**
     * The {@code payload:} text of the metadata record at {@code offset}:
     * {@link MetadataJson#payloadText}, or {@code Error at <offset>, skipping. <message>}.
     */
    public static String metadataPayloadText(MetadataResult r, long offset) {
        if (r instanceof MetadataDecoded) {
            return MetadataJson.payloadText((MetadataDecoded) r);
        }
        return "Error at " + offset + ", skipping. " + ((MetadataUnknown) r).kafkaMessage();
    }

    /**
     * The text printed after a control record's metadata (leading space included):
     * {@code " LeaderChange: {...}"}, {@code " SnapshotHeader {...}"}, {@code " endTxnMarker: COMMIT
     * coordinatorEpoch: 5"}, {@code " controlType: UNKNOWN(9)"}; null for a
     * {@link ControlValue.Malformed} value, on which the tool stops with an exception.
     */
    public static String controlText(ControlValue v) {
        if (v instanceof ControlValue.Message) {
            ControlValue.Message m = (ControlValue.Message) v;
            return controlLabel(m.schema().type()) + MetadataJson.controlDataText(m);
        }
        if (v instanceof ControlValue.EndTxnMarker) {
            ControlValue.EndTxnMarker e = (ControlValue.EndTxnMarker) v;
            return " endTxnMarker: " + e.type() + " coordinatorEpoch: " + e.coordinatorEpoch();
        }
        if (v instanceof ControlValue.UnknownType) {
            return " controlType: UNKNOWN(" + v.typeId() + ")";
        }
        return null;
    }

    /** What the tool prints before a KRaft control value's JSON. */
    private static String controlLabel(ControlRecord.Type type) {
        switch (type) {
            case LEADER_CHANGE: return " LeaderChange: ";
            case SNAPSHOT_HEADER: return " SnapshotHeader ";
            case SNAPSHOT_FOOTER: return " SnapshotFooter ";
            case KRAFT_VERSION: return " KRaftVersion ";
            case KRAFT_VOTERS: return " KRaftVoters ";
            default: throw new IllegalArgumentException("no KRaft control value: " + type);
        }
    }
}
