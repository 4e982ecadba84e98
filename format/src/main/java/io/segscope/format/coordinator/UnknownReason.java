package io.segscope.format.coordinator;

import io.segscope.format.error.Violation;

/** Why a coordinator record could not be decoded (docs/format.md 2.1, 2.9). */
public enum UnknownReason {
    /** The record has no key: Kafka's tools stop on such a record. */
    MISSING_KEY(Violation.INVALID_COORDINATOR_KEY),
    /** The key is shorter than its int16 type, or its struct does not parse. */
    MALFORMED_KEY(Violation.INVALID_COORDINATOR_KEY),
    /** The int16 type is not one this topic defines (e.g. a newer Kafka's record). */
    UNKNOWN_RECORD_TYPE(Violation.UNKNOWN_RECORD_TYPE),
    /** The value's int16 version is outside the versions the type defines. */
    UNKNOWN_VALUE_VERSION(Violation.UNKNOWN_VALUE_VERSION),
    /** The value is shorter than its int16 version, or its struct does not parse. */
    MALFORMED_VALUE(Violation.INVALID_COORDINATOR_VALUE);

    private final Violation violation;

    UnknownReason(Violation violation) {
        this.violation = violation;
    }

    /** The violation a caller reports when it chooses to fail on this record. */
    public Violation violation() {
        return violation;
    }
}
