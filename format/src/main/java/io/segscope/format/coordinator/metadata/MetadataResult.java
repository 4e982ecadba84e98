package io.segscope.format.coordinator.metadata;

/**
 * What {@link MetadataRecordDecoder} makes of one record value: {@link MetadataDecoded} or
 * {@link MetadataUnknown}. Neither is an error by itself: the caller decides.
 */
public sealed interface MetadataResult permits MetadataDecoded, MetadataUnknown {
    /** The record's apiKey, or -1 when the value ends before it. */
    short apiKey();
}
