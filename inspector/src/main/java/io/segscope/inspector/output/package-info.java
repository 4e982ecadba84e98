/**
 * The writers of {@code dump}: {@code text} (readable, positions, ISO-8601 times, quoted strings),
 * {@code kafka} (the lines of Kafka's DumpLogSegments, record texts in {@code KafkaDumpText}) and {@code jsonl} (jackson-core streaming; the
 * schema is in the README); side files go through one visitor ({@code SideFiles}).
 */
package io.segscope.inspector.output;
