package io.segscope.jmh.compact;

import io.segscope.format.compact.KafkaCleanerOracle;
import io.segscope.format.compact.CompactResult;
import io.segscope.format.compact.CompactStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.storage.internals.log.CleanerStats;

/**
 * The benchmark's correctness gate: segscope's compaction of a partition against Kafka's cleaning of
 * a copy with the same settings. The same passes with the same end offsets and {@code CleanerStats}
 * figures, the same segments, and every cleaned segment's {@code .log}, {@code .index},
 * {@code .timeindex} and {@code .txnindex} byte for byte, the {@code .log} of the others (Kafka's
 * roll leaves an empty active segment at the log end, which is not one of the input's and is
 * skipped). Kafka's log must be closed (its indexes trimmed) before the comparison.
 */
final class CompactCheck {
    private CompactCheck() {
    }

    /** Throws unless segscope's result and output equal Kafka's. */
    static void sameAsKafka(CompactResult ours, KafkaCleanerOracle.Result kafka, Path kafkaDir) throws IOException {
        CompactStats stats = ours.stats();
        List<Long> ends = stats.rounds().stream().map(CompactStats.Round::endOffset).toList();
        if (!ends.equals(kafka.endOffsets())) {
            throw new IllegalStateException("passes differ: segscope ended at " + ends + ", Kafka at " + kafka.endOffsets());
        }
        for (int i = 0; i < ends.size(); i++) {
            CompactStats.Round r = stats.rounds().get(i);
            CleanerStats k = kafka.stats().get(i);
            long[] mine = {r.mapMessagesRead(), r.mapBytesRead(), r.messagesRead(), r.bytesRead(), r.messagesWritten(),
                r.bytesWritten(), r.invalidMessagesRead()};
            long[] theirs = {k.mapMessagesRead(), KafkaCleanerOracle.mapBytesRead(k), k.messagesRead(), k.bytesRead(),
                k.messagesWritten(), k.bytesWritten(), k.invalidMessagesRead()};
            if (!Arrays.equals(mine, theirs)) {
                throw new IllegalStateException("pass " + i + " stats (map messages, map bytes, read, bytes read, written,"
                        + " bytes written, invalid) differ: segscope " + Arrays.toString(mine) + ", Kafka " + Arrays.toString(theirs));
            }
        }
        Path ourDir = ours.partitionDir().orElseThrow();
        List<Path> mineLogs = CompactPartitions.segmentLogs(ourDir);
        List<Path> theirLogs = new ArrayList<>(CompactPartitions.segmentLogs(kafkaDir));
        Path last = theirLogs.isEmpty() ? null : theirLogs.get(theirLogs.size() - 1);
        if (last != null && Files.size(last) == 0 && !mineLogs.isEmpty()
                && !mineLogs.get(mineLogs.size() - 1).getFileName().equals(last.getFileName())) {
            theirLogs.remove(theirLogs.size() - 1);   // the empty active segment of Kafka's roll
        }
        List<String> names = mineLogs.stream().map(p -> p.getFileName().toString()).toList();
        List<String> theirNames = theirLogs.stream().map(p -> p.getFileName().toString()).toList();
        if (!names.equals(theirNames)) {
            throw new IllegalStateException("segments differ: segscope " + names + ", Kafka " + theirNames);
        }
        for (String log : names) {
            String base = log.substring(0, 20);
            // segments at or past the cleaner checkpoint were not cleaned (the last stable offset):
            // their .log is the input's; their indexes are whatever each side was given
            boolean cleaned = Long.parseLong(base) < stats.cleanerCheckpoint();
            for (String ext : cleaned ? List.of(".log", ".index", ".timeindex", ".txnindex") : List.of(".log")) {
                Path k = kafkaDir.resolve(base + ext);
                Path o = ourDir.resolve(base + ext);
                if (Files.exists(k) != Files.exists(o)) {
                    throw new IllegalStateException(base + ext + ": exists in Kafka's output " + Files.exists(k)
                            + ", in segscope's " + Files.exists(o));
                }
                if (Files.exists(k)) {
                    long at = Files.mismatch(k, o);
                    if (at >= 0) {
                        throw new IllegalStateException(base + ext + " differs: Kafka " + Files.size(k) + " bytes, segscope "
                                + Files.size(o) + ", first difference at byte " + at);
                    }
                }
            }
        }
    }
}
