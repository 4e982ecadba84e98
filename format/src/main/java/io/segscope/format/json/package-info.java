/**
 * JSON rendering of decoded coordinator records with Kafka's field names, byte-identical to
 * Kafka 4.4.0's DumpLogSegments decoders (docs/format.md 2.9), written as UTF-8 bytes by
 * {@link io.segscope.format.json.JsonOut}, which writes what jackson-core's generator writes.
 */
package io.segscope.format.json;
