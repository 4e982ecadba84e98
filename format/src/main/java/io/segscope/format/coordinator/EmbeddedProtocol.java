package io.segscope.format.coordinator;

/**
 * A classic group member's {@code subscription} or {@code assignment} bytes decoded as the
 * consumer embedded protocol (docs/format.md 2.4): the int16 version found at the start of the
 * bytes, the struct read with the layout of that version clamped to the known range (as the
 * consumer's {@code ConsumerProtocol} does), and the raw bytes.
 *
 * @param version the version as stored
 * @param struct the decoded struct (its {@link StructValue#version()} is the clamped layout version)
 * @param raw the stored bytes
 * @param dumpToolReadable whether Kafka 4.4.0's DumpLogSegments also decodes these bytes: its
 *     generated readers refuse a nested topic-partition struct above version 3, so a newer
 *     version with any topic-partition entry is printed as base64 there
 */
public record EmbeddedProtocol(short version, StructValue struct, Bytes raw, boolean dumpToolReadable) {
}
