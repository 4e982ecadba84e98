package io.segscope.format.verify;

import io.segscope.format.error.Violation;
import io.segscope.format.state.EpochEntry;

import java.util.List;

/**
 * The leader-epoch-checkpoint of a partition against the {@code partitionLeaderEpoch} of its
 * batches (docs/format.md 1.1). Kafka's leader-epoch cache holds, per epoch, the offset of the
 * first batch written in it; epochs and start offsets strictly increase. What a healthy log may
 * still show, reported as info: an epoch with no batch (a leader that wrote nothing, or whose
 * batches compaction or retention removed), a first entry moved up to the log start offset
 * ({@code truncateFromStart}), and on a compacted log an epoch whose first batches were cleaned.
 */
final class LeaderEpochCheck {
    private LeaderEpochCheck() {
    }

    static void check(Report report, String file, List<EpochEntry> entries, EpochTracker log, boolean compacted,
                      long logStart, Boolean cleanShutdown) {
        if (log.backwardsPosition >= 0) {
            report.add(log.backwardsFile, log.backwardsPosition, Violation.LEADER_EPOCH_ORDER, Severity.WARNING,
                    log.backwardsOffset, "batch partitionLeaderEpoch " + log.backwardsEpoch + " after epoch "
                            + log.backwardsPrevious + ": leader epochs of the batches go backwards");
        }
        for (int i = 0; i < entries.size(); i++) {
            EpochEntry e = entries.get(i);
            if (i > 0) {
                EpochEntry prev = entries.get(i - 1);
                if (e.epoch() <= prev.epoch() || e.startOffset() <= prev.startOffset()) {
                    report.add(file, e.position(), Violation.LEADER_EPOCH_ORDER, Severity.ERROR, e.startOffset(),
                            "entry (epoch " + e.epoch() + ", start " + e.startOffset() + ") does not follow (epoch "
                                    + prev.epoch() + ", start " + prev.startOffset() + "): both must increase");
                    continue;
                }
            }
            int at = log.indexOf(e.epoch());
            if (at < 0) {
                if (log.size() > 0 && !log.overflowed()) {
                    report.add(file, e.position(), Violation.LEADER_EPOCH_MISMATCH, Severity.INFO, e.startOffset(),
                            "no batch carries epoch " + e.epoch() + " (a leader that wrote nothing, or batches removed"
                                    + " by retention or compaction)");
                }
                continue;
            }
            long first = log.startOffset(at);
            if (first == e.startOffset()) {
                continue;
            }
            boolean explained = i == 0 && e.startOffset() > first // moved up to the log start offset
                    || e.startOffset() < first && (compacted || e.startOffset() < logStart);
            report.add(file, e.position(), Violation.LEADER_EPOCH_MISMATCH, explained ? Severity.INFO : Severity.WARNING,
                    e.startOffset(), "epoch " + e.epoch() + " starts at " + e.startOffset() + " in the checkpoint but its"
                            + " first batch is at offset " + first + (explained ? (i == 0 && e.startOffset() > first
                            ? " (the log start offset moved past it)" : " (earlier batches were removed)") : ""));
        }
        int firstEpoch = entries.isEmpty() ? Integer.MAX_VALUE : entries.get(0).epoch();
        for (int i = 0; i < log.size(); i++) {
            int epoch = log.epoch(i);
            boolean listed = false;
            for (EpochEntry e : entries) {
                if (e.epoch() == epoch) {
                    listed = true;
                    break;
                }
            }
            if (!listed) {
                boolean explained = epoch < firstEpoch || !Boolean.TRUE.equals(cleanShutdown);
                report.add(file, -1, Violation.LEADER_EPOCH_MISMATCH, explained ? Severity.INFO : Severity.WARNING,
                        log.startOffset(i), "batches carry epoch " + epoch + " from offset " + log.startOffset(i)
                                + " but the checkpoint has no entry for it" + (epoch < firstEpoch
                                ? " (below its first epoch: batches before the log start offset)"
                                : explained ? " (not yet flushed before the broker stopped)" : ""));
            }
        }
    }
}
