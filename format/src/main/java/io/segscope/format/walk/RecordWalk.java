package io.segscope.format.walk;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.RecordIterator;
import io.segscope.format.walk.spi.RecordDecoders;

import java.util.List;

/**
 * Walks files in order and passes their batches and records, decoded by topic ({@link Decoding}),
 * to a {@link RecordSink}, through one {@link SegmentWalk}: damage is reported and the walk goes
 * on with the next good batch or file. Batches whose CRC is wrong are passed on (and marked by
 * {@link Batch#isValid()}), as Kafka's DumpLogSegments shows them.
 *
 * <pre>
 * RecordWalk walk = new RecordWalk(ReaderOptions.defaults(), DecoderChoice.AUTO, RecordFilter.ALL, Long.MAX_VALUE);
 * boolean clean = walk.walk(files, sink);
 * </pre>
 */
public final class RecordWalk {
    private final SegmentWalk segments;
    private final DecoderChoice decoder;
    private final RecordFilter filter;
    private final long maxBytes;
    private final RecordDecoders plugins;
    private boolean tellTransactions;
    private boolean releaseEachFile;
    private java.util.function.Function<List<LogFile>, TransactionOutcomes> outcomesOf = this::scanOutcomes;

    // per run
    private int unreadableFiles;
    private long bytesDone;
    private long records;

    /**
     * @param maxBytes read at most this many bytes of each file (batches that end past it are not read)
     */
    public RecordWalk(ReaderOptions options, DecoderChoice decoder, RecordFilter filter, long maxBytes) {
        this(options, decoder, filter, maxBytes, RecordDecoders.NONE);
    }

    /**
     * @param plugins decoders consulted for user topics ({@link Decoding#of(LogFile, DecoderChoice, RecordDecoders)})
     */
    public RecordWalk(ReaderOptions options, DecoderChoice decoder, RecordFilter filter, long maxBytes,
                      RecordDecoders plugins) {
        this.plugins = plugins;
        this.segments = new SegmentWalk(options);
        this.decoder = decoder;
        this.filter = filter;
        this.maxBytes = maxBytes;
    }

    /**
     * Tells the sink how the transaction of each transactional data batch ended: before the first
     * {@code .log} of a partition, the {@code .log} files of that partition in the list (they are
     * consecutive) are pre-scanned for their markers ({@link TransactionOutcomes}).
     */
    public RecordWalk tellTransactions(boolean tell) {
        this.tellTransactions = tell;
        return this;
    }

    /**
     * Opens each file with {@link io.segscope.format.logdir.FileEntry#openReleasable()}: unmapped as
     * soon as it is read, so that a pass over a whole log dir holds one segment's pages at a time.
     * Only for sinks that keep no view past their calls (as {@link RecordSink} asks of every sink).
     */
    public RecordWalk releaseEachFile(boolean release) {
        this.releaseEachFile = release;
        return this;
    }

    /**
     * Tells transactions as {@link #tellTransactions(boolean)} does, taking a partition's outcomes
     * from {@code known} when it has them (null: not known, pre-scan the files): a reader that has
     * already seen the partition's files once (an archive's listing pass) saves reading them twice.
     */
    public RecordWalk tellTransactions(java.util.function.Function<List<LogFile>, TransactionOutcomes> known) {
        this.tellTransactions = true;
        this.outcomesOf = logs -> {
            TransactionOutcomes t = known.apply(logs);
            return t != null ? t : scanOutcomes(logs);
        };
        return this;
    }

    private TransactionOutcomes scanOutcomes(List<LogFile> logs) {
        return TransactionOutcomes.scan(logs, segments.options());
    }

    /**
     * Walks {@code files} in order: record files batch by batch, the others through
     * {@link RecordSink#sideFile}.
     *
     * @return false when damage kept some bytes or records from being read
     */
    public boolean walk(List<LogFile> files, RecordSink sink) {
        boolean clean = true;
        bytesDone = 0;
        records = 0;
        unreadableFiles = 0;
        TransactionOutcomes outcomes = TransactionOutcomes.NONE;
        String outcomesDir = null;
        for (int i = 0; i < files.size(); i++) {
            LogFile f = files.get(i);
            if (tellTransactions && f.kind() == FileKind.LOG && !dir(f).equals(outcomesDir)) {
                outcomesDir = dir(f);
                outcomes = outcomesOf.apply(partitionLogs(files, i));
            }
            Decoding decoding = Decoding.of(f, decoder, plugins);
            if (!filter.acceptsFile(f, decoding.isCoordinator())) {
                continue;
            }
            if (f.kind().holdsRecords()) {
                clean &= walkRecords(f, decoding, f.kind() == FileKind.LOG ? outcomes : null, sink);
            } else if (f.kind() == FileKind.OTHER) {
                sink.problem(f, f.path() + ": " + Violation.UNRECOGNIZED_FILE.kind() + " — not a Kafka file by its name"
                        + " or its content; nothing was read (name its kind with --as)");
                clean = false;
            } else {
                sink.sideFile(f);
            }
            bytesDone += f.file().size();
            if (!sink.isOpen()) {
                break;
            }
        }
        return clean;
    }

    /** Records of the last walk that passed the filter and went to the sink. */
    public long recordsPassed() {
        return records;
    }

    /** Files of the last walk that could not be read at all (I/O errors: missing, permission denied). */
    public int unreadableFiles() {
        return unreadableFiles;
    }

    /** The directory of a file (its partition dir), as a prefix of its path. */
    private static String dir(LogFile f) {
        String path = f.path();
        return path.substring(0, path.length() - f.file().name().length());
    }

    /** The .log files from {@code from} on that share its directory, as long as they are consecutive. */
    private static List<LogFile> partitionLogs(List<LogFile> files, int from) {
        String dir = dir(files.get(from));
        List<LogFile> logs = new java.util.ArrayList<>();
        for (int i = from; i < files.size() && dir(files.get(i)).equals(dir); i++) {
            if (files.get(i).kind() == FileKind.LOG) {
                logs.add(files.get(i));
            }
        }
        return logs;
    }

    /** One record file; false when damage kept part of it from being read. */
    private boolean walkRecords(LogFile f, Decoding decoding, TransactionOutcomes outcomes, RecordSink sink) {
        FileVisitor v = new FileVisitor(f, decoding, outcomes, sink);
        sink.beginFile(f);
        long fileSize = f.file().size();
        try (ByteSource source = releaseEachFile ? f.file().openReleasable() : f.file().open()) {
            SegmentWalk.End end = segments.walk(source, fileSize, f.kind() == FileKind.LOG ? f.baseOffset() : -1, -1,
                    false, v);
            long validBytes = end.validBytes();
            if (v.error == null && end.tail() != null && !end.tail().isClean() && maxBytes == Long.MAX_VALUE) {
                validBytes = end.tail().validBytes();
            }
            sink.endFile(f, v.error == null ? end.tail() : null, validBytes,
                    maxBytes == Long.MAX_VALUE ? fileSize : Math.min(fileSize, validBytes), v.error);
        } catch (FormatException e) {
            if (e.violation() == Violation.IO_ERROR) {
                unreadableFiles++;
            }
            sink.endFile(f, null, 0, fileSize, e.getMessage());
            return false;
        }
        return v.clean;
    }

    /** The batches of one file. */
    private final class FileVisitor implements BatchVisitor {
        private final LogFile file;
        private final Decoding decoding;
        private final TransactionOutcomes outcomes;
        private final RecordSink sink;
        private final boolean lazyBatches;
        /** The content of this file's coordinator records, one object for all of them (valid during the sink's call). */
        private final RecordContent.Coordinator reusable = RecordContent.Coordinator.of(null, null, 0, -1, null, 0, -1);
        boolean clean = true;
        String error;

        FileVisitor(LogFile file, Decoding decoding, TransactionOutcomes outcomes, RecordSink sink) {
            this.file = file;
            this.decoding = decoding;
            this.outcomes = outcomes;
            this.sink = sink;
            this.lazyBatches = filter.looksInsideRecords() || decoding.isCoordinator() && filter.looksInsideKeys();
        }

        @Override
        public boolean batch(Batch b) {
            if (b.position() + b.sizeInBytes() > maxBytes) {
                return false;
            }
            if (!sink.wants(file, b)) {
                return true;
            }
            if (!filter.batchInRange(b.magic() >= 2 ? b.baseOffset() : b.lastOffset(), b.lastOffset())) {
                return true;
            }
            TransactionOutcome txn = outcomes != null && b.magic() >= 2 && b.isTransactional() && !b.isControl()
                    ? outcomes.outcome(b.producerId(), b.lastOffset()) : null;
            boolean shown = false;
            long passed = 0;
            if (!lazyBatches) {
                sink.batch(file, b, txn);
                shown = true;
            }
            try {
                RecordIterator it = b.records();
                while (it.next()) {
                    LogRecord r = it.record();
                    RecordContent content = decoding.decode(b, r, reusable);
                    if (!filter.accepts(r, content)) {
                        continue;
                    }
                    if (!shown) {
                        sink.batch(file, b, txn);
                        shown = true;
                    }
                    sink.record(file, b, r, content);
                    records++;
                    passed++;
                }
            } catch (FormatException e) {
                sink.problem(file, e.getMessage() + "; the rest of this batch's records were skipped");
                clean = false;
            }
            if (shown) {
                sink.endBatch(file, b, passed);
            }
            sink.progress(bytesDone + b.position() + b.sizeInBytes(), records);
            return true;
        }

        @Override
        public void damage(Damage d) {
            if (d.isTornTail() && d.cause() == null) {
                return; // a torn tail the reader stopped at: the sink gets it with endFile, as Kafka's tool reports it
            }
            clean = false;
            String what = d.cause().getMessage();
            String lost = d.lostFrom() < 0 ? "" : "; offsets from " + d.lostFrom() + " on may be lost";
            if (d.isTornTail()) {
                error = what + (d.searched()
                        ? "; no good batch follows in the " + d.bytes() + " bytes up to the end of the file" + lost
                        : "; the rest of the file was not searched for good batches (read from a stream)");
            } else {
                sink.problem(file, what + "; skipped " + d.bytes() + " damaged bytes at " + d.from() + ".." + (d.to() - 1)
                        + ", good batches resume at " + d.resumeAt());
            }
        }
    }
}
