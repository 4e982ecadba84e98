/**
 * Replaying {@code __consumer_offsets} as Kafka 4.4's group coordinator loads it
 * (docs/format.md 3): committed offsets, pending transactional offsets and groups of one
 * partition, as of its end, a time or an offset, with the offsets a broker would expire, and a
 * helper to choose among several replicas of the partition.
 *
 * <h2>API</h2>
 * <ul>
 * <li>{@link io.segscope.format.replay.OffsetsReplay}: the engine, a
 *   {@link io.segscope.format.walk.RecordSink} of a {@link io.segscope.format.walk.RecordWalk}
 *   (batch context from {@code batch(...)}: producer id, control flag, position, max timestamp,
 *   file). {@code OffsetsReplay.replay(OffsetsReplay.logFiles(dir), AsOf.END)} does the walk;
 *   {@code result()} reads the state.</li>
 * <li>{@link io.segscope.format.replay.AsOf}: {@code END}, {@code time(ms)} (every batch up to the
 *   first whose max timestamp is later), {@code endOffset(o)} (every record below {@code o}). The
 *   result equals the replay of the log cut there (tested over seeded random logs).</li>
 * <li>{@link io.segscope.format.replay.ReplayResult}: {@code offsets()}, {@code offsets(group)},
 *   {@code offset(group, topic, partition)} → {@link io.segscope.format.replay.CommittedOffset}
 *   (offset, leader epoch, metadata, commit and expire timestamps, topic id,
 *   {@link io.segscope.format.replay.Provenance}: file, partition of {@code __consumer_offsets},
 *   log offset, byte position, batch timestamp); {@code pendingOffsets()} and
 *   {@code openTransactions()}; {@code groups()} → {@link io.segscope.format.replay.ReplayedGroup}
 *   ({@link io.segscope.format.replay.GroupType}, state, simple or not, epochs, members
 *   ({@link io.segscope.format.replay.Member}), target assignments, regular expressions,
 *   topology, every record's struct); {@code problems()}; {@code skippedRecordTypes()};
 *   {@code expiredOffsets(retentionMs, nowMs)} → {@link io.segscope.format.replay.ExpiredOffset};
 *   {@code now()} (the as-of time, else the last batch's timestamp).</li>
 * <li>{@link io.segscope.format.replay.Replicas}: {@code choose(dirs)} → the copy a new leader
 *   would have (highest last leader epoch, then log end offset) and the divergent copies.</li>
 * </ul>
 *
 * <h2>Rules (Kafka 4.4.0, each checked against its classes)</h2>
 * <ul>
 * <li>Loading ({@code CoordinatorLoaderImpl}): batches in log order to the log end offset; a
 *   control batch's COMMIT/ABORT goes to {@code replayEndTransactionMarker(producerId)}, other
 *   control types are ignored; a data record is transactional when its batch's producer id is not
 *   -1 (the transactional flag is not looked at); magic 0/1 records are plain.</li>
 * <li>Offsets ({@code OffsetMetadataManager.replay}): key types 0 (value v0 only) and 1 (v0-v4);
 *   a plain commit overwrites unconditionally; a transactional one is pending per producer id; a
 *   COMMIT materialises a pending offset when no committed offset exists or its record offset is
 *   higher than the committed one's; ABORT drops them; an offset tombstone removes the committed
 *   offset and the key's pending offsets of every producer. A commit for a group id that has no
 *   group creates a simple (classic, Empty) group, transactional commits included.</li>
 * <li>Groups ({@code GroupMetadataManager.replay}): a GroupMetadataValue replaces the group (any
 *   type), its tombstone removes the group (any type); <b>group tombstones leave committed
 *   offsets alone</b> (GroupMetadata and ConsumerGroupMetadata tombstones alike: verified with the
 *   shard, offsets survive until their own tombstones). Consumer (3-8, 16), share (10-15) and
 *   streams (17, 19-23) records create their group for a value, are ignored as tombstones of a
 *   missing group or member, replace a simple classic group (consumer, streams) and fail the load
 *   over any other type (share: a simple group too). New modern groups start with group epoch 1
 *   and target assignment epoch 1 ({@code TargetAssignmentMetadata.INITIAL}); the deletion checks
 *   ({@code IllegalStateException}) are reported as problems.</li>
 * <li>Group states: see {@link io.segscope.format.replay.ReplayedGroup#state()}. Classic groups
 *   are Empty or Stable only: the log cannot tell PreparingRebalance/CompletingRebalance.</li>
 * <li>Unknown record types (and 9, 18, which 4.4.0 no longer knows) are skipped and counted, as
 *   the loader skips them with a WARN. A missing or malformed key, a value that does not parse or
 *   an unknown value version fails Kafka's load: each is a
 *   {@link io.segscope.format.error.Problem} (file, batch position, record offset as its
 *   {@code baseOffset}, reason), and the replay goes on with the next record. A batch with a bad
 *   CRC is a problem and is not replayed (recovery would truncate there).</li>
 * <li>Expiration: {@link io.segscope.format.replay.ReplayResult#expiredOffsets(long, long)}
 *   ({@code cleanupExpiredOffsets}, {@code OffsetExpirationConditionImpl}, {@code
 *   Group.offsetExpirationCondition}, {@code isSubscribedToTopic}); docs/format.md 3.5.</li>
 * </ul>
 *
 * <h2>Memory and speed</h2>
 * Committed offsets are rows of 13 longs in chunked arrays ({@code OffsetTable}), found through an
 * open-addressing table that holds each key inline (group id, topic id, partition: interned ids,
 * the partitions of one group and topic next to each other); group ids and topic names are kept
 * once each (looked up by their UTF-8 bytes without building Strings); a commit's metadata is kept
 * as its UTF-8 bytes, in the row up to 16 bytes, else in a byte arena where the key keeps its space,
 * and becomes a String only when read. A commit writes its row without reading it (a row is rarely
 * in the cache). Replaying an OffsetCommit creates no object; memory grows with live keys, not with
 * records. Measured ({@code MemoryPerKeyTest}: 100 000 keys, each committed 3 times): about 180
 * bytes retained per live key (table and growth slack included). Pending transactional offsets,
 * group records and problems are ordinary objects.
 * <p>
 * {@link io.segscope.format.replay.OffsetsReplay#replay(java.util.List, AsOf, int)} replays on
 * several threads: groups are split into shards by a hash of the group id, each thread walks the
 * whole log and replays its shard's groups (every key type starts with the group id, and Kafka's
 * rules never relate two groups' records except through transaction markers, which every shard
 * replays); the result is the same as one thread's ({@code ShardedReplayTest}).
 */
package io.segscope.format.replay;
