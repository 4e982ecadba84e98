package io.segscope.format.walk;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.metadata.ControlValueDecoder;
import io.segscope.format.coordinator.metadata.MetadataRecordDecoder;
import io.segscope.format.error.FormatException;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.LogRecord;

/**
 * How the records of one file are decoded, chosen by topic (docs/format.md 2): control records
 * always as control records; {@code __consumer_offsets}, {@code __transaction_state},
 * {@code __share_group_state} with their coordinator's schemas; the KRaft metadata log and its
 * snapshots with the metadata schemas; anything else as plain bytes.
 *
 * @param coordinator the coordinator decoder, or null
 * @param metadata true for KRaft metadata records
 */
public record Decoding(CoordinatorRecordDecoder coordinator, boolean metadata) {
    public static final Decoding NONE = new Decoding(null, false);

    /** The decoding of {@code file}'s records under {@code choice}. */
    public static Decoding of(LogFile file, DecoderChoice choice) {
        CoordinatorTopic topic = switch (choice) {
            case OFFSETS -> CoordinatorTopic.CONSUMER_OFFSETS;
            case TRANSACTIONS -> CoordinatorTopic.TRANSACTION_STATE;
            case SHARE -> CoordinatorTopic.SHARE_GROUP_STATE;
            case NONE, METADATA -> null;
            case AUTO -> file.topic().map(CoordinatorTopic::forTopicName).orElse(null);
        };
        if (topic != null) {
            return new Decoding(CoordinatorRecordDecoder.forTopic(topic), false);
        }
        boolean metadataLog = choice == DecoderChoice.METADATA || choice == DecoderChoice.AUTO && file.isMetadataLog();
        return metadataLog ? new Decoding(null, true) : NONE;
    }

    public boolean isCoordinator() {
        return coordinator != null;
    }

    /** What one record says. Unknown and malformed content is a value, never an exception. */
    public RecordContent decode(Batch b, LogRecord r) {
        if (b.isControl()) {
            try {
                short typeId = ControlRecord.typeId(b, r);
                return new RecordContent.Control(ControlRecord.Type.of(typeId), typeId, ControlValueDecoder.decode(b, r), null);
            } catch (FormatException e) {
                return new RecordContent.Control(ControlRecord.Type.UNKNOWN, (short) -1, null, e.detail());
            }
        }
        if (metadata) {
            return new RecordContent.Metadata(MetadataRecordDecoder.decode(r));
        }
        if (coordinator == null) {
            return RecordContent.Plain.INSTANCE;
        }
        return new RecordContent.Coordinator(coordinator.decode(r.hasKey() ? r.buffer() : null, r.keyOffset(), r.keyLength(),
                r.hasValue() ? r.buffer() : null, r.valueOffset(), r.valueLength()));
    }
}
