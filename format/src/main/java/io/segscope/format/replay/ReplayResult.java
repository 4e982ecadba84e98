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
 * record types Kafka would have skipped. A view of the live {@link OffsetsReplay}: read it after
 * the replay, not during.
 */
public final class ReplayResult {
    /** offsets.retention.minutes' default, 10080 minutes (7 days), in ms ({@code GroupCoordinatorConfig}). */
    public static final long DEFAULT_RETENTION_MS = 10080L * 60 * 1000;

    private static final Comparator<CommittedOffset> ORDER = Comparator.comparing(CommittedOffset::group)
            .thenComparing(CommittedOffset::topic).thenComparingInt(CommittedOffset::partition);

    private final OffsetsReplay r;
    private final AsOf asOf;

    ReplayResult(OffsetsReplay replay, AsOf asOf) {
        this.r = replay;
        this.asOf = asOf;
    }

    public AsOf asOf() { return asOf; }
    /** Whether the as-of limit cut the replay short. */
    public boolean stopped() { return r.stopped(); }
    /** Records replayed (data and control). */
    public long records() { return r.records; }
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
    public List<Problem> problems() { return Collections.unmodifiableList(r.problems); }

    /** Records of types Kafka 4.4 does not know (skipped with a WARN, as the loader does), by type. */
    public Map<Short, Long> skippedRecordTypes() { return Collections.unmodifiableMap(r.skippedTypes); }

    /** Number of committed offsets. */
    public int offsetCount() { return r.offsets.count(); }

    /** Every committed offset, by group, topic and partition. */
    public List<CommittedOffset> offsets() {
        List<CommittedOffset> out = new ArrayList<>(r.offsets.count());
        OffsetTable t = r.offsets;
        for (int s = 0; s < t.limit(); s++) {
            if (t.live(s)) {
                out.add(at(s));
            }
        }
        out.sort(ORDER);
        return out;
    }

    /** The committed offsets of one group, by topic and partition. */
    public List<CommittedOffset> offsets(String group) {
        int g = r.groupIds.find(group);
        List<CommittedOffset> out = new ArrayList<>();
        if (g < 0) {
            return out;
        }
        OffsetTable t = r.offsets;
        for (int s = 0; s < t.limit(); s++) {
            if (t.live(s) && t.group(s) == g) {
                out.add(at(s));
            }
        }
        out.sort(ORDER);
        return out;
    }

    /** The committed offset of a key, or null. */
    public CommittedOffset offset(String group, String topic, int partition) {
        int g = r.groupIds.find(group);
        int tp = r.topics.find(topic);
        if (g < 0 || tp < 0) {
            return null;
        }
        int s = r.offsets.find(g, tp, partition);
        return s < 0 ? null : at(s);
    }

    private CommittedOffset at(int s) {
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
        for (Map<OffsetsReplay.Key, CommittedOffset> p : r.pending.values()) {
            out.addAll(p.values());
        }
        out.sort(Comparator.comparingLong(CommittedOffset::producerId).thenComparing(ORDER));
        return out;
    }

    /** Producers with an open transaction that wrote offsets (in {@link #pendingOffsets()}, or since cancelled by tombstones). */
    public Set<Long> openTransactions() {
        return Collections.unmodifiableSet(r.pending.keySet());
    }

    /** Groups by id (sorted), simple groups included. */
    public Map<String, ReplayedGroup> groups() {
        return Collections.unmodifiableMap(new TreeMap<>(r.groups));
    }

    public ReplayedGroup group(String groupId) {
        return r.groups.get(groupId);
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
            ReplayedGroup g = r.groups.get(e.getKey());
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
        for (Map<OffsetsReplay.Key, CommittedOffset> p : r.pending.values()) {
            for (CommittedOffset q : p.values()) {
                if (q.group().equals(o.group()) && q.topic().equals(o.topic()) && q.partition() == o.partition()) {
                    return true;
                }
            }
        }
        return false;
    }
}
