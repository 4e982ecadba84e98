/**
 * Where bytes come from. A {@link io.segscope.format.io.ByteSource} is a readable window onto one
 * file, addressed by absolute file position: {@link io.segscope.format.io.MappedSource} maps a
 * file read-only (zero copy), {@link io.segscope.format.io.StreamSource} reads an archive entry or
 * a pipe forward through a bounded window, {@code ByteSource.wrap} serves bytes already in memory.
 * {@link io.segscope.format.io.Varints} decodes and encodes Kafka's varints (the one decoder, with
 * Kafka's 5/10-byte bounds); {@link io.segscope.format.io.Cursor} reads fields and varints in place
 * with bounds checks and error context; {@link io.segscope.format.io.KafkaUuid} is Kafka's uuid; {@link io.segscope.format.io.Checksums} computes CRC-32C and CRC-32 with the
 * JDK's intrinsics; {@link io.segscope.format.io.SourceCopy} copies small files out of streams.
 * Readers never open files themselves and never move a buffer's position.
 */
package io.segscope.format.io;
