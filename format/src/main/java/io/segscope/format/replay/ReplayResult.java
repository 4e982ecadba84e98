package io.segscope.format.replay;

import io.segscope.format.error.Problem;
import io.segscope.format.io.KafkaUuid;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a replay of one {@code __consumer_offsets} partition holds: committed offsets, pending
 * transactional offsets, groups, the problems that would have made Kafka's load fail, and the
 * record types Kafka would have skipped. A view of the live {@link OffsetsReplay} (or of the
 * shards of a replay on several threads, each holding some groups): read it after the replay, not
 * during.
 */
public final class ReplayResult {
    /** offsets.retention.minutes' default, 10080 minutes (7 days), in ms ({@code GroupCoordinatorConfig}). */
    public static final long DEFAULT_RETENTION_MS = 10080L * 60 * 1000;

    private static final Comparator<CommittedOffset> ORDER = Comparator.comparing(CommittedOffset::group)
            .thenComparing(CommittedOffset::topic).thenComparingInt(CommittedOffset::partition);

    private final List<OffsetsReplay> shards;
    // shard 0: the batches, control records and file problems
    private final OffsetsReplay r;
    private final AsOf asOf;

    ReplayResult(List<OffsetsReplay> shards, AsOf asOf) {
        this.shards = shards;
        this.r = shards.get(0);
        this.asOf = asOf;
    }

    private OffsetsReplay shardOf(String groupId) {
        return shards.size() == 1 ? r : shards.get(OffsetsReplay.shardOf(groupId, shards.size()));
    }

    public AsOf asOf() { return asOf; }
    /** Whether the as-of limit cut the replay short. */
    public boolean stopped() { return r.stopped(); }
    /** Records replayed (data and control). */
    public long records() {
        long n = 0;
        for (OffsetsReplay s : shards) {
            n += s.records;
        }
        return n;
    }
    /** Batches replayed. */
    public long batches() { return r.batches; }
    /** The max timestamp of the last batch replayed, or -1. */
    public long lastBatchTimestamp() { return r.lastBatchTimestamp; }
    /** The offset after the last record replayed (the end offset of the replayed log), or -1 when none. */
    public long nextOffset() { return r.nextOffset; }

    /** The replay's "now": the as-of time when one was given, else the last batch's timestamp. */
    public long now() {
        return asOf.timeMs() != Long.MAX_VALUE ? asOf.timeMs() : r.lastBatchTimestamp;
    }

    /** What would have made Kafka's load of this partition fail (the replay went on past each). */
    public List<Problem> problems() {
        if (shards.size() == 1) {
            return Collections.unmodifiableList(r.problems);
        }
        // in log order: by the walk event each was found at (a batch, or a file problem of its own), then by offset
        List<long[]> order = new ArrayList<>();
        for (int k = 0; k < shards.size(); k++) {
            OffsetsReplay s = shards.get(k);
            for (int i = 0; i < s.problems.size(); i++) {
                order.add(new long[] {s.problemBatch.get(i), s.problems.get(i).baseOffset(), k, i});
            }
        }
        order.sort(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]).thenComparingLong(a -> a[2]));
        List<Problem> out = new ArrayList<>(order.size());
        for (long[] a : order) {
            out.add(shards.get((int) a[2]).problems.get((int) a[3]));
        }
        return Collections.unmodifiableList(out);
    }

    /** Records of types Kafka 4.4 does not know (skipped with a WARN, as the loader does), by type. */
    public Map<Short, Long> skippedRecordTypes() {
        if (shards.size() == 1) {
            return Collections.unmodifiableMap(r.skippedTypes);
        }
        Map<Short, Long> out = new TreeMap<>();
        for (OffsetsReplay s : shards) {
            s.skippedTypes.forEach((type, n) -> out.merge(type, n, Long::sum));
        }
        return Collections.unmodifiableMap(out);
    }

    /** Number of committed offsets. */
    public int offsetCount() {
        int n = 0;
        for (OffsetsReplay s : shards) {
            n += s.offsets.count();
        }
        return n;
    }

    /** Every committed offset, by group, topic and partition. */
    public List<CommittedOffset> offsets() {
        List<CommittedOffset> out = new ArrayList<>(offsetCount());
        for (OffsetsReplay shard : shards) {
            OffsetTable t = shard.offsets;
            for (int s = 0; s < t.limit(); s++) {
                if (t.live(s)) {
                    out.add(at(shard, s));
                }
            }
        }
        out.sort(ORDER);
        return out;
    }

    /** The committed offsets of one group, by topic and partition. */
    public List<CommittedOffset> offsets(String group) {
        OffsetsReplay shard = shardOf(group);
        int g = shard.groupIds.find(group);
        List<CommittedOffset> out = new ArrayList<>();
        if (g < 0) {
            return out;
        }
        OffsetTable t = shard.offsets;
        for (int s = 0; s < t.limit(); s++) {
            if (t.live(s) && t.group(s) == g) {
                out.add(at(shard, s));
            }
        }
        out.sort(ORDER);
        return out;
    }

    /** The committed offset of a key, or null. */
    public CommittedOffset offset(String group, String topic, int partition) {
        OffsetsReplay shard = shardOf(group);
        int g = shard.groupIds.find(group);
        int tp = shard.topics.find(topic);
        if (g < 0 || tp < 0) {
            return null;
        }
        int s = shard.offsets.find(g, tp, partition);
        return s < 0 ? null : at(shard, s);
    }

    private static CommittedOffset at(OffsetsReplay r, int s) {
        OffsetTable t = r.offsets;
        long msb = t.topicIdMsb(s);
        long lsb = t.topicIdLsb(s);
        KafkaUuid id = msb == 0 && lsb == 0 ? null : new KafkaUuid(msb, lsb);
        String file = r.files.get(t.file(s));
        return new CommittedOffset(r.groupIds.string(t.group(s)), r.topics.string(t.topic(s)), t.partition(s),
                t.offset(s), t.leaderEpoch(s), t.metadata(s), t.commitTimestamp(s),
                t.expireTimestamp(s), id, -1,
                new Provenance(file, partitionOf(file), t.recordOffset(s), t.position(s), t.batchTimestamp(s)));
    }

    private static int partitionOf(String file) {
        java.nio.file.Path p = java.nio.file.Path.of(file).getParent();
        if (p == null || p.getFileName() == null) {
            return -1;
        }
        return io.segscope.format.logdir.TopicPartitionName.tryParse(p.getFileName().toString())
                .map(io.segscope.format.logdir.TopicPartitionName::partition).orElse(-1);
    }

    /**
     * Transactional offsets still waiting for their producer's COMMIT or ABORT marker at the end
     * of the replay (open transactions; the loader reads to the log end offset, so they are
     * replayed but not committed), by producer id, then group, topic and partition.
     */
    public List<CommittedOffset> pendingOffsets() {
        List<CommittedOffset> out = new ArrayList<>();
        for (OffsetsReplay shard : shards) {
            for (Map<OffsetsReplay.Key, CommittedOffset> p : shard.pending.values()) {
                out.addAll(p.values());
            }
        }
        out.sort(Comparator.comparingLong(CommittedOffset::producerId).thenComparing(ORDER));
        return out;
    }

    /** Producers with an open transaction that wrote offsets (in {@link #pendingOffsets()}, or since cancelled by tombstones). */
    public Set<Long> openTransactions() {
        if (shards.size() == 1) {
            return Collections.unmodifiableSet(r.pending.keySet());
        }
        Set<Long> out = new java.util.LinkedHashSet<>();
        for (OffsetsReplay shard : shards) {
            out.addAll(shard.pending.keySet());
        }
        return Collections.unmodifiableSet(out);
    }

    /** Groups by id (sorted), simple groups included. */
    public Map<String, ReplayedGroup> groups() {
        Map<String, ReplayedGroup> out = new TreeMap<>();
        for (OffsetsReplay shard : shards) {
            out.putAll(shard.groups);
        }
        return Collections.unmodifiableMap(out);
    }

    public ReplayedGroup group(String groupId) {
        return shardOf(groupId).groups.get(groupId);
    }

    /** {@link #expiredOffsets(long, long)} with the default retention at {@link #now()}. */
    public List<ExpiredOffset> expiredOffsets() {
        return expiredOffsets(DEFAULT_RETENTION_MS, now());
    }

    /**
     * The committed offsets Kafka 4.4's expiration job would delete at {@code nowMs} with
     * {@code offsets.retention.ms} = {@code retentionMs} (docs/format.md 3.5). Per group
     * ({@code OffsetMetadataManager.cleanupExpiredOffsets}, {@code OffsetExpirationConditionImpl}):
     * <ul>
     * <li>the group must have an expiration condition ({@code Group.offsetExpirationCondition}):
     *   classic groups with a protocol type only when Empty (base: currentStateTimestamp when
     *   known, else the commit timestamp) or when Stable with the consumer protocol and parsed
     *   subscriptions (base: commit timestamp); simple classic groups, consumer and streams
     *   groups always (base: commit timestamp); a classic group in any other case never;</li>
     * <li>only topics the group is not subscribed to ({@link ReplayedGroup#subscribedTopics()});</li>
     * <li>and no pending transactional offset for the partition;</li>
     * <li>then: expired when {@code now >= expireTimestamp} for a v1 value that has one, else when
     *   {@code now - base >= retentionMs}.</li>
     * </ul>
     */
    public List<ExpiredOffset> expiredOffsets(long retentionMs, long nowMs) {
        List<ExpiredOffset> out = new ArrayList<>();
        Map<String, List<CommittedOffset>> byGroup = new TreeMap<>();
        for (CommittedOffset o : offsets()) {
            byGroup.computeIfAbsent(o.group(), x -> new ArrayList<>()).add(o);
        }
        for (Map.Entry<String, List<CommittedOffset>> e : byGroup.entrySet()) {
            ReplayedGroup g = group(e.getKey());
            if (g == null) {
                continue; // offsets whose group was deleted: no group, no expiration job for it
            }
            boolean classicState = false;
            if (g.type() == GroupType.CLASSIC && g.protocolType() != null) {
                if (g.members().isEmpty()) {
                    classicState = true;
                } else if (!"consumer".equals(g.protocolType()) || g.subscribedTopics() == null) {
                    continue; // no expiration condition
                }
            } else if (g.type() == GroupType.SHARE) {
                continue;
            }
            Set<String> subscribed = g.subscribedTopics();
            for (CommittedOffset o : e.getValue()) {
                if (subscribed == null || subscribed.contains(o.topic()) || hasPending(o)) {
                    continue;
                }
                if (o.expireTimestamp() != -1) { // OffsetAndMetadata.fromRecord: -1 = none
                    if (nowMs >= o.expireTimestamp()) {
                        out.add(new ExpiredOffset(o, o.expireTimestamp(), "expireTimestamp"));
                    }
                    continue;
                }
                boolean stateBase = classicState && g.currentStateTimestamp() >= 0;
                long base = stateBase ? g.currentStateTimestamp() : o.commitTimestamp();
                if (nowMs - base >= retentionMs) {
                    out.add(new ExpiredOffset(o, base + retentionMs, stateBase ? "currentStateTimestamp" : "commitTimestamp"));
                }
            }
        }
        return out;
    }

    private boolean hasPending(CommittedOffset o) {
        for (Map<OffsetsReplay.Key, CommittedOffset> p : shardOf(o.group()).pending.values()) {
            for (CommittedOffset q : p.values()) {
                if (q.group().equals(o.group()) && q.topic().equals(o.topic()) && q.partition() == o.partition()) {
                    return true;
                }
            }
        }
        return false;
    }
}
