package io.segscope.format.coordinator;

/**
 * What {@link CoordinatorRecordDecoder} makes of one record: {@link Decoded} or {@link Unknown}.
 * Neither is an error by itself: the caller decides whether an unknown record fails a run.
 */
public sealed interface CoordinatorResult permits Decoded, Unknown {
    CoordinatorTopic topic();

    /** The int16 at the start of the key, or -1 when the key is shorter than 2 bytes or absent. */
    short recordType();
}
