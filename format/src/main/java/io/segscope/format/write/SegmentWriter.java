package io.segscope.format.write;

import io.segscope.format.index.TxnIndexReader;
import io.segscope.format.record.BatchView;
import io.segscope.format.record.LegacyMessageView;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Writes one segment as Kafka 4.4.0's {@code LogSegment} does when the cleaner fills a
 * {@code .cleaned} segment: batches appended to the {@code .log}; an offset-index entry (relative
 * last offset of the batch, its position) and a time-index entry (the largest batch max timestamp so
 * far, the last offset of the batch that set it, only when it is larger than the last entry's)
 * whenever more than {@code index.interval.bytes} were appended since the last entry, before the
 * batch; aborted transactions given by the caller in the {@code .txnindex}. {@link #close()} does
 * what {@code onBecomeInactiveSegment} does (a final time-index entry for the largest timestamp if
 * it is new; indexes trimmed to their entries), syncs, and renames the files from their
 * {@code .cleaned} names into place. A {@code .txnindex} is written only when it has an entry, as
 * Kafka creates it on the first append.
 *
 * <p>Entries may be magic-2 batches (what {@link BatchBuilder} builds) or legacy magic-0/1 messages
 * (what a salvaged legacy segment holds), their last offsets increasing and
 * within {@code Integer.MAX_VALUE} of the base offset; an append that breaks a rule writes nothing.
 * The writer never replaces a file:
 * the target names must not exist, and it refuses a directory that is, or is inside, one of the
 * inputs it is told of.
 */
public final class SegmentWriter implements Closeable {
    /** Kafka's suffix for a segment being written by the cleaner. */
    public static final String TEMP_SUFFIX = ".cleaned";
    public static final int OFFSET_ENTRY = 8;
    public static final int TIME_ENTRY = 12;

    private final Path dir;
    private final long baseOffset;
    private final int indexIntervalBytes;
    private final Path[] finals;
    private final Path[] temps;
    private final FileChannel log;
    private ByteBuffer offsetIndex = ByteBuffer.allocate(8 * 1024);
    private ByteBuffer timeIndex = ByteBuffer.allocate(12 * 1024);
    private ByteBuffer txnIndex = ByteBuffer.allocate(0);

    private long position;
    private int bytesSinceLastIndexEntry;
    private long maxTimestampSoFar = -1L;
    private long offsetOfMaxTimestampSoFar;
    private long lastTimeEntryTimestamp = -1L;
    private long lastTimeEntryOffset;
    private long lastIndexedOffset = -1L;
    private long lastTxnLastOffset = Long.MIN_VALUE;
    private long lastAppendedOffset = -1L;
    private FileTime lastModified;
    private boolean done;

    private SegmentWriter(Path dir, long baseOffset, int indexIntervalBytes) throws IOException {
        this.dir = dir;
        this.baseOffset = baseOffset;
        this.indexIntervalBytes = indexIntervalBytes;
        this.offsetOfMaxTimestampSoFar = baseOffset;
        this.lastTimeEntryOffset = baseOffset;
        String name = String.format("%020d", baseOffset);
        String[] ext = {".log", ".index", ".timeindex", ".txnindex"};
        finals = new Path[ext.length];
        temps = new Path[ext.length];
        for (int i = 0; i < ext.length; i++) {
            finals[i] = dir.resolve(name + ext[i]);
            temps[i] = dir.resolve(name + ext[i] + TEMP_SUFFIX);
            if (Files.exists(finals[i], LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException("refusing to replace " + finals[i]);
            }
            Files.deleteIfExists(temps[i]);
        }
        log = FileChannel.open(temps[0], StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    /**
     * Opens a segment at {@code baseOffset} in {@code dir} (which must exist) for writing.
     *
     * @param inputs directories being read (the source log dirs or partitions): {@code dir} must be
     *               none of them and not inside any of them
     */
    public static SegmentWriter open(Path dir, long baseOffset, int indexIntervalBytes, Collection<Path> inputs)
            throws IOException {
        if (baseOffset < 0) {
            throw new IllegalArgumentException("base offset " + baseOffset);
        }
        if (indexIntervalBytes < 0) {
            throw new IllegalArgumentException("index.interval.bytes " + indexIntervalBytes);
        }
        Path real = dir.toRealPath();
        for (Path in : inputs) {
            Path inReal = Files.exists(in) ? in.toRealPath() : in.toAbsolutePath().normalize();
            if (real.startsWith(inReal) || real.equals(inReal)) {
                throw new IllegalArgumentException("refusing to write into " + dir + ": it is an input (" + in + ")");
            }
        }
        return new SegmentWriter(real, baseOffset, indexIntervalBytes);
    }

    /** Bytes in the {@code .log} so far. */
    public long size() {
        return position;
    }

    /**
     * Appends whole batches or legacy entries (one or more, from the buffer's position to its limit) as
     * {@code LogSegment.append} does. The buffer's position is left unchanged.
     */
    public void append(ByteBuffer batches) throws IOException {
        ensureOpen();
        ByteBuffer b = batches.duplicate();
        int start = b.position();
        int end = b.limit();
        // check every batch first, so a bad one leaves nothing written
        long largest = -1;
        for (int p = start; p < end; ) {
            int size = entrySize(b, p, end, start);
            long last = lastOffset(b, p);
            if (last <= (largest >= 0 ? largest : lastAppendedOffset)) {
                throw new IllegalArgumentException("batch at " + (p - start) + " ends at offset " + last
                        + ", not after " + Math.max(largest, lastAppendedOffset));
            }
            if (last - baseOffset < 0 || last - baseOffset > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("offset " + last + " does not fit a segment at " + baseOffset);
            }
            largest = last;
            p += size;
        }
        if (start == end) {
            return;
        }
        if (position + (end - start) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the .log would pass 2 GiB, past what an offset index addresses");
        }
        lastAppendedOffset = largest;
        long physical = position;
        while (b.hasRemaining()) {
            position += log.write(b, position);
        }
        for (int p = start; p < end; ) {
            int size = b.getInt(p + BatchView.LENGTH_OFFSET) + BatchView.LOG_OVERHEAD;
            long lastOffset = lastOffset(b, p);
            long maxTimestamp = maxTimestamp(b, p);
            if (maxTimestamp > maxTimestampSoFar) {
                maxTimestampSoFar = maxTimestamp;
                offsetOfMaxTimestampSoFar = lastOffset;
            }
            if (bytesSinceLastIndexEntry > indexIntervalBytes) {
                appendOffsetEntry(lastOffset, physical);
                maybeAppendTimeEntry(maxTimestampSoFar, offsetOfMaxTimestampSoFar);
                bytesSinceLastIndexEntry = 0;
            }
            physical += size;
            bytesSinceLastIndexEntry += size;
            p += size;
        }
    }

    /** The whole size of the entry at {@code p}, checked against its magic's minimum and the bytes left. */
    private static int entrySize(ByteBuffer b, int p, int end, int start) {
        if (end - p < BatchView.MAGIC_OFFSET + 1) {
            throw new IllegalArgumentException("a partial batch at " + (p - start));
        }
        byte magic = b.get(p + BatchView.MAGIC_OFFSET);
        int min = switch (magic) {
            case 2 -> BatchView.RECORDS_OFFSET;
            case 1 -> BatchView.LOG_OVERHEAD + LegacyMessageView.RECORD_OVERHEAD_V1;
            case 0 -> BatchView.LOG_OVERHEAD + LegacyMessageView.RECORD_OVERHEAD_V0;
            default -> throw new IllegalArgumentException("magic " + magic + " batch at " + (p - start));
        };
        if (end - p < min) {
            throw new IllegalArgumentException("a partial batch at " + (p - start));
        }
        int size = b.getInt(p + BatchView.LENGTH_OFFSET) + BatchView.LOG_OVERHEAD;
        if (size < min || size > end - p) {
            throw new IllegalArgumentException("batch length " + size + " at " + (p - start));
        }
        return size;
    }

    /** Kafka's {@code lastOffset()}: base + last offset delta (v2), the entry's own offset (legacy). */
    private static long lastOffset(ByteBuffer b, int p) {
        return b.get(p + BatchView.MAGIC_OFFSET) == 2 ? b.getLong(p) + b.getInt(p + BatchView.LAST_OFFSET_DELTA_OFFSET)
                : b.getLong(p);
    }

    /** Kafka's {@code maxTimestamp()}: the field (v2), the message's timestamp (v1), none (v0). */
    private static long maxTimestamp(ByteBuffer b, int p) {
        return switch (b.get(p + BatchView.MAGIC_OFFSET)) {
            case 2 -> b.getLong(p + BatchView.MAX_TIMESTAMP_OFFSET);
            case 1 -> b.getLong(p + BatchView.LOG_OVERHEAD + LegacyMessageView.TIMESTAMP_OFFSET);
            default -> -1L;
        };
    }

    private void appendOffsetEntry(long offset, long physical) {
        if (lastIndexedOffset >= 0 && offset <= lastIndexedOffset) {
            throw new IllegalArgumentException("offset index entry " + offset + " after " + lastIndexedOffset);
        }
        if (physical > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("position " + physical + " past what an offset index holds");
        }
        offsetIndex = room(offsetIndex, OFFSET_ENTRY);
        offsetIndex.putInt((int) (offset - baseOffset)).putInt((int) physical);
        lastIndexedOffset = offset;
    }

    private void maybeAppendTimeEntry(long timestamp, long offset) {
        if (timestamp > lastTimeEntryTimestamp) {
            timeIndex = room(timeIndex, TIME_ENTRY);
            timeIndex.putLong(timestamp).putInt((int) (offset - baseOffset));
            lastTimeEntryTimestamp = timestamp;
            lastTimeEntryOffset = offset;
        }
    }

    /** Adds an aborted transaction to the {@code .txnindex} (last offsets must increase, as Kafka checks). */
    public void appendAbortedTxn(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
        ensureOpen();
        if (lastOffset <= lastTxnLastOffset) {
            throw new IllegalArgumentException("The last offset of appended transactions must increase sequentially, but "
                    + lastOffset + " is not greater than current last offset " + lastTxnLastOffset);
        }
        txnIndex = room(txnIndex, TxnIndexReader.ENTRY_SIZE);
        txnIndex.putShort(TxnIndexReader.CURRENT_VERSION).putLong(producerId).putLong(firstOffset)
                .putLong(lastOffset).putLong(lastStableOffset);
        lastTxnLastOffset = lastOffset;
    }

    /** The modification time given to the {@code .log}, {@code .index} and {@code .timeindex} on close. */
    public SegmentWriter lastModified(FileTime time) {
        lastModified = time;
        return this;
    }

    /** Finishes the segment (see the class comment) and renames its files into place. */
    @Override
    public void close() throws IOException {
        if (done) {
            return;
        }
        boolean ok = false;
        try {
            maybeAppendTimeEntry(maxTimestampSoFar, offsetOfMaxTimestampSoFar);
            log.force(true);
            log.close();
            write(temps[1], offsetIndex);
            write(temps[2], timeIndex);
            if (txnIndex.position() > 0) {
                write(temps[3], txnIndex);
            }
            if (lastModified != null) {
                for (int i = 0; i < 3; i++) {
                    Files.setLastModifiedTime(temps[i], lastModified);
                }
            }
            for (int i = 0; i < 4; i++) {
                if (Files.exists(temps[i])) {
                    Files.move(temps[i], finals[i], StandardCopyOption.ATOMIC_MOVE);
                }
            }
            ok = true;
        } finally {
            done = true;
            if (!ok) {
                deleteTemps();
            }
        }
    }

    /** Drops the segment: its temporary files are deleted and nothing is renamed. */
    public void abort() throws IOException {
        if (done) {
            return;
        }
        done = true;
        log.close();
        deleteTemps();
    }

    /** The final paths: {@code .log}, {@code .index}, {@code .timeindex}, {@code .txnindex}. */
    public List<Path> files() {
        return List.of(finals);
    }

    public Path dir() {
        return dir;
    }

    private void deleteTemps() throws IOException {
        List<IOException> errors = new ArrayList<>();
        for (Path t : temps) {
            try {
                Files.deleteIfExists(t);
            } catch (IOException e) {
                errors.add(e);
            }
        }
        if (!errors.isEmpty()) {
            throw errors.get(0);
        }
    }

    private static void write(Path path, ByteBuffer content) throws IOException {
        ByteBuffer b = content.duplicate().flip();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
    }

    private static ByteBuffer room(ByteBuffer b, int more) {
        if (b.remaining() >= more) {
            return b;
        }
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(b.capacity() * 2, b.position() + more));
        bigger.put(b.duplicate().flip());
        return bigger;
    }

    private void ensureOpen() {
        if (done) {
            throw new IllegalStateException("segment already closed");
        }
    }
}
