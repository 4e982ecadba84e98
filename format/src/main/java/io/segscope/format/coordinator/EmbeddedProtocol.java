package io.segscope.format.coordinator;

/**
 * A classic group member's {@code subscription} or {@code assignment} bytes decoded as the
 * consumer embedded protocol (kafka-format.md 2.4): the int16 version found at the start of the
 * bytes, the struct read with the layout of that version (clamped to the known range, as Kafka's
 * reader does), and the raw bytes.
 */
public record EmbeddedProtocol(short version, StructValue struct, Bytes raw) {
}
