/**
 * JSON rendering of decoded coordinator records with Kafka's field names, byte-identical to
 * Kafka 4.4.0's DumpLogSegments decoders (docs/format.md 2.9), written with jackson-core's
 * streaming generator.
 */
package io.segscope.format.json;
