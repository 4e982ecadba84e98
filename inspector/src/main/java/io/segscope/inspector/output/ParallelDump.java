package io.segscope.inspector.output;

import io.segscope.format.json.JsonOut;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.PathEntry;
import io.segscope.format.logdir.SharedMapping;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.Tail;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;
import io.segscope.format.walk.TransactionOutcome;
import io.segscope.format.walk.TransactionOutcomes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code dump} on several threads, with the output of one: each worker walks every file with its
 * own {@link RecordWalk} and the same rule cuts the batches into chunks of about
 * {@value #CHUNK_BYTES} bytes or {@value #CHUNK_RECORDS} records; chunk {@code c} belongs to worker {@code c % n}, which alone reads
 * its records, decodes and formats them (the others only step over their headers). What happens
 * between batches (a file begins or ends, damage, a side file) is recorded by the owner of the
 * chunk it falls in and done by the calling thread's writer, which writes the chunks in order and
 * takes in what each changed of the state a writer carries across batches
 * ({@link ByteDumpWriter#applyPiece}). Each segment on disk is mapped once for all the workers
 * ({@link SharedMapping}). At most {@value #AHEAD} chunks per worker wait to be written, so memory
 * stays bounded whatever the input.
 */
public final class ParallelDump {
    /** Input bytes per chunk. */
    static final int CHUNK_BYTES = 128 << 10;
    /** {@link #CHUNK_BYTES}, smaller in tests (many chunks from small files). */
    static int chunkBytes = CHUNK_BYTES;
    /**
     * Records per chunk at most, as batch headers count them: compressed batches hold several
     * times their size in records, and the output follows the records.
     */
    static final int CHUNK_RECORDS = 1024;
    /** Chunks a worker may have formatted ahead of the writer. */
    static final int AHEAD = 4;

    private ParallelDump() {
    }

    /** Told, after each chunk written, the input bytes and the records written so far. */
    public interface Progress {
        void written(long inputBytes, long records);
    }

    /** What the walks found, as one walk would report it. */
    public record Result(boolean clean, long recordsPassed, int unreadableFiles) {
    }

    /** One event between batches, done by the writing thread. */
    private sealed interface Event {
    }

    private record BeginFile(LogFile file) implements Event {
    }

    private record Problem(LogFile file, String message) implements Event {
    }

    private record EndFile(LogFile file, Tail tail, long validBytes, long fileSize, String error) implements Event {
    }

    private record SideFile(LogFile file) implements Event {
    }

    /** Bytes {@code [from, to)} of the chunk's buffer, then the piece's carried change, or an event. */
    private record Piece(int from, int to, Object change, Event event) {
    }

    /** One chunk's output. {@code last}: the walk ended in it; {@code failure}: the worker died. */
    private static final class Chunk {
        final long id;
        final JsonOut bytes;
        final List<Piece> pieces = new ArrayList<>();
        long inputBytes;
        long records;
        boolean last;
        Throwable failure;

        Chunk(long id, JsonOut bytes) {
            this.id = id;
            this.bytes = bytes;
        }
    }

    /**
     * Walks {@code files} with {@code threads} workers into {@code writer}.
     *
     * @param walks makes one configured walk per worker (transactions are told through
     *     {@code outcomes}, shared between the workers)
     * @param outcomes how a partition's transactions ended, from its original log files (null:
     *     not told); when it gives null, the files are scanned with {@code options}
     * @param progress told the input bytes and the records written so far
     */
    public static Result walk(List<LogFile> files, int threads, Supplier<RecordWalk> walks,
                              Function<List<LogFile>, TransactionOutcomes> outcomes, ReaderOptions options,
                              ByteDumpWriter writer,
                              Progress progress) {
        int n = threads;
        Map<String, LogFile> originals = new HashMap<>();
        for (LogFile f : files) {
            originals.put(f.path(), f);
        }
        List<LogFile> shared = unmappedAfterUse(files, n);
        Map<String, TransactionOutcomes> known = new HashMap<>();
        Function<List<LogFile>, TransactionOutcomes> memo = outcomes == null ? null : logs -> {
            synchronized (known) {
                // from the original files: a scan must not open a shared mapping (its opens are counted)
                return known.computeIfAbsent(logs.get(0).path(), k -> {
                    List<LogFile> own = new ArrayList<>(logs.size());
                    for (LogFile l : logs) {
                        own.add(originals.getOrDefault(l.path(), l));
                    }
                    TransactionOutcomes t = outcomes.apply(own);
                    // each file mapped for the scan alone, and unmapped after it
                    return t != null ? t : TransactionOutcomes.scan(unmappedAfterUse(own, 1), options);
                });
            }
        };
        Worker[] workers = new Worker[n];
        Thread[] running = new Thread[n];
        for (int i = 0; i < n; i++) {
            RecordWalk w = walks.get();
            if (memo != null) {
                w.tellTransactions(memo);
            }
            workers[i] = new Worker(i, n, w, writer.pieceWriter(), shared);
            running[i] = new Thread(workers[i], "segscope-dump-" + i);
            running[i].setDaemon(true);
            running[i].start();
        }
        long written = 0;
        long recordsWritten = 0;
        try {
            for (long c = 0; ; c++) {
                Worker owner = workers[(int) (c % n)];
                Chunk chunk = owner.take();
                if (chunk.failure instanceof RuntimeException re) {
                    throw re;
                } else if (chunk.failure instanceof Error e) {
                    throw e;
                } else if (chunk.failure != null) {
                    throw new IllegalStateException(chunk.failure);
                }
                if (chunk.id != c) {
                    throw new IllegalStateException("dump chunk " + chunk.id + " came where " + c + " was due");
                }
                write(chunk, writer);
                written += chunk.inputBytes;
                recordsWritten += chunk.records;
                progress.written(written, recordsWritten);
                owner.recycle(chunk.bytes);
                if (chunk.last) {
                    break;
                }
                if (!writer.isOpen()) {
                    break;
                }
            }
        } finally {
            for (Worker w : workers) {
                w.stop = true;
            }
        }
        for (Thread t : running) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        boolean clean = true;
        long records = 0;
        int unreadable = 0;
        for (Worker w : workers) {
            clean &= w.clean;
            records += w.walk.recordsPassed();
            unreadable = Math.max(unreadable, w.walk.unreadableFiles());
        }
        return new Result(clean, records, unreadable);
    }

    /**
     * {@code files} with each record file on disk mapped once for {@code readers} readers and
     * unmapped as soon as they are all done with it ({@link SharedMapping}): the resident set holds
     * the segments being read, not every segment read so far.
     */
    public static List<LogFile> unmappedAfterUse(List<LogFile> files, int readers) {
        List<LogFile> shared = new ArrayList<>(files.size());
        for (LogFile f : files) {
            shared.add(f.kind().holdsRecords() && f.file() instanceof PathEntry p
                    ? new LogFile(new SharedMapping(p, readers), f.kind(), f.status(), f.partition(), f.baseOffset()) : f);
        }
        return shared;
    }

    private static void write(Chunk chunk, ByteDumpWriter writer) {
        byte[] bytes = chunk.bytes.array();
        for (Piece p : chunk.pieces) {
            if (p.event() == null) {
                writer.writeBytes(bytes, p.from(), p.to() - p.from());
                writer.applyPiece(p.change());
                continue;
            }
            Event e = p.event();
            if (e instanceof BeginFile b) {
                writer.beginFile(b.file());
            } else if (e instanceof Problem pr) {
                writer.problem(pr.file(), pr.message());
            } else if (e instanceof EndFile end) {
                writer.endFile(end.file(), end.tail(), end.validBytes(), end.fileSize(), end.error());
                writer.flush();
            } else if (e instanceof SideFile s) {
                writer.sideFile(s.file());
                writer.flush();
            }
        }
    }

    /** One worker: a walk over every file, formatting the chunks it owns. */
    private static final class Worker implements RecordSink, Runnable {
        private final int index;
        private final int n;
        private final RecordWalk walk;
        private final ByteDumpWriter pieces;
        private final List<LogFile> files;
        private final BlockingQueue<Chunk> done = new ArrayBlockingQueue<>(AHEAD);
        private final BlockingQueue<JsonOut> free = new ArrayBlockingQueue<>(AHEAD + 2);
        volatile boolean stop;
        volatile boolean finished;
        boolean clean;

        // the walk's position, the same in every worker
        private long chunkId;
        private long chunkFill;
        private long chunkRecords;
        private long chunkInput;
        private Chunk current;
        private int pieceFrom;

        Worker(int index, int n, RecordWalk walk, ByteDumpWriter pieces, List<LogFile> files) {
            this.index = index;
            this.n = n;
            this.walk = walk;
            this.pieces = pieces;
            this.files = files;
        }

        @Override
        public void run() {
            try {
                startChunk();
                clean = walk.walk(files, this);
                if (owns()) {
                    endPiece();
                    current.last = true;
                    current.inputBytes = chunkInput;
                    publish(current);
                }
                // else the walk ended in another worker's chunk: that worker publishes it as the last
            } catch (Throwable t) {
                Chunk failed = new Chunk(-1, new JsonOut(16));
                failed.failure = t;
                stop = true;
                done.clear();
                done.offer(failed);
            } finally {
                finished = true;
                io.segscope.format.record.Decompressor.releaseThread();
            }
        }

        private boolean owns() {
            return chunkId % n == index;
        }

        private void startChunk() throws InterruptedException {
            chunkFill = 0;
            chunkRecords = 0;
            chunkInput = 0;
            if (owns()) {
                JsonOut buf = free.poll();
                if (buf == null) {
                    buf = new JsonOut(chunkBytes * 4);
                }
                buf.reset();
                pieces.swapBuffer(buf);
                current = new Chunk(chunkId, buf);
                pieceFrom = 0;
                pieces.beginPiece();
            } else {
                current = null;
            }
        }

        private void endPiece() {
            JsonOut buf = current.bytes;
            Object change = pieces.endPiece();
            if (buf.size() > pieceFrom || change != null) {
                current.pieces.add(new Piece(pieceFrom, buf.size(), change, null));
            }
            pieceFrom = buf.size();
        }

        private void nextChunk() {
            try {
                if (owns()) {
                    endPiece();
                    current.inputBytes = chunkInput;
                    publish(current);
                }
                chunkId++;
                startChunk();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop = true;
            }
        }

        private void publish(Chunk c) throws InterruptedException {
            while (!stop && !done.offer(c, 50, TimeUnit.MILLISECONDS)) {
                // the writer is behind: wait (bounded memory)
            }
        }

        Chunk take() {
            try {
                Chunk c;
                while ((c = done.poll(50, TimeUnit.MILLISECONDS)) == null) {
                    if (finished && done.isEmpty()) {
                        throw new IllegalStateException("dump worker " + index + " ended without the chunk due");
                    }
                }
                return c;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for dump worker " + index, e);
            }
        }

        void recycle(JsonOut buf) {
            free.offer(buf);
        }

        private void event(Event e) {
            if (owns() && !stop) {
                endPiece();
                current.pieces.add(new Piece(0, 0, null, e));
                pieces.beginPiece();
            }
        }

        @Override
        public boolean wants(LogFile file, Batch batch) {
            if (chunkFill >= chunkBytes || chunkRecords >= CHUNK_RECORDS) {
                nextChunk();
            }
            chunkFill += batch.sizeInBytes();
            chunkRecords += Math.max(1, batch.countOrMinusOne());
            chunkInput += batch.sizeInBytes();
            return owns() && !stop;
        }

        @Override
        public void beginFile(LogFile file) {
            event(new BeginFile(file));
        }

        @Override
        public void batch(LogFile file, Batch batch, TransactionOutcome transaction) {
            pieces.batch(file, batch, transaction);
        }

        @Override
        public void endBatch(LogFile file, Batch batch, long recordsPassed) {
            pieces.endBatch(file, batch, recordsPassed);
        }

        @Override
        public void record(LogFile file, Batch batch, LogRecord record, RecordContent content) {
            pieces.record(file, batch, record, content);
            current.records++;
        }

        @Override
        public void problem(LogFile file, String message) {
            event(new Problem(file, message));
        }

        @Override
        public void endFile(LogFile file, Tail tail, long validBytes, long fileSize, String error) {
            event(new EndFile(file, tail, validBytes, fileSize, error));
        }

        @Override
        public void sideFile(LogFile file) {
            event(new SideFile(file));
        }

        @Override
        public boolean isOpen() {
            return !stop;
        }
    }
}
