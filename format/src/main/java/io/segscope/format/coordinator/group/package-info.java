/**
 * {@code __consumer_offsets}: the schema tables of every record type (0-8, 10-17, 19-23 as in
 * Kafka 4.4.0, plus the removed types 9 and 18), the consumer embedded protocol carried in classic
 * group members' subscription/assignment bytes, and the allocation-free offset-commit view
 * (docs/format.md 2.2-2.6).
 */
package io.segscope.format.coordinator.group;
