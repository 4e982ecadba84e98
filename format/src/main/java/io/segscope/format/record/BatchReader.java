package io.segscope.format.record;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.Checksums;

import java.nio.ByteBuffer;

/**
 * Walks the entries of a {@code .log} file in file order, as Kafka's {@code FileLogInputStream}
 * does (docs/format.md 1.10), yielding flyweight views:
 *
 * <pre>
 * try (BatchReader reader = new BatchReader(source, ReaderOptions.defaults())) {
 *     while (reader.next()) {
 *         Batch batch = reader.batch();
 *         RecordIterator it = batch.records();
 *         while (it.next()) { LogRecord r = it.record(); ... }
 *     }
 *     Tail tail = reader.tail();
 * }
 * </pre>
 *
 * Framing rules: fewer than 18 bytes left ends the walk; a size below 14 is corruption (unless
 * everything left is zero: a zero-filled tail); a batch running past the end of the file ends the
 * walk as a partial tail; byte 16 picks the format (0/1 legacy, 2 batch, anything else
 * corruption). Nothing else is checked while walking: CRCs on demand ({@link Batch#isValid()}),
 * records when iterated. One reader per thread; nothing is allocated per batch or record.
 */
public final class BatchReader implements AutoCloseable {
    /** offset + size + (epoch or crc) + magic: Kafka's HEADER_SIZE_UP_TO_MAGIC. */
    public static final int HEADER_SIZE_UP_TO_MAGIC = 17;

    private final ByteSource source;
    private final ReaderOptions options;
    private final Decompressor decompressor;
    private final BatchView batchView;
    private final LegacyBatchView legacyView;
    private long position;
    private long nextPosition;
    private Batch current;
    private Tail tail;
    private boolean anyMagicAsKafka;

    public BatchReader(ByteSource source, ReaderOptions options) {
        this(source, options, 0L);
    }

    /** Starts at {@code startPosition} (a batch boundary, e.g. from an offset index lookup). */
    public BatchReader(ByteSource source, ReaderOptions options, long startPosition) {
        this.source = source;
        this.options = options;
        Checksums checksums = new Checksums();
        this.decompressor = Decompressor.acquire(options.maxDecompressedBytes());
        this.batchView = new BatchView(checksums, decompressor);
        this.legacyView = new LegacyBatchView(checksums, decompressor);
        this.nextPosition = startPosition;
    }

    public BatchReader(ByteSource source) {
        this(source, ReaderOptions.defaults());
    }

    public ByteSource source() {
        return source;
    }

    /**
     * Frames entries as Kafka's {@code FileLogInputStream} does whatever their magic: below 2 a
     * legacy entry, else a magic-2 batch (the CRC does not cover the magic, so Kafka's recovery keeps
     * a v2 batch whose magic byte alone was damaged). For readers that answer what Kafka would load;
     * by default a magic other than 0, 1 or 2 is an {@code invalid-magic} error.
     */
    public BatchReader framingAsKafka() {
        this.anyMagicAsKafka = true;
        return this;
    }

    /**
     * Moves to the next entry.
     *
     * @return false at the end of the file or at a torn tail (see {@link #tail()})
     * @throws FormatException for an entry that cannot be framed (size too small, bad magic)
     */
    public boolean next() {
        if (tail != null) {
            return false;
        }
        position = nextPosition;
        current = null;
        String file = source.name();
        long left = source.available(position, HEADER_SIZE_UP_TO_MAGIC + 1);
        if (left == 0) {
            tail = new Tail(Tail.Kind.CLEAN, position, 0, -1);
            return false;
        }
        if (left <= HEADER_SIZE_UP_TO_MAGIC) {
            return endWithTail(-1);
        }
        int idx = source.ensure(position, HEADER_SIZE_UP_TO_MAGIC);
        ByteBuffer buf = source.buffer();
        int size = buf.getInt(idx + 8);
        if (size < LegacyMessageView.RECORD_OVERHEAD_V0) {
            long length = scanTail();
            if (tailIsZero) {
                tail = new Tail(Tail.Kind.ZERO_FILL, position, length, size);
                return false;
            }
            throw FormatException.at(Violation.BATCH_TOO_SMALL, file, position).baseOffset(buf.getLong(idx))
                    .field("size").expected(">= " + LegacyMessageView.RECORD_OVERHEAD_V0).actual(size)
                    .note("Kafka's log recovery would truncate the segment here").build();
        }
        byte magic = buf.get(idx + BatchView.MAGIC_OFFSET);
        long baseOffset = buf.getLong(idx);
        int total = size + BatchView.LOG_OVERHEAD;
        if (total < 0) { // size near Integer.MAX_VALUE: cannot be a real batch, and cannot fit any file
            return endWithTail(size);
        }
        // Kafka looks at the magic only once the whole entry is there: a batch running past the end
        // is a partial tail whatever its magic says.
        if (source.available(position, total) < total) {
            return endWithTail(size);
        }
        if ((magic < 0 || magic > 2) && !anyMagicAsKafka) {
            throw FormatException.at(Violation.INVALID_MAGIC, file, position).baseOffset(baseOffset)
                    .field("magic").expected("0, 1 or 2").actual(magic).build();
        }
        if (!source.isRandomAccess() && total > options.maxBatchBytes()) {
            throw FormatException.at(Violation.BATCH_TOO_LARGE, file, position).baseOffset(baseOffset)
                    .field("size").expected("<= " + options.maxBatchBytes()).actual(size).build();
        }
        idx = source.ensure(position, total);
        buf = source.buffer();
        if (magic >= 2) {
            if (total < BatchView.RECORD_BATCH_OVERHEAD) {
                throw FormatException.at(Violation.BATCH_TOO_SMALL, file, position).baseOffset(baseOffset)
                        .field("batchLength").expected(">= " + (BatchView.RECORD_BATCH_OVERHEAD - BatchView.LOG_OVERHEAD))
                        .actual(size).build();
            }
            current = batchView.wrap(file, buf, idx, position, total);
        } else {
            current = legacyView.wrap(file, buf, idx, position, total);
        }
        nextPosition = position + total;
        return true;
    }

    private boolean endWithTail(int declaredSize) {
        long length = scanTail();
        tail = new Tail(tailIsZero ? Tail.Kind.ZERO_FILL : Tail.Kind.PARTIAL, position, length, declaredSize);
        return false;
    }

    private boolean tailIsZero;

    /** Reads from the current position to the end once: returns the length, sets {@link #tailIsZero}. */
    private long scanTail() {
        long p = position;
        boolean zero = true;
        while (true) {
            long left = source.available(p, 64 * 1024);
            if (left == 0) {
                tailIsZero = zero;
                return p - position;
            }
            int n = (int) left;
            int idx = source.ensure(p, n);
            ByteBuffer buf = source.buffer();
            int i = 0;
            for (; zero && i + 8 <= n; i += 8) {
                zero = buf.getLong(idx + i) == 0L;
            }
            for (; zero && i < n; i++) {
                zero = buf.get(idx + i) == 0;
            }
            p += n;
        }
    }

    /**
     * Continues the walk at {@code position}, forgetting any tail or error seen so far: after
     * damage, a caller that found the next good batch header (see {@code verify.Resync}) moves
     * the reader there. Stream sources only move forward, so {@code position} must not lie
     * before the position of the last entry read.
     */
    public void resync(long position) {
        this.nextPosition = position;
        this.current = null;
        this.tail = null;
    }

    /** The current entry; valid until the next call to {@link #next()}. */
    public Batch batch() {
        return current;
    }

    /** File position of the current entry. */
    public long position() {
        return position;
    }

    /** How the walk ended; null while it goes on. */
    public Tail tail() {
        return tail;
    }

    /** Gives the decompressor back to this thread (closing twice is harmless). */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            decompressor.release();
        }
    }

    private boolean closed;
}
