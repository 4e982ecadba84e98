/**
 * Format compatibility (docs/format.md 1.6, 1.7, 2.5): what a log holds, format by format
 * ({@link io.segscope.format.compat.FormatInventory}), and what each Kafka release can read.
 *
 * <p>{@link io.segscope.format.compat.KafkaReleases} is the per-release table, 0.10.0 to 4.4: for
 * each line a {@link io.segscope.format.compat.ReleaseFormats} (highest magic, codecs, delete
 * horizons, control record types) with, for each {@link io.segscope.format.compat.StateLog}, a
 * {@link io.segscope.format.compat.LogKnowledge}: every {@link io.segscope.format.compat.KnownRecord}
 * (type, name, value versions) and the {@link io.segscope.format.compat.LoadOutcome} of an unknown
 * type or a too-new value version. The record types and versions are pinned to each release's own
 * schemas under {@code testdata/schemas} by {@code KafkaReleasesSchemaTest}.
 *
 * <p>{@link io.segscope.format.compat.Compatibility} joins the two into a verdict per line, with
 * who reads the committed offsets ({@link io.segscope.format.compat.Compatibility.Access});
 * {@link io.segscope.format.compat.ThirdPartyDecoders} lists sourced reports of third-party
 * decoders that failed on a record version.
 */
package io.segscope.format.compat;
