/**
 * Tiered storage's {@code __remote_log_metadata} (docs/format.md 2): the schemas of its four record
 * types as Kafka 4.4.0's kafka-storage defines them, the decoder (the framing of KRaft metadata
 * records) and the text Kafka's {@code DumpLogSegments --remote-log-metadata-decoder} prints.
 */
package io.segscope.format.coordinator.remote;
