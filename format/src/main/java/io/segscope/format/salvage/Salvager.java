package io.segscope.format.salvage;

import io.segscope.format.state.ProducerState;

import io.segscope.format.error.FormatException;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.Copies;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.FileStatus;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.logdir.Segment;
import io.segscope.format.logdir.SegmentSet;
import io.segscope.format.logdir.SnapshotFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.RecordIterator;
import io.segscope.format.state.EpochEntry;
import io.segscope.format.state.LeaderEpochCheckpoint;
import io.segscope.format.state.PartitionMetadata;
import io.segscope.format.state.StateFileWriter;
import io.segscope.format.walk.BatchVisitor;
import io.segscope.format.walk.Damage;
import io.segscope.format.walk.SegmentWalk;
import io.segscope.format.write.SegmentWriter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Writes a copy of a damaged partition that Kafka 4.4.0 loads without truncating anything
 * (docs/salvage.md): every batch its recovery accepts and a consumer can read is kept, byte for byte,
 * in the segment it was in; the bytes around them that hold no good batch are left out (a torn tail
 * cut, damage in the middle skipped, with every good batch after it kept); the offset, time and
 * transaction indexes, the producer snapshot (at the log end offset) and the leader-epoch checkpoint
 * are rebuilt from the batches kept, as Kafka's recovery rebuilds them. Everything left out is
 * listed as a {@link Loss} with its bytes and offsets.
 *
 * <p>A good batch is kept unless Kafka's loading or reading would fail on it: its records cannot be
 * read (decompression, record framing), its offsets are not after the last batch kept, lie below
 * its segment's base offset or beyond {@code Integer.MAX_VALUE} of it, reach into the next
 * segment, or its producer state cannot be replayed (a non-transactional batch inside an open
 * transaction; a control batch of a producer that is not a COMMIT or ABORT marker Kafka can parse).
 *
 * <p>The input is only read. One instance per thread.
 */
public final class Salvager {
    /** Kafka's default {@code index.interval.bytes}. */
    public static final int INDEX_INTERVAL_BYTES = 4096;

    /** Kept batches are gathered here and written a run at a time (one write per MiB, not per batch). */
    private static final int STAGING_BYTES = 1 << 20;

    private final ReaderOptions options;
    private final SegmentWalk walk;
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES);

    public Salvager(ReaderOptions options) {
        this.options = options;
        this.walk = new SegmentWalk(options);
    }

    /**
     * Salvages one partition dir into {@code outLogDir/<its name>} (which must not exist).
     *
     * @param inputs the paths being read, which the output must not be inside
     */
    public SalvagedPartition salvage(PartitionDir partition, Path outLogDir, Collection<Path> inputs) throws IOException {
        Path target = outLogDir.resolve(partition.dir().name());
        Files.createDirectory(target);
        return new Run(partition, target, inputs).run();
    }

    /** The state of one partition's salvage. */
    private final class Run implements BatchVisitor {
        private final PartitionDir partition;
        private final Path target;
        private final Collection<Path> inputs;
        private final ProducerState producers = new ProducerState();
        private final List<EpochEntry> epochs = new ArrayList<>();
        private final List<Loss> losses = new ArrayList<>();
        private final List<String> leftOut = new ArrayList<>();
        private final List<SalvagedPartition.SegmentOut> written = new ArrayList<>();
        private long lastKept = -1;
        private long firstKept = -1;
        private long keptBatches;
        private long keptBytes;

        // per segment
        private ByteSource source;
        private SegmentWriter writer;
        private long segmentBase;
        private long nextSegmentBase;
        private long segmentBatches;
        /** A resynchronisation whose last lost offset is the offset before the next batch seen. */
        private Damage pending;

        Run(PartitionDir partition, Path target, Collection<Path> inputs) {
            this.partition = partition;
            this.target = target;
            this.inputs = inputs;
        }

        SalvagedPartition run() throws IOException {
            SegmentSet set = partition.segments();
            List<Segment> live = new ArrayList<>();
            for (Segment s : set.segments()) {
                if (s.status() == FileStatus.LIVE) {
                    live.add(s);
                } else {
                    s.log().ifPresent(f -> leftOut.add(f.name() + ": a " + s.status().suffix()
                            + " segment, which Kafka deletes or replaces at load"));
                }
            }
            for (Segment s : set.orphans()) {
                leftOut.add(SegmentFileNames.of(s) + ": index files without a .log (Kafka deletes them at load)");
            }
            for (SnapshotFile snap : set.snapshots()) {
                leftOut.add(snap.file().name() + ": replaced by the producer snapshot rebuilt at the log end offset");
            }
            long logEnd = 0;
            for (int i = 0; i < live.size(); i++) {
                Segment s = live.get(i);
                nextSegmentBase = i + 1 < live.size() ? live.get(i + 1).baseOffset() : Long.MAX_VALUE;
                long before = lastKept;
                segment(s);
                logEnd = lastKept > before && lastKept >= s.baseOffset() ? lastKept + 1 : s.baseOffset();
            }
            if (live.isEmpty()) {
                leftOut.add("(no segment): the partition had no .log; Kafka starts it empty at its log start offset");
            }
            sideFiles(set, logEnd);
            return new SalvagedPartition(partition.topic(), partition.partition(), target, List.copyOf(written),
                    firstKept, logEnd, keptBatches, keptBytes, producers.size(), List.copyOf(epochs),
                    List.copyOf(losses), List.copyOf(leftOut));
        }

        private void segment(Segment s) throws IOException {
            FileEntry log = s.log().orElseThrow();
            segmentBase = s.baseOffset();
            segmentBatches = 0;
            long bytesBefore = keptBytes;
            writer = SegmentWriter.open(target, segmentBase, INDEX_INTERVAL_BYTES, inputs);
            boolean ok = false;
            try {
                FileTime mtime = lastModified(log);
                if (mtime != null) {
                    writer.lastModified(mtime);
                }
                try {
                    source = log.open();
                } catch (FormatException e) {
                    losses.add(new Loss(log.path(), 0, Math.max(0, log.size()), lastKept + 1 > segmentBase ? lastKept + 1 : segmentBase,
                            -1, e.violation().kind(), "the file cannot be read: " + e.getMessage()));
                    source = null;
                }
                if (source != null) {
                    try {
                        pending = null;
                        staging.clear();
                        walk.walk(source, log.size(), segmentBase, lastKept, true, this);
                        flushPending(-1);
                    } catch (FormatException e) {
                        losses.add(new Loss(log.path(), e.position() < 0 ? 0 : e.position(), Math.max(0, log.size()),
                                -1, -1, e.violation().kind(), "reading stopped: " + e.getMessage()));
                    } catch (UncheckedIOException e) {
                        throw e.getCause();
                    } finally {
                        source.close();
                    }
                    flush();   // the batches kept before reading stopped too
                }
                writer.close();
                ok = true;
            } finally {
                if (!ok) {
                    writer.abort();
                }
            }
            written.add(new SalvagedPartition.SegmentOut(segmentBase, keptBytes - bytesBefore, segmentBatches));
        }

        @Override
        public boolean batch(Batch b) {
            flushPending(firstOffset(b));
            String why = refusal(b);
            if (why != null) {
                long first = firstOffset(b);
                losses.add(new Loss(b.file(), b.position(), b.position() + b.sizeInBytes(), first >= 0 ? first : b.lastOffset(),
                        b.lastOffset(), "dropped-batch", why));
                return true;
            }
            try {
                replay(b);
                int at = source.ensure(b.position(), b.sizeInBytes());
                ByteBuffer bytes = source.buffer().duplicate();
                bytes.limit(at + b.sizeInBytes()).position(at);
                if (bytes.remaining() > staging.remaining()) {
                    flush();
                }
                if (bytes.remaining() > staging.remaining()) {
                    writer.append(bytes);
                } else {
                    staging.put(bytes);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (firstKept < 0) {
                firstKept = firstOffset(b);
            }
            lastKept = b.lastOffset();
            keptBatches++;
            segmentBatches++;
            keptBytes += b.sizeInBytes();
            return true;
        }

        /** Writes the kept batches gathered so far. */
        private void flush() throws IOException {
            staging.flip();
            if (staging.hasRemaining()) {
                writer.append(staging);
            }
            staging.clear();
        }

        @Override
        public void damage(Damage d) {
            flushPending(-1);
            if (d.isTornTail()) {
                losses.add(loss(d, d.headerLastOffset()));
            } else {
                pending = d;
            }
        }

        /** Lists a resynchronisation, its lost offsets ending before {@code nextOffset} (when known). */
        private void flushPending(long nextOffset) {
            if (pending != null) {
                Damage d = pending;
                pending = null;
                long lastLost = nextOffset > d.lostFrom() && d.lostFrom() >= 0 ? nextOffset - 1 : -1;
                losses.add(loss(d, lastLost));
            }
        }

        private Loss loss(Damage d, long lastOffset) {
            String file = d.cause() != null ? d.cause().problem().file() : source.name();
            String reason = d.cause() != null ? d.cause().problem().detail()
                    : d.violation() == io.segscope.format.error.Violation.ZERO_TAIL ? "zero bytes to the end of the file"
                    : d.tail() != null && d.tail().declaredSize() > 0 ? "the file ends " + d.bytes()
                            + " bytes into an entry that declares " + d.tail().declaredSize() + " bytes after its header"
                    : "the file ends inside an entry";
            long first = d.lostFrom();
            if (lastOffset >= 0 && first > lastOffset) {
                first = -1;   // no offset lies between the good batches around it
                lastOffset = -1;
            }
            return new Loss(file, d.from(), d.to(), first, lastOffset, d.isTornTail() ? "torn-tail" : d.violation().kind(),
                    reason);
        }

        /** Why Kafka could not load or serve this batch, or null when it can be kept. */
        private String refusal(Batch b) {
            try {
                RecordIterator it = b.records();
                while (it.next()) {
                    // every record must frame, and a legacy inner message have its own CRC right: a
                    // consumer checks it (check.crcs) and cannot read past it
                    if (!it.record().isValid()) {
                        return "the inner message at offset " + it.record().offset()
                                + " of the compressed wrapper has a wrong CRC: consumers stop at it";
                    }
                }
            } catch (FormatException e) {
                return "its records cannot be read: " + e.problem().detail();
            }
            long first = firstOffset(b);
            long last = b.lastOffset();
            if (first < 0 || last < first) {
                return "its offsets " + first + ".." + last + " are not a range";
            }
            if (first <= lastKept) {
                return "its offsets " + first + ".." + last + " are not after the last batch kept (" + lastKept + ")";
            }
            if (last < segmentBase || last - segmentBase > Integer.MAX_VALUE) {
                return "its last offset " + last + " does not fit the segment based at " + segmentBase;
            }
            if (last >= nextSegmentBase) {
                return "its last offset " + last + " reaches into the next segment (based at " + nextSegmentBase + ")";
            }
            if (b.magic() >= 2 && b.producerId() >= 0) {
                if (b.isControl()) {
                    return controlRefusal(b);
                }
                try {
                    producers.checkData(b.producerId(), b.isTransactional());
                } catch (ProducerState.Refused e) {
                    return e.getMessage();
                }
            }
            return null;
        }

        private String controlRefusal(Batch b) {
            RecordIterator it = b.records();
            if (!it.next()) {
                return null;
            }
            LogRecord r = it.record();
            short type;
            try {
                type = ControlRecord.typeId(b, r);
            } catch (FormatException e) {
                return "its control record cannot be read: " + e.problem().detail();
            }
            if (type != ControlRecord.Type.ABORT.id && type != ControlRecord.Type.COMMIT.id) {
                return "a control batch of producer " + b.producerId() + " of type " + type
                        + ", not a transaction marker: Kafka's recovery fails on it";
            }
            if (ControlRecord.endTxnMarker(r.buffer(), r.valueOffset(), r.valueLength()) instanceof ControlRecord.MarkerDefect d) {
                return "its transaction marker cannot be read (" + d.message() + "): Kafka's recovery fails on it";
            }
            return null;
        }

        /** Replays a kept batch into the producer state, the leader epochs and the {@code .txnindex}. */
        private void replay(Batch b) {
            if (b.magic() < 2) {
                return;
            }
            int epoch = b.partitionLeaderEpoch();
            if (epoch >= 0 && (epochs.isEmpty() || epoch > epochs.get(epochs.size() - 1).epoch())) {
                epochs.add(new EpochEntry(epoch, b.baseOffset(), -1));
            }
            if (b.producerId() < 0) {
                return;
            }
            ProducerState.Aborted a = producers.apply(b);
            if (a != null) {
                writer.appendAbortedTxn(a.producerId(), a.firstOffset(), a.lastOffset(), a.lastStableOffset());
            }
        }

        /** The producer snapshot, the leader-epoch checkpoint, partition.metadata and KRaft snapshots. */
        private void sideFiles(SegmentSet set, long logEnd) throws IOException {
            StateFileWriter.write(target.resolve(String.format("%020d.snapshot", logEnd)),
                    StateFileWriter.producerSnapshot(producers.entries()));
            StateFileWriter.write(target.resolve(LeaderEpochCheckpoint.FILE_NAME),
                    StateFileWriter.leaderEpochCheckpoint(epochs));
            partition.leaderEpochCheckpoint().ifPresent(f -> {
                if (!readable(f, LeaderEpochCheckpoint::read)) {
                    leftOut.add(f.name() + ": unreadable; rebuilt from the batches kept");
                }
            });
            Optional<FileEntry> meta = partition.partitionMetadata();
            if (meta.isPresent()) {
                if (readable(meta.get(), PartitionMetadata::read)) {
                    Copies.copy(meta.get(), target.resolve(PartitionMetadata.FILE_NAME), false);
                } else {
                    leftOut.add(meta.get().name() + ": unreadable; Kafka writes it again from the topic id it is given");
                }
            }
            for (FileEntry other : set.otherFiles()) {
                if (other.isDirectory()) {
                    leftOut.add(other.name() + "/: a directory, not Kafka's");
                    continue;
                }
                LogFile f = LogFile.classify(other, Optional.of(partition.name()));
                if (f.kind() == FileKind.KRAFT_SNAPSHOT && f.status() == FileStatus.LIVE) {
                    kraftSnapshot(other, logEnd);
                } else if (!other.name().equals(PartitionMetadata.FILE_NAME)
                        && !other.name().equals(LeaderEpochCheckpoint.FILE_NAME)) {
                    leftOut.add(other.name() + ": not part of a partition Kafka loads");
                }
            }
        }

        /** Copies a KRaft snapshot whose batches are all good and end within the log; lists it otherwise. */
        private void kraftSnapshot(FileEntry file, long logEnd) throws IOException {
            boolean[] bad = new boolean[1];
            long[] last = {-1};
            try (ByteSource s = file.open()) {
                new SegmentWalk(options).walk(s, file.size(), -1, -1, true, new BatchVisitor() {
                    @Override
                    public boolean batch(Batch b) {
                        last[0] = Math.max(last[0], b.lastOffset());
                        return true;
                    }

                    @Override
                    public void damage(Damage d) {
                        bad[0] = true;
                    }
                });
            } catch (FormatException e) {
                bad[0] = true;
            }
            if (bad[0]) {
                losses.add(new Loss(file.path(), 0, file.size(), -1, -1, "kraft-snapshot",
                        "a damaged KRaft snapshot is not copied: the controller falls back to an older one or the log"));
            } else {
                Copies.copy(file, target.resolve(file.name()), false);
            }
        }
    }

    /** The file's modification time on the file system, or null (an archive entry). */
    private static FileTime lastModified(FileEntry f) {
        if (f instanceof io.segscope.format.logdir.PathEntry p) {
            try {
                return Files.getLastModifiedTime(p.toPath());
            } catch (IOException e) {
                return null;
            }
        }
        return null;
    }

    private static boolean readable(FileEntry f, java.util.function.Function<ByteSource, ?> reader) {
        try (ByteSource s = f.open()) {
            reader.apply(s);
            return true;
        } catch (FormatException e) {
            return false;
        }
    }

    /** The first offset of a batch without failing: Kafka's baseOffset (a legacy wrapper decompresses), or -1. */
    private static long firstOffset(Batch b) {
        try {
            return b.baseOffset();
        } catch (FormatException e) {
            return -1;
        }
    }

    /** Names of segment files for messages. */
    private static final class SegmentFileNames {
        static String of(Segment s) {
            return String.format("%020d", s.baseOffset()) + ".*" + s.status().suffix();
        }
    }

    private static final class UncheckedIOException extends RuntimeException {
        UncheckedIOException(IOException e) {
            super(e);
        }

        @Override
        public synchronized IOException getCause() {
            return (IOException) super.getCause();
        }
    }
}
