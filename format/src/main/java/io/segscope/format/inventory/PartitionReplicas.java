package io.segscope.format.inventory;

import io.segscope.format.state.EpochEntry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The replicas of one partition found in the log dirs given (one per broker log dir), side by
 * side: the most advanced (the highest last leader epoch, then the highest log end offset: the copy
 * a new leader would have, and the one whose offsets clients were served) and how each other one
 * stands against it, by Kafka's follower truncation rule (docs/format.md 1.11).
 *
 * @param topic the topic
 * @param partition the partition
 * @param replicas every replica, in the order given
 * @param mostAdvanced the index in {@code replicas} of the most advanced
 * @param standing per replica, how it stands against the most advanced
 * @param metadataLeader the last leader the KRaft metadata log given recorded, if known
 */
public record PartitionReplicas(String topic, int partition, List<ReplicaState> replicas, int mostAdvanced,
                                List<Divergence> standing, java.util.OptionalInt metadataLeader) {

    public ReplicaState leader() {
        return replicas.get(mostAdvanced);
    }

    /** Whether any replica diverged from the most advanced one or lags behind it. */
    public boolean differs() {
        return standing.stream().anyMatch(d -> !d.kind().equals(Divergence.IN_SYNC) && !d.kind().equals(Divergence.MOST_ADVANCED));
    }

    /** Groups the replicas of one partition and compares them. */
    public static PartitionReplicas of(List<ReplicaState> replicas) {
        return of(replicas, java.util.OptionalInt.empty());
    }

    /**
     * Groups the replicas of one partition and compares them; of replicas equally advanced, the
     * metadata log's leader is taken (then the first given).
     */
    public static PartitionReplicas of(List<ReplicaState> replicas, java.util.OptionalInt metadataLeader) {
        int best = 0;
        for (int i = 1; i < replicas.size(); i++) {
            ReplicaState a = replicas.get(i);
            ReplicaState b = replicas.get(best);
            boolean aLeads = metadataLeader.isPresent() && a.brokerId().isPresent()
                    && a.brokerId().getAsInt() == metadataLeader.getAsInt();
            if (a.latestEpoch() > b.latestEpoch()
                    || a.latestEpoch() == b.latestEpoch() && a.logEndOffset() > b.logEndOffset()
                    || a.latestEpoch() == b.latestEpoch() && a.logEndOffset() == b.logEndOffset() && aLeads) {
                best = i;
            }
        }
        ReplicaState leader = replicas.get(best);
        List<EpochEntry> le = epochs(leader);
        List<Divergence> standing = new ArrayList<>();
        for (int i = 0; i < replicas.size(); i++) {
            if (i == best) {
                standing.add(new Divergence(Divergence.MOST_ADVANCED, leader.logEndOffset(), 0,
                        replicas.size() == 1 ? "the only replica given"
                                : "the highest last leader epoch (" + leader.latestEpoch() + "), then the highest log end offset"
                                + (metadataLeader.isPresent() ? ", then the last leader in the metadata log (broker "
                                + metadataLeader.getAsInt() + ")" : "")));
                continue;
            }
            standing.add(compare(replicas.get(i), leader, le));
        }
        ReplicaState first = replicas.get(0);
        return new PartitionReplicas(first.topic(), first.partition(), List.copyOf(replicas), best, List.copyOf(standing),
                metadataLeader);
    }

    private static Divergence compare(ReplicaState r, ReplicaState leader, List<EpochEntry> le) {
        List<EpochEntry> re = epochs(r);
        long truncateTo = r.logEndOffset();
        String why = null;
        int e = r.latestEpoch();
        if (e >= 0 && !le.isEmpty()) {
            // LeaderEpochFileCache.endOffsetFor on the leader's epochs
            int latest = le.get(le.size() - 1).epoch();
            long leaderEnd;
            int leaderEpoch;
            if (e == latest) {
                leaderEpoch = e;
                leaderEnd = leader.logEndOffset();
            } else {
                EpochEntry higher = le.stream().filter(x -> x.epoch() > e).findFirst().orElse(null);
                EpochEntry floor = null;
                for (EpochEntry x : le) {
                    if (x.epoch() <= e) {
                        floor = x;
                    }
                }
                if (higher == null) {
                    leaderEpoch = -1;
                    leaderEnd = -1;
                } else {
                    leaderEpoch = floor == null ? e : floor.epoch();
                    leaderEnd = higher.startOffset();
                }
            }
            if (leaderEpoch >= 0) {
                long own = r.logEndOffset();
                if (leaderEpoch != e) {
                    // the follower's own end of the leader's epoch: the start of its next epoch
                    for (EpochEntry x : re) {
                        if (x.epoch() > leaderEpoch) {
                            own = x.startOffset();
                            break;
                        }
                    }
                }
                truncateTo = Math.min(Math.min(leaderEnd, own), r.logEndOffset());
                if (truncateTo < r.logEndOffset()) {
                    why = "its leader epoch " + e + " ends at offset " + leaderEnd + " on the most advanced replica (" + broker(leader)
                            + (leaderEpoch == e ? "" : ", which knows epoch " + leaderEpoch + " as the last before it")
                            + ", leader epochs " + text(le) + "): offsets " + truncateTo + ".." + (r.logEndOffset() - 1)
                            + " here are not its records; Kafka would truncate this replica to " + truncateTo;
                }
            }
        }
        if (why != null) {
            return new Divergence(Divergence.DIVERGED, truncateTo, r.logEndOffset() - truncateTo, why);
        }
        if (r.logEndOffset() < leader.logEndOffset()) {
            return new Divergence(Divergence.BEHIND, r.logEndOffset(), leader.logEndOffset() - r.logEndOffset(),
                    "ends at " + r.logEndOffset() + ", " + (leader.logEndOffset() - r.logEndOffset())
                            + " offsets before the most advanced replica (" + broker(leader) + ")");
        }
        if (r.logEndOffset() > leader.logEndOffset()) {
            return new Divergence(Divergence.DIVERGED, leader.logEndOffset(), r.logEndOffset() - leader.logEndOffset(),
                    "ends past the most advanced replica (" + r.logEndOffset() + " vs " + leader.logEndOffset()
                            + ") in an older leader epoch: Kafka would truncate it to " + leader.logEndOffset());
        }
        if (!epochs(r).equals(le)) {
            return new Divergence(Divergence.DIVERGED, r.logEndOffset(), 0, "same log end offset, other leader epochs: "
                    + text(re) + " vs " + text(le));
        }
        return new Divergence(Divergence.IN_SYNC, r.logEndOffset(), 0, "same log end offset and leader epochs");
    }

    private static String broker(ReplicaState r) {
        return r.brokerId().isPresent() ? "broker " + r.brokerId().getAsInt() : "in " + (r.logDir().isEmpty() ? r.dir() : r.logDir());
    }

    private static String text(List<EpochEntry> es) {
        StringBuilder sb = new StringBuilder();
        for (EpochEntry e : es) {
            sb.append(sb.isEmpty() ? "" : ",").append(e.epoch()).append('@').append(e.startOffset());
        }
        return sb.isEmpty() ? "none" : sb.toString();
    }

    /** The checkpoint's epochs starting below the log end (Kafka truncates the others on loading), then those of the batches past its last one. */
    static List<EpochEntry> epochs(ReplicaState r) {
        List<EpochEntry> out = new ArrayList<>();
        for (EpochEntry e : r.epochCheckpoint()) {
            if (e.startOffset() < r.logEndOffset()) {
                out.add(new EpochEntry(e.epoch(), e.startOffset(), -1));
            }
        }
        for (EpochEntry e : r.epochBatches()) {
            if (out.isEmpty() || e.epoch() > out.get(out.size() - 1).epoch()) {
                out.add(new EpochEntry(e.epoch(), e.startOffset(), -1));
            }
        }
        out.sort(Comparator.comparingInt(EpochEntry::epoch));
        return out;
    }
}
