package io.segscope.format.coordinator.metadata;

import io.segscope.format.coordinator.Bytes;
import io.segscope.format.error.FormatException;

/**
 * A metadata record value that Kafka 4.4.0 does not read, with everything known about it.
 *
 * @param reason why decoding stopped
 * @param frameVersion the frame version, or -1 when unreadable
 * @param apiKey the apiKey, or -1 when unreadable
 * @param version the record version, or -1 when unreadable
 * @param kafkaMessage the message of the exception Kafka's {@code MetadataRecordSerde} throws on
 *     these bytes, which DumpLogSegments prints after {@code "Error at <offset>, skipping. "}
 * @param detail what went wrong, in segscope's words (with the field and position)
 * @param field the schema path being read when it failed, or null
 * @param position the byte position of the failure inside the value, or -1
 * @param value the raw value bytes (null for a null value)
 */
public record MetadataUnknown(MetadataUnknownReason reason, short frameVersion, short apiKey, short version,
                              String kafkaMessage, String detail, String field, int position,
                              Bytes value) implements MetadataResult {

    /** The same facts as a {@link FormatException}, for callers that fail on unknown records. */
    public FormatException toException(String file, long filePosition, long offset) {
        return FormatException.at(reason.violation(), file, filePosition).baseOffset(offset)
                .field(field == null ? "value" : field)
                .actual("frame " + frameVersion + " apiKey " + apiKey + " version " + version)
                .note(reason + ": " + detail).build();
    }
}
