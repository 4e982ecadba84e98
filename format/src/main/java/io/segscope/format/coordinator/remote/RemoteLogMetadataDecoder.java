package io.segscope.format.coordinator.remote;

import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataRecordDecoder;
import io.segscope.format.coordinator.metadata.MetadataResult;
import io.segscope.format.coordinator.metadata.MetadataUnknown;
import io.segscope.format.record.LogRecord;
import java.nio.ByteBuffer;

/**
 * Decodes the value of one {@code __remote_log_metadata} record with the rules of Kafka 4.4.0's
 * {@code RemoteLogMetadataSerde} (kafka-storage): the framing and failure messages of
 * {@code AbstractApiMessageSerde}, the same as the KRaft metadata log's
 * ({@link MetadataRecordDecoder}), over the four record types of {@link RemoteLogMetadataSchemas}.
 * Every outcome is a value ({@link MetadataDecoded} or {@link MetadataUnknown}); what Kafka's
 * {@code RemoteLogMetadata} objects make of a decoded struct, and how DumpLogSegments prints them,
 * is {@link RemoteLogMetadataText}. Stateless and thread-safe.
 */
public final class RemoteLogMetadataDecoder {
    private RemoteLogMetadataDecoder() {
    }

    /** Decodes {@code buf[off, off+len)}; a null buffer or a negative length is a null value. */
    public static MetadataResult decode(ByteBuffer buf, int off, int len) {
        return MetadataRecordDecoder.decode(buf, off, len, RemoteLogMetadataSchemas::forApiKey);
    }

    /** Decodes the value of a record of a {@code __remote_log_metadata} segment. */
    public static MetadataResult decode(LogRecord record) {
        return decode(record.hasValue() ? record.buffer() : null, record.valueOffset(), record.valueLength());
    }

    /** Decodes a byte array (null is a null value). */
    public static MetadataResult decode(byte[] value) {
        return value == null ? decode(null, 0, -1) : decode(ByteBuffer.wrap(value), 0, value.length);
    }
}
