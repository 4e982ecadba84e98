package io.segscope.format.coordinator;

import io.segscope.format.error.FormatException;

/**
 * A record that could not be decoded, with everything known about it: the reason, the type and
 * value version numbers when they could be read, the raw key and value bytes, the key struct when
 * only the value failed, and a detail message with the byte position of the failure.
 *
 * @param topic the coordinator topic
 * @param reason why decoding stopped
 * @param recordType the key's int16, or -1 when unreadable
 * @param valueVersion the value's int16, or -1 when unreadable or tombstone
 * @param key the raw key bytes (null when absent)
 * @param value the raw value bytes (null for a tombstone)
 * @param decodedKey the key struct when the key parsed, else null
 * @param detail what went wrong, e.g. {@code "non-nullable field metadata was serialized as null"}
 * @param field the schema path being read when it failed, or null
 * @param position the byte position of the failure inside the key or value (per {@code reason}), or -1
 */
public record Unknown(CoordinatorTopic topic, UnknownReason reason, short recordType, short valueVersion,
                      Bytes key, Bytes value, StructValue decodedKey, String detail, String field,
                      int position) implements CoordinatorResult {

    @Override
    public StructValue keyStruct() {
        return decodedKey;
    }

    /**
     * Kafka's own wording for this failure, as DumpLogSegments 4.4.0 prints it after
     * {@code "Error at offset <o>, skipping. "} (docs/format.md 2.9), where the message is fixed.
     */
    public String kafkaMessage() {
        switch (reason) {
            case UNKNOWN_RECORD_TYPE: return "Found an unknown record type " + recordType;
            case UNKNOWN_VALUE_VERSION: return "Found an unknown record version " + valueVersion + " for " + recordType + " type";
            case MISSING_KEY: return "message had a missing key";
            case MALFORMED_KEY:
                return recordType < 0 ? "Could not read version from key's buffer."
                        : "Could not read record with version " + recordType + " from key's buffer due to: " + detail + ".";
            default:
                return valueVersion < 0 && value != null && value.length() < 2 ? "Could not read version from value's buffer."
                        : "Could not read record with version " + valueVersion + " from value's buffer due to: " + detail + ".";
        }
    }

    /** The same facts as a {@link FormatException}, for callers that fail on unknown records. */
    public FormatException toException(String file, long position, long offset) {
        return FormatException.at(reason.violation(), file, position).baseOffset(offset)
                .field(field == null ? (reason == UnknownReason.MALFORMED_VALUE || reason == UnknownReason.UNKNOWN_VALUE_VERSION ? "value" : "key") : field)
                .actual("type " + recordType + (valueVersion >= 0 ? " version " + valueVersion : ""))
                .note(kafkaMessage()).build();
    }
}
