package io.segscope.inspector.report;

import io.segscope.format.replay.CommitHistory;

import java.util.List;

/**
 * What the report shows, gathered from the engines' models by {@code ReportCommand}: plain values,
 * no file left open. {@link ReportPage} turns it into HTML.
 */
public final class ReportModel {
    private ReportModel() {
    }

    /**
     * The page as a whole.
     *
     * @param asOfTime the --as-of-time cut, or -1
     * @param left notes on what the page left out (caps) or could not cut
     */
    public record Report(String title, long asOfTime, Overview overview, List<Partition> partitions, int partitionsLeftOut,
                         Groups groups, List<Transaction> transactions, boolean coordinatorKnown, long transactionsEnd,
                         int maxTransactionTimeoutMinutes, List<Compaction> compaction, Formats formats, Footer footer,
                         List<String> left) {
    }

    /** The overview's figures. */
    public record Overview(List<Integer> brokers, int logDirs, int topics, int partitions, int replicas, long bytes, long bytesAsOf,
                           long firstTime, long lastTime, int cleanShutdown, int uncleanShutdown, int unknownShutdown,
                           long errors, long warnings, long crashArtefacts, long infos, long files, long batches,
                           long records, List<Finding> findings, int findingsLeftOut, String oldestRelease,
                           List<Release> releases, List<String> unreadable) {
    }

    /** One verify finding, as the page tells it. */
    public record Finding(String file, long position, String severity, String kind, String message, boolean crashArtefact) {
    }

    /** One Kafka release line's verdict. */
    public record Release(String line, String release, boolean loads, String reason) {
    }

    /**
     * One partition: its replicas side by side and what verify found in its files.
     *
     * @param health "ok", "info", "warning", "damaged" or "diverged"
     * @param dirtyRatio the leader's dirty ratio, or -1 when not compacted
     */
    public record Partition(String topic, int partition, String health, long bytes, double dirtyRatio,
                            List<Replica> replicas, List<Damage> damage) {
        public String name() {
            return topic + "-" + partition;
        }
    }

    /**
     * One replica of a partition.
     *
     * @param asOfEnd with --as-of-time, the log end then (Kafka's search by timestamp: the first offset
     *     written at or after it), else -1
     * @param asOfBytes with --as-of-time, its bytes up to the first batch later than then, else -1
     */
    public record Replica(String where, int broker, long logStart, long highWatermark, long lastStable, long logEnd,
                          long asOfEnd, long asOfBytes, String standing, List<Segment> segments, List<long[]> epochs, List<String> notes) {
    }

    /** One segment along the offset axis: [baseOffset, endOffset), its .log bytes. */
    public record Segment(long baseOffset, long endOffset, long bytes, String file) {
    }

    /**
     * A damaged range from verify: bytes [byteFrom, byteTo) of a file, offsets [offsetFrom,
     * offsetTo] lost (-1 unknown).
     */
    public record Damage(String file, long segmentBase, long byteFrom, long byteTo, long offsetFrom, long offsetTo,
                         String severity, String kind, String message) {
    }

    /** The consumer groups section. */
    public record Groups(int coordinatorPartitions, int total, List<Group> table, int tableLeftOut, int drawnLimit,
                         long staleAfterMs, List<String> problems) {
    }

    /**
     * One group.
     *
     * @param totalLag summed over its partitions whose log end is known, or -1
     * @param history the commit history (empty when the group is not drawn)
     */
    public record Group(String id, String type, String state, int members, long lastCommit, long totalLag,
                        int coordinatorPartition, int committedPartitions, int pending, boolean stopped,
                        List<Lag> lag, List<CommitHistory.Series> history, boolean drawn) {
    }

    /** One committed partition's lag: log end (high watermark) minus committed offset; -1 when unknown. */
    public record Lag(String topic, int partition, long committed, long end, long lag) {
    }

    /** One open transaction. */
    public record Transaction(String partition, int broker, long producerId, short producerEpoch, long firstOffset,
                              long firstTimestamp, long lastTimestamp, long ageMs, long idleMs, String transactionalId,
                              String coordinatorState, boolean hanging, String verdict) {
    }

    /**
     * One compacted partition, now and after a clean.
     *
     * @param bytesAfter -1 when no dry run was made (see note)
     * @param minRatio the topic's min.cleanable.dirty.ratio (the metadata log's, else Kafka's default)
     * @param configs where the cleaner's configs came from (the metadata log, broker defaults)
     */
    public record Compaction(String partition, long bytesNow, long recordsNow, long bytesAfter, long recordsAfter,
                             double dirtyRatio, double minRatio, String configs, boolean wouldClean, boolean nextPick, String note) {
    }

    /**
     * The formats section: per topic, batches by magic and codec, record versions with their time span,
     * and counts per time bucket by family.
     *
     * @param timelines magic, codec, {@code __consumer_offsets} record versions, other state logs' record versions
     *     (empty when the data has no time)
     * @param undated batches not drawn over time (no timestamp, or one outside the data's span)
     */
    public record Formats(List<TopicFormat> topics, List<Span> spans, List<Timeline> timelines, long undated) {
    }

    /**
     * One family's counts per time bucket.
     *
     * @param unit the buckets' width ("hour", "day", "week", "month", "N months")
     * @param bounds the buckets' bounds (epoch ms), one more than the buckets
     * @param counted "batches" or "records"
     * @param verdicts one line per series: since when, until when
     */
    public record Timeline(String family, String unit, long[] bounds, String counted, List<Series> series, List<String> verdicts) {
    }

    /** One stacked series: its count per bucket, first and last time seen. */
    public record Series(String label, long[] counts, long first, long last) {
        public long total() {
            long t = 0;
            for (long c : counts) {
                t += c;
            }
            return t;
        }
    }

    /** One topic's batch counts. */
    public record TopicFormat(String topic, int partitions, long batches, long[] byMagic, String codecs, long transactional,
                              long control) {
    }

    /** One kind of thing (a magic, a codec, a record version) with its count and first and last time seen. */
    public record Span(String what, String topic, long count, long firstTime, long lastTime, boolean known) {
    }

    /** The footer. */
    public record Footer(String version, String commandLine, List<String[]> inputs, long generatedMs) {
    }
}
