package io.segscope.format.walk;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.BatchView;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.Tail;

import java.nio.ByteBuffer;

/**
 * The one walk over a file of record batches ({@code .log}, KRaft snapshot) that every command
 * uses, with one damage policy (docs/format.md 1.10): batches go to a {@link BatchVisitor} in file
 * order; when an entry cannot be framed (bad size or magic), its CRC is wrong (if asked), or its
 * size runs past the end of the file, the walk looks for the next good entry ({@link Resync}),
 * reports the damaged bytes as a {@link Damage} and goes on there. Damage with no good entry after
 * it is a torn tail: what Kafka's log recovery truncates. One instance per thread; memory stays
 * constant whatever the file size.
 */
public final class SegmentWalk {
    private final ReaderOptions options;
    private final Resync resync;

    // per file
    private BatchVisitor visitor;
    private long fileBase;
    private long previousLast;
    private long last;
    private long validBytes;

    public SegmentWalk(ReaderOptions options) {
        this.options = options;
        this.resync = new Resync(options.maxBatchBytes());
    }

    public ReaderOptions options() {
        return options;
    }

    /** How the walk of a file ended. */
    public record End(Tail tail, long validBytes, boolean stopped) {
    }

    /**
     * Walks one file.
     *
     * @param source the file, opened
     * @param fileSize its size (for a stream source that does not know it)
     * @param fileBase the base offset its name gives, or -1
     * @param previousLast the last offset of the partition's previous segment, or -1
     * @param crcIsDamage true: a batch whose CRC is wrong is damage and the walk resynchronises;
     *     false: it goes to the visitor like any other batch (as Kafka's DumpLogSegments shows it)
     * @return the reader's tail when the walk ran to the end (null when the visitor stopped it),
     *     and the end of the last batch the visitor was given
     * @throws FormatException when the source itself cannot be read
     */
    public End walk(ByteSource source, long fileSize, long fileBase, long previousLast, boolean crcIsDamage,
                    BatchVisitor visitor) {
        this.visitor = visitor;
        this.fileBase = fileBase;
        this.previousLast = previousLast;
        this.last = -1;
        this.validBytes = 0;
        long size = source.size() >= 0 ? source.size() : fileSize;
        try (BatchReader reader = new BatchReader(source, options)) {
            while (true) {
                FormatException damage = null;
                boolean more;
                try {
                    more = reader.next();
                } catch (FormatException e) {
                    damage = e;
                    more = false;
                }
                if (more) {
                    Batch b = reader.batch();
                    if (!crcIsDamage || b.isValid()) {
                        if (!visitor.batch(b)) {
                            return new End(null, validBytes, true);
                        }
                        validBytes = b.position() + b.sizeInBytes();
                        last = Math.max(last, b.lastOffset());
                        continue;
                    }
                    damage = crcDamage(b);
                }
                Tail tail = reader.tail();
                if (damage == null) {
                    if (tail == null || tail.isClean()) {
                        return new End(tail, validBytes, false);
                    }
                    long p = tail.validBytes();
                    long end = p + tail.tailBytes();
                    if (tail.kind() == Tail.Kind.ZERO_FILL) {
                        tornTail(source, Violation.ZERO_TAIL, null, tail, p, end, true);
                        return new End(tail, validBytes, false);
                    }
                    long q = resync.find(source, p + 1, Math.max(0, lostFrom()));
                    if (q < 0) {
                        tornTail(source, Violation.TRUNCATED, null, tail, p, end, q != Resync.CANNOT_GO_BACK);
                        return new End(tail, validBytes, false);
                    }
                    FormatException tooLarge = FormatException.at(Violation.BATCH_TOO_LARGE, source.name(), p)
                            .baseOffset(headerBase(source, p))
                            .field("size").expected("<= " + (end - p - BatchView.LOG_OVERHEAD) + " (the bytes left)")
                            .actual(tail.declaredSize()).note("the declared size runs past the end of the file").build();
                    resyncAt(reader, tooLarge, tail, q);
                    continue;
                }
                long p = damage.position();
                long q = resync.find(source, p + 1, Math.max(0, lostFrom()));
                if (q < 0) {
                    tornTail(source, damage.violation(), damage, null, p, Math.max(p, size), q != Resync.CANNOT_GO_BACK);
                    return new End(null, validBytes, false);
                }
                resyncAt(reader, damage, null, q);
            }
        }
    }

    private void resyncAt(BatchReader reader, FormatException damage, Tail tail, long q) {
        long p = damage.position();
        visitor.damage(new Damage(damage.violation(), damage, tail, p, q, q, true, lostFrom(), damage.baseOffset(), -1));
        reader.resync(q);
    }

    private void tornTail(ByteSource source, Violation kind, FormatException cause, Tail tail, long p, long end,
                          boolean searched) {
        long lostFrom = lostFrom();
        long base = kind == Violation.ZERO_TAIL ? -1 : headerBase(source, p);
        long lastClaimed = headerLast(source, p, lostFrom);
        visitor.damage(new Damage(kind, cause, tail, p, end, -1, searched, lostFrom, base, lastClaimed));
    }

    private static FormatException crcDamage(Batch b) {
        try {
            b.ensureValid();
            // isValid also fails for a v2 batch shorter than its header, which the reader lets through
            return FormatException.at(Violation.BATCH_TOO_SMALL, b.file(), b.position()).field("batchLength")
                    .expected(">= " + (BatchView.RECORD_BATCH_OVERHEAD - BatchView.LOG_OVERHEAD))
                    .actual(b.sizeInBytes() - BatchView.LOG_OVERHEAD).build();
        } catch (FormatException e) {
            return e;
        }
    }

    /** The first offset that damage at this point loses. */
    private long lostFrom() {
        if (last >= 0) {
            return last + 1;
        }
        if (previousLast >= 0) {
            return Math.max(previousLast + 1, fileBase);
        }
        return fileBase;
    }

    /** False when {@code source} is a stream that has dropped the bytes at {@code p}. */
    private static boolean canRead(ByteSource source, long p) {
        try {
            source.available(p, 1);
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /** The offset field of a damaged header when it is plausible, else -1. */
    private static long headerBase(ByteSource source, long p) {
        if (!canRead(source, p) || source.available(p, 8) < 8) {
            return -1;
        }
        int idx = source.ensure(p, 8);
        long v = source.buffer().getLong(idx);
        return v >= 0 ? v : -1;
    }

    /** The last offset a torn entry's header claims, when it is there and plausible; else -1. */
    private static long headerLast(ByteSource source, long p, long lostFrom) {
        if (!canRead(source, p) || source.available(p, BatchView.BASE_TIMESTAMP_OFFSET) < BatchView.BASE_TIMESTAMP_OFFSET) {
            return -1;
        }
        int idx = source.ensure(p, BatchView.BASE_TIMESTAMP_OFFSET);
        ByteBuffer buf = source.buffer();
        long base = buf.getLong(idx);
        byte magic = buf.get(idx + BatchView.MAGIC_OFFSET);
        long last;
        if (magic == 2) {
            int delta = buf.getInt(idx + BatchView.LAST_OFFSET_DELTA_OFFSET);
            last = delta < 0 ? -1 : base + delta;
        } else if (magic == 0 || magic == 1) {
            last = base;
        } else {
            return -1;
        }
        return base >= 0 && (lostFrom < 0 || base >= lostFrom) ? last : -1;
    }
}
