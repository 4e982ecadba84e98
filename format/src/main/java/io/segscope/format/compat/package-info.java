/**
 * Format compatibility (docs/format.md 1.6, 1.7, 2.5): what a log holds, format by format
 * ({@link io.segscope.format.compat.FormatInventory}), as the basis of which Kafka releases and
 * tools can read it.
 */
package io.segscope.format.compat;
