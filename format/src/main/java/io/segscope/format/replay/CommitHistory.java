package io.segscope.format.replay;

import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.Batch;
import io.segscope.format.walk.DecoderChoice;
import io.segscope.format.record.LogRecord;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordFilter;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;
import io.segscope.format.walk.TransactionOutcome;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The commit history of some groups in one {@code __consumer_offsets} partition: for each (group,
 * topic, partition) the committed offsets in log order with their commit time, each marked as a
 * plain commit, a reset (an offset below the one before it, which Kafka accepts as is), a
 * transactional commit and how its transaction ended (committed, aborted: never applied, or still
 * pending at the end of the files), or a tombstone (the offset deleted). Transactional commits
 * apply only when their transaction commits (docs/format.md 3.4); the "before" of a reset is the
 * last applied offset.
 *
 * <p>Bounded: a series keeps at most {@code maxPoints} plain commits (every other one is dropped
 * when it is full, evenly over time, and counted); marked points are always kept.
 */
public final class CommitHistory implements RecordSink {
    /** What a point of a series is. */
    public enum Mark { COMMIT, RESET, TXN_COMMITTED, TXN_ABORTED, TXN_PENDING, TOMBSTONE }

    /** One commit: its commit timestamp (the batch's when the value has none), offset (-1 for a tombstone). */
    public record Point(long time, long offset, Mark mark, long logOffset) {
    }

    /**
     * One committed partition of a group.
     *
     * @param dropped plain commits left out to keep the series bounded
     */
    public record Series(String group, String topic, int partition, List<Point> points, long dropped) {
    }

    private final long asOfTimeMs;
    private final int maxPoints;
    private final Map<String, Builder> series = new TreeMap<>();
    private final Map<String, Long> applied = new LinkedHashMap<>();
    private TransactionOutcome outcome;
    private long batchTime;
    private boolean cut;

    private static final class Builder {
        final String group;
        final String topic;
        final int partition;
        List<Point> points = new ArrayList<>();
        int plain;
        long dropped;

        Builder(String group, String topic, int partition) {
            this.group = group;
            this.topic = topic;
            this.partition = partition;
        }
    }

    private CommitHistory(long asOfTimeMs, int maxPoints) {
        this.asOfTimeMs = asOfTimeMs;
        this.maxPoints = Math.max(2, maxPoints);
    }

    /**
     * Walks a partition's {@code .log} files for the records of {@code groups} (all groups when
     * empty), stopping at the first batch later than {@code asOfTimeMs}.
     *
     * @return the series, sorted by group, topic and partition
     */
    public static List<Series> replay(List<LogFile> files, Collection<String> groups, long asOfTimeMs, int maxPoints,
                                      ReaderOptions options) {
        CommitHistory h = new CommitHistory(asOfTimeMs, maxPoints);
        new RecordWalk(options, DecoderChoice.OFFSETS,
                new RecordFilter(groups, null, null, null, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE),
                Long.MAX_VALUE).tellTransactions(true).releaseEachFile(true).walk(files, h);
        List<Series> out = new ArrayList<>(h.series.size());
        for (Builder b : h.series.values()) {
            out.add(new Series(b.group, b.topic, b.partition, List.copyOf(b.points), b.dropped));
        }
        return out;
    }

    @Override
    public void batch(LogFile file, Batch b, TransactionOutcome transaction) {
        outcome = transaction;
        batchTime = b.maxTimestamp();
        if (batchTime > asOfTimeMs) {
            cut = true;
        }
    }

    @Override
    public void record(LogFile file, Batch b, LogRecord r, RecordContent content) {
        if (cut || !(content instanceof RecordContent.Coordinator c)) {
            return;
        }
        CoordinatorResult res = c.result();
        if (!(res instanceof Decoded d) || (d.recordType() != 0 && d.recordType() != 1)) {
            return;
        }
        StructValue k = d.key();
        StructValue v = d.value();
        String group = res.ownerId();
        String topic = k.getString("topic");
        int partition = k.getInt("partition");
        String key = group + '\u0000' + topic + '\u0000' + partition;
        Builder s = series.computeIfAbsent(key, x -> new Builder(group, topic, partition));
        if (v == null) {
            applied.remove(key);
            add(s, new Point(batchTime, -1, Mark.TOMBSTONE, r.offset()));
            return;
        }
        long offset = v.getLong("offset");
        long time = v.getLong("commitTimestamp");
        if (time < 0) {
            time = batchTime;
        }
        boolean transactional = b.magic() >= 2 && b.producerId() >= 0;
        Mark mark;
        if (transactional) {
            mark = outcome == TransactionOutcome.COMMITTED ? Mark.TXN_COMMITTED
                    : outcome == TransactionOutcome.ABORTED ? Mark.TXN_ABORTED : Mark.TXN_PENDING;
        } else {
            Long before = applied.get(key);
            mark = before != null && offset < before ? Mark.RESET : Mark.COMMIT;
        }
        if (mark == Mark.COMMIT || mark == Mark.RESET || mark == Mark.TXN_COMMITTED) {
            applied.put(key, offset);
        }
        add(s, new Point(time, offset, mark, r.offset()));
    }

    private void add(Builder s, Point p) {
        s.points.add(p);
        if (p.mark() == Mark.COMMIT && ++s.plain > maxPoints) {
            // drop every other plain commit: the line keeps its shape, marked points stay
            List<Point> kept = new ArrayList<>(s.points.size());
            int i = 0;
            int plain = 0;
            for (Point q : s.points) {
                if (q.mark() == Mark.COMMIT && (i++ & 1) == 1 && q != p) {
                    s.dropped++;
                    continue;
                }
                if (q.mark() == Mark.COMMIT) {
                    plain++;
                }
                kept.add(q);
            }
            s.points = kept;
            s.plain = plain;
        }
    }
}
