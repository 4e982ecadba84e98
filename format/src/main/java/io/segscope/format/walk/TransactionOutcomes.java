package io.segscope.format.walk;

import io.segscope.format.error.FormatException;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.RecordIterator;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The transaction markers of one partition, to tell whether a transactional data batch was
 * committed, aborted or still open (docs/format.md 1.2, 4.3): a pre-scan of the partition's record files
 * that reads batch headers, and the one record of each control batch, whose key says COMMIT or
 * ABORT. A data batch's transaction is decided by the first marker of its producer after the
 * batch's last offset; none means the transaction was open at the end of the files read.
 * Compaction keeps a marker as long as data of its transaction is left (Kafka's LogCleaner drops a
 * marker only once its transaction's batches are gone), so surviving data still finds its marker.
 *
 * <pre>
 * TransactionOutcomes t = TransactionOutcomes.scan(filesOfOnePartition, ReaderOptions.defaults());
 * TransactionOutcome o = t.outcome(batch.producerId(), batch.lastOffset());
 * </pre>
 */
public final class TransactionOutcomes {
    /** No markers known: every transaction is open. */
    public static final TransactionOutcomes NONE = new TransactionOutcomes(Map.of(), true);

    /** Per producer id: marker offsets, sorted, each shifted left by one with the low bit set for COMMIT. */
    private final Map<Long, long[]> markers;
    /** False when some file of the partition could not be read for markers. */
    private final boolean complete;

    private TransactionOutcomes(Map<Long, long[]> markers, boolean complete) {
        this.markers = markers;
        this.complete = complete;
    }

    /**
     * Reads the COMMIT and ABORT markers of {@code files}, the {@code .log} files of one partition
     * (other kinds are skipped). Damaged bytes and batches whose CRC is wrong are skipped: a
     * marker that cannot be trusted decides nothing.
     */
    public static TransactionOutcomes scan(List<LogFile> files, ReaderOptions options) {
        Collector c = new Collector(options);
        for (LogFile f : files) {
            if (f.kind() != FileKind.LOG) {
                continue;
            }
            if (f.file().isStream()) {
                c.incomplete(); // read once, by the walk itself: its markers cannot be known in advance
                continue;
            }
            try (ByteSource source = f.file().open()) {
                c.add(source, f.file().size(), f.baseOffset());
            } catch (FormatException e) {
                c.incomplete(); // an unreadable file may hold markers
            }
        }
        return c.build();
    }

    /**
     * Gathers the markers of one partition's {@code .log} files given one at a time, in any
     * order, as a reader that sees each file once (an archive's listing pass) can: the outcomes
     * built are those {@link #scan} finds over the same files.
     */
    public static final class Collector {
        private final Map<Long, Markers> found = new HashMap<>();
        private final SegmentWalk walk;
        private boolean complete = true;
        private long count;

        public Collector(ReaderOptions options) {
            this(new SegmentWalk(options));
        }

        /** A collector reading with {@code walk} (one walk can serve many collectors, one at a time). */
        public Collector(SegmentWalk walk) {
            this.walk = walk;
        }

        /** Reads the markers of one {@code .log} file, opened. */
        public void add(ByteSource source, long fileSize, long baseOffset) {
            try {
                walk.walk(source, fileSize, baseOffset, -1, true, new BatchVisitor() {
                    @Override
                    public boolean batch(Batch b) {
                        if (b.magic() >= 2 && b.isControl() && b.isTransactional()) {
                            if (marker(b, found)) {
                                count++;
                            }
                        }
                        return true;
                    }

                    @Override
                    public void damage(Damage damage) {
                        complete = false; // a marker may lie in the damaged bytes
                    }
                });
            } catch (FormatException e) {
                complete = false; // an unreadable file may hold markers
            }
        }

        /** Some file could not be read for markers: transactions without one are unknown, not open. */
        public void incomplete() {
            complete = false;
        }

        /** Markers gathered so far (16 bytes each at most, for a memory budget). */
        public long markerCount() {
            return count;
        }

        /** The outcomes of the markers of several collectors, e.g. one per file of a partition. */
        public static TransactionOutcomes merge(List<Collector> parts) {
            Collector all = new Collector((SegmentWalk) null);
            for (Collector c : parts) {
                all.complete &= c.complete;
                c.found.forEach((pid, m) -> {
                    Markers into = all.found.computeIfAbsent(pid, k -> new Markers());
                    for (int i = 0; i < m.size; i++) {
                        into.add(m.entries[i]);
                    }
                });
            }
            return all.build();
        }

        public TransactionOutcomes build() {
            if (found.isEmpty() && complete) {
                return NONE;
            }
            Map<Long, long[]> sorted = new HashMap<>();
            found.forEach((pid, m) -> {
                long[] a = Arrays.copyOf(m.entries, m.size);
                Arrays.sort(a);
                sorted.put(pid, a);
            });
            return new TransactionOutcomes(sorted, complete);
        }
    }

    private static boolean marker(Batch b, Map<Long, Markers> found) {
        try {
            RecordIterator it = b.records();
            if (!it.next()) {
                return false;
            }
            ControlRecord.Type type = ControlRecord.type(b, it.record());
            if (type == ControlRecord.Type.COMMIT || type == ControlRecord.Type.ABORT) {
                found.computeIfAbsent(b.producerId(), k -> new Markers())
                        .add(b.baseOffset() << 1 | (type == ControlRecord.Type.COMMIT ? 1 : 0));
                return true;
            }
        } catch (FormatException e) {
            // a control record that does not parse is no marker
        }
        return false;
    }

    /** The outcome of the transaction of a data batch of {@code producerId} ending at {@code lastOffset}. */
    public TransactionOutcome outcome(long producerId, long lastOffset) {
        long[] a = markers.get(producerId);
        TransactionOutcome none = complete ? TransactionOutcome.OPEN : TransactionOutcome.UNKNOWN;
        if (a == null) {
            return none;
        }
        int i = Arrays.binarySearch(a, (lastOffset + 1) << 1);
        if (i < 0) {
            i = -i - 1;
        }
        if (i >= a.length) {
            return none;
        }
        return (a[i] & 1) == 1 ? TransactionOutcome.COMMITTED : TransactionOutcome.ABORTED;
    }

    /** The number of markers read. */
    public int markerCount() {
        int n = 0;
        for (long[] a : markers.values()) {
            n += a.length;
        }
        return n;
    }

    private static final class Markers {
        long[] entries = new long[4];
        int size;

        void add(long e) {
            if (size == entries.length) {
                entries = Arrays.copyOf(entries, size * 2);
            }
            entries[size++] = e;
        }
    }
}
