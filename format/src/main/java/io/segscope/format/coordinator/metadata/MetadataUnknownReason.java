package io.segscope.format.coordinator.metadata;

import io.segscope.format.error.Violation;

/** Why a metadata record value could not be decoded. */
public enum MetadataUnknownReason {
    /** The record has a null value. */
    NULL_VALUE,
    /** A header varint (frame version, type, version) is truncated, too long or above 32767. */
    MALFORMED_HEADER,
    /** The frame version is not 1. */
    UNSUPPORTED_FRAME_VERSION,
    /** The apiKey is not one Kafka 4.4.0 defines. */
    UNKNOWN_RECORD_TYPE,
    /** The struct does not parse at the record's version. */
    MALFORMED_VALUE,
    /** The struct parses but bytes follow it. */
    TRAILING_BYTES;

    /** The violation reported for any of these: {@link Violation#INVALID_METADATA_RECORD}. */
    public Violation violation() {
        return Violation.INVALID_METADATA_RECORD;
    }
}
