package io.segscope.format.walk;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.metadata.ControlValueDecoder;
import io.segscope.format.coordinator.metadata.MetadataRecordDecoder;
import io.segscope.format.coordinator.remote.RemoteLogMetadataDecoder;
import io.segscope.format.coordinator.remote.RemoteLogMetadataSchemas;
import io.segscope.format.error.FormatException;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.LogRecord;
import io.segscope.format.walk.spi.RecordDecoder;
import io.segscope.format.walk.spi.RecordDecoders;

/**
 * How the records of one file are decoded, chosen by topic (docs/format.md 2): control records
 * always as control records; {@code __consumer_offsets}, {@code __transaction_state},
 * {@code __share_group_state} with their coordinator's schemas; the KRaft metadata log and its
 * snapshots with the metadata schemas; {@code __remote_log_metadata} with the tiered storage
 * schemas; other topics with the first decoder plugin that handles them; anything else as plain
 * bytes.
 *
 * @param coordinator the coordinator decoder, or null
 * @param metadata true for KRaft metadata records
 * @param remoteLogMetadata true for {@code __remote_log_metadata} records
 * @param plugin the decoder plugin for the topic, or null
 * @param topic the topic name, when a plugin decodes it
 */
public record Decoding(CoordinatorRecordDecoder coordinator, boolean metadata, boolean remoteLogMetadata,
                       RecordDecoder plugin, String topic) {
    public static final Decoding NONE = new Decoding(null, false);

    public Decoding(CoordinatorRecordDecoder coordinator, boolean metadata) {
        this(coordinator, metadata, false, null, null);
    }

    /** The decoding of {@code file}'s records under {@code choice}. */
    public static Decoding of(LogFile file, DecoderChoice choice) {
        return of(file, choice, RecordDecoders.NONE);
    }

    /**
     * The decoding of {@code file}'s records under {@code choice}, with {@code plugins} consulted
     * for the topics segscope has no decoder of its own for ({@link DecoderChoice#AUTO} only).
     */
    public static Decoding of(LogFile file, DecoderChoice choice, RecordDecoders plugins) {
        CoordinatorTopic topic = switch (choice) {
            case OFFSETS -> CoordinatorTopic.CONSUMER_OFFSETS;
            case TRANSACTIONS -> CoordinatorTopic.TRANSACTION_STATE;
            case SHARE -> CoordinatorTopic.SHARE_GROUP_STATE;
            case NONE, METADATA, REMOTE_LOG_METADATA -> null;
            case AUTO -> file.topic().map(CoordinatorTopic::forTopicName).orElse(null);
        };
        if (topic != null) {
            return new Decoding(CoordinatorRecordDecoder.forTopic(topic), false);
        }
        boolean metadataLog = choice == DecoderChoice.METADATA || choice == DecoderChoice.AUTO && file.isMetadataLog();
        if (metadataLog) {
            return new Decoding(null, true);
        }
        String name = file.topic().orElse(null);
        if (choice == DecoderChoice.REMOTE_LOG_METADATA
                || choice == DecoderChoice.AUTO && RemoteLogMetadataSchemas.TOPIC.equals(name)) {
            return new Decoding(null, false, true, null, name);
        }
        RecordDecoder plugin = choice == DecoderChoice.AUTO && name != null ? plugins.forTopic(name) : null;
        return plugin == null ? NONE : new Decoding(null, false, false, plugin, name);
    }

    public boolean isCoordinator() {
        return coordinator != null;
    }

    /** What one record says. Unknown and malformed content is a value, never an exception. */
    public RecordContent decode(Batch b, LogRecord r) {
        return decode(b, r, null);
    }

    /**
     * {@link #decode(Batch, LogRecord)}, a coordinator record's content in {@code reuse} when
     * given (valid while the record is: a walk's one content object for all its records).
     */
    public RecordContent decode(Batch b, LogRecord r, RecordContent.Coordinator reuse) {
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
        if (remoteLogMetadata) {
            return new RecordContent.RemoteLogMetadata(RemoteLogMetadataDecoder.decode(r));
        }
        if (plugin != null) {
            return RecordDecoders.decode(plugin, topic, r);
        }
        if (coordinator == null) {
            return RecordContent.Plain.INSTANCE;
        }
        if (reuse != null) {
            return reuse.reset(coordinator, r.hasKey() ? r.buffer() : null, r.keyOffset(), r.keyLength(),
                    r.hasValue() ? r.buffer() : null, r.valueOffset(), r.valueLength());
        }
        return RecordContent.Coordinator.of(coordinator, r.hasKey() ? r.buffer() : null, r.keyOffset(), r.keyLength(),
                r.hasValue() ? r.buffer() : null, r.valueOffset(), r.valueLength());
    }
}
