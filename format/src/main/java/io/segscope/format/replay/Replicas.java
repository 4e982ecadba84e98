package io.segscope.format.replay;

import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.walk.DecoderChoice;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordFilter;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;
import io.segscope.format.walk.TransactionOutcome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Several log dirs' copies of the same {@code __consumer_offsets} partition: which one a new
 * leader would have, and which ones diverge. The choice is the copy with the highest last leader
 * epoch, then the highest log end offset (then the first given); a copy diverges from the chosen
 * one when its log end offset or its epoch history (the first offset of each leader epoch, read
 * from the batches' partitionLeaderEpoch) differs.
 */
public final class Replicas {
    private Replicas() {
    }

    /** The first offset written in a leader epoch. */
    public record EpochStart(int epoch, long startOffset) {
    }

    /**
     * One copy.
     *
     * @param dir the partition directory
     * @param logEndOffset the offset after its last batch (0 when empty)
     * @param lastLeaderEpoch the partitionLeaderEpoch of its last batch (-1 when none or legacy)
     * @param epochs its epoch history, read from the batches
     */
    public record Replica(Path dir, long logEndOffset, int lastLeaderEpoch, List<EpochStart> epochs) {
    }

    /**
     * @param chosen the copy a new leader would have
     * @param replicas every copy, as given
     * @param divergent the copies whose log end offset or epoch history differs from the chosen one's
     */
    public record Choice(Replica chosen, List<Replica> replicas, List<Replica> divergent) {
    }

    /** Reads each copy's batches (not its records) and chooses. */
    public static Choice choose(List<Path> partitionDirs) {
        if (partitionDirs.isEmpty()) {
            throw new IllegalArgumentException("no replica given");
        }
        List<Replica> replicas = new ArrayList<>();
        for (Path dir : partitionDirs) {
            replicas.add(read(dir));
        }
        Replica chosen = replicas.stream().max(Comparator.comparingInt(Replica::lastLeaderEpoch)
                .thenComparingLong(Replica::logEndOffset).thenComparing((a, b) -> Integer.compare(
                        replicas.indexOf(b), replicas.indexOf(a)))).orElseThrow();
        List<Replica> divergent = new ArrayList<>();
        for (Replica r : replicas) {
            if (r != chosen && (r.logEndOffset() != chosen.logEndOffset() || !r.epochs().equals(chosen.epochs()))) {
                divergent.add(r);
            }
        }
        return new Choice(chosen, List.copyOf(replicas), List.copyOf(divergent));
    }

    /** One copy's log end offset and epoch history. */
    public static Replica read(Path partitionDir) {
        List<LogFile> files = OffsetsReplay.logFiles(partitionDir);
        List<EpochStart> epochs = new ArrayList<>();
        long[] end = {0};
        int[] last = {-1};
        RecordSink sink = new RecordSink() {
            @Override
            public void batch(LogFile file, Batch b, TransactionOutcome t) {
                int epoch = b.magic() >= 2 ? b.partitionLeaderEpoch() : -1;
                if (epoch >= 0 && (epochs.isEmpty() || epochs.get(epochs.size() - 1).epoch() < epoch)) {
                    epochs.add(new EpochStart(epoch, b.baseOffset()));
                }
                if (b.magic() >= 2) {
                    last[0] = epoch;
                }
                end[0] = Math.max(end[0], b.nextOffset());
            }

            @Override
            public void record(LogFile file, Batch batch, LogRecord record, RecordContent content) {
            }
        };
        new RecordWalk(ReaderOptions.defaults(), DecoderChoice.NONE, RecordFilter.ALL, Long.MAX_VALUE).walk(files, sink);
        return new Replica(partitionDir, end[0], last[0], List.copyOf(epochs));
    }
}
