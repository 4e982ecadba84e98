package io.segscope.format.logdir;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.index.OffsetIndexReader;
import io.segscope.format.index.TimeIndexReader;
import io.segscope.format.io.ByteSource;
import io.segscope.format.state.LeaderEpochCheckpoint;
import io.segscope.format.state.OffsetCheckpoint;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.storage.internals.checkpoint.OffsetCheckpointFile;
import org.apache.kafka.storage.internals.log.LocalLog;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.LogFileUtils;
import org.apache.kafka.storage.internals.log.OffsetIndex;
import org.apache.kafka.storage.internals.log.TimeIndex;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** Discovery over a log dir laid out with Kafka's own file-name rules and writers. */
class LogDirTest {
    @TempDir
    Path logs;

    Path orders;
    String deleteDir;

    private static void touch(File f, int bytes) throws Exception {
        Files.write(f.toPath(), new byte[bytes]);
    }

    @BeforeEach
    void layOut() throws Exception {
        TopicPartition tp = new TopicPartition("orders-v2", 3);
        orders = Files.createDirectories(logs.resolve(LocalLog.logDirName(tp)));
        File dir = orders.toFile();
        for (long base : new long[] {0, 100, 250}) {
            touch(LogFileUtils.logFile(dir, base), 61);
            OffsetIndex idx = new OffsetIndex(LogFileUtils.offsetIndexFile(dir, base), base, 800);
            TimeIndex tidx = new TimeIndex(LogFileUtils.timeIndexFile(dir, base), base, 1200);
            if (base == 250) {   // the active segment of a crashed broker: preallocated, two entries
                idx.append(260, 4100);
                idx.append(270, 8300);
                tidx.maybeAppend(1_000_000L, 259);
                tidx.maybeAppend(1_000_900L, 270);
                idx.flush();
                tidx.flush();
            } else {
                idx.trimToValidSize();
                tidx.trimToValidSize();
            }
            idx.close();
            tidx.close();
        }
        touch(LogFileUtils.transactionIndexFile(dir, 100), 34);
        touch(LogFileUtils.producerSnapshotFile(dir, 250), 10);
        touch(LogFileUtils.producerSnapshotFile(dir, 100), 10);
        touch(new File(dir, LogFileUtils.producerSnapshotFile(dir, 50).getName() + ".deleted"), 10);
        // A cleaner run in progress and a finished one, and a deleted old segment.
        touch(LogFileUtils.logFile(dir, 0, ".deleted"), 61);
        touch(LogFileUtils.offsetIndexFile(dir, 0, ".deleted"), 0);
        touch(LogFileUtils.logFile(dir, 100, ".cleaned"), 61);
        touch(LogFileUtils.logFile(dir, 0, ".swap"), 61);
        touch(LogFileUtils.offsetIndexFile(dir, 0, ".swap"), 0);
        // An orphan: index files whose .log is gone.
        touch(LogFileUtils.offsetIndexFile(dir, 400), 0);
        touch(LogFileUtils.timeIndexFile(dir, 400), 0);
        touch(new File(dir, "leader-epoch-checkpoint"), 0);
        Files.writeString(orders.resolve("leader-epoch-checkpoint"), "0\n2\n0 0\n4 120\n");
        Files.writeString(orders.resolve("partition.metadata"), "version: 0\ntopic_id: 3nCE6jGXQpuB2cRxVNoyzA");
        touch(new File(dir, "notes.txt"), 3);
        touch(new File(dir, "abc.log"), 3);

        deleteDir = LocalLog.logDeleteDirName(new TopicPartition("gone", 0));
        Files.createDirectories(logs.resolve(deleteDir));
        Files.createDirectories(logs.resolve(LocalLog.logFutureDirName(new TopicPartition("orders-v2", 3))));
        Files.createDirectories(logs.resolve(LocalLog.logStrayDirName(new TopicPartition("stray", 1))));
        Path meta = Files.createDirectories(logs.resolve("__cluster_metadata-0"));
        touch(LogFileUtils.logFile(meta.toFile(), 0), 0);
        Files.writeString(meta.resolve("quorum-state"), "{}");
        touch(meta.resolve("00000000000000000090-0000000001.checkpoint").toFile(), 0);
        Files.createDirectories(logs.resolve("lost+found"));

        Files.writeString(logs.resolve("meta.properties"), "version=1\nnode.id=1\ncluster.id=c\n");
        new OffsetCheckpointFile(logs.resolve(OffsetCheckpoint.RECOVERY_POINT).toFile(), new LogDirFailureChannel(1))
                .write(Map.of(new TopicPartition("orders-v2", 3), 250L));
        Files.writeString(logs.resolve(OffsetCheckpoint.REPLICATION_OFFSET + ".tmp"), "0\n1\norders-v2 3 9");
    }

    @Test
    void defaultDiscoveryListsTheLiveLog() {
        LogDir logDir = LogDir.open(logs);
        assertThat(logDir.partitions()).extracting(p -> p.name().topicPartition())
                .containsExactly("__cluster_metadata-0", "orders-v2-3");
        assertThat(logDir.unrecognizedDirs()).singleElement().satisfies(e -> {
            assertThat(e.violation()).isEqualTo(Violation.NAME_FORMAT);
            assertThat(e.file()).endsWith("lost+found");
        });
        assertThat(logDir.metaProperties()).isPresent();
        assertThat(logDir.file(OffsetCheckpoint.RECOVERY_POINT)).isPresent();
        assertThat(logDir.file(OffsetCheckpoint.REPLICATION_OFFSET)).as("a .tmp sibling is never the checkpoint").isEmpty();
        assertThat(logDir.leftoverTmpFiles()).extracting(FileEntry::name).containsExactly("replication-offset-checkpoint.tmp");
        assertThat(logDir.cleanShutdown()).isEmpty();
        try (ByteSource src = logDir.file(OffsetCheckpoint.RECOVERY_POINT).get().open()) {
            assertThat(OffsetCheckpoint.read(src)).singleElement().extracting(e -> e.offset()).isEqualTo(250L);
        }

        PartitionDir p = logDir.partitions().get(1);
        assertThat(p.topic()).isEqualTo("orders-v2");
        assertThat(p.partition()).isEqualTo(3);
        assertThat(p.status()).isEqualTo(DirStatus.LIVE);
        SegmentSet set = p.segments();
        assertThat(set.segments()).extracting(Segment::baseOffset, Segment::status)
                .containsExactly(tuple(0L, FileStatus.LIVE), tuple(100L, FileStatus.LIVE), tuple(250L, FileStatus.LIVE));
        assertThat(set.segments().get(1).txnIndex()).isPresent();
        assertThat(set.segments().get(0).txnIndex()).isEmpty();
        assertThat(set.segments()).allSatisfy(s -> {
            assertThat(s.log()).isPresent();
            assertThat(s.index()).isPresent();
            assertThat(s.timeIndex()).isPresent();
        });
        assertThat(set.snapshots()).extracting(SnapshotFile::offset).containsExactly(100L, 250L);
        assertThat(set.orphans()).singleElement().satisfies(o -> {
            assertThat(o.baseOffset()).isEqualTo(400);
            assertThat(o.isOrphan()).isTrue();
        });
        assertThat(set.problems()).extracting(FormatException::violation, FormatException::baseOffset)
                .containsExactlyInAnyOrder(tuple(Violation.ORPHAN_INDEX, 400L), tuple(Violation.NAME_FORMAT, -1L));
        assertThat(set.otherFiles()).extracting(FileEntry::name)
                .containsExactly("abc.log", "leader-epoch-checkpoint", "notes.txt", "partition.metadata");
        assertThat(set.floor(299).orElseThrow().baseOffset()).isEqualTo(250);
        assertThat(set.floor(99).orElseThrow().baseOffset()).isZero();
        try (ByteSource src = p.leaderEpochCheckpoint().orElseThrow().open()) {
            assertThat(LeaderEpochCheckpoint.read(src)).hasSize(2);
        }
        assertThat(p.partitionMetadata()).isPresent();

        PartitionDir meta = logDir.partitions().get(0);
        assertThat(meta.name().isMetadataLog()).isTrue();
        assertThat(meta.segments().otherFiles()).extracting(FileEntry::name)
                .containsExactly("00000000000000000090-0000000001.checkpoint", "quorum-state");
    }

    /** The active segment's preallocated indexes, opened through discovery. */
    @Test
    void activeSegmentIndexesThroughDiscovery() {
        Segment active = LogDir.open(logs).partitions().get(1).segments().segments().get(2);
        try (ByteSource idx = active.index().orElseThrow().open(); ByteSource tidx = active.timeIndex().orElseThrow().open()) {
            OffsetIndexReader r = new OffsetIndexReader().wrap(idx, active.baseOffset());
            assertThat(r.entries()).isEqualTo(2);
            assertThat(r.slots()).isEqualTo(100);
            assertThat(r.lookup(275).position()).isEqualTo(8300);
            TimeIndexReader t = new TimeIndexReader().wrap(tidx, active.baseOffset());
            assertThat(t.entries()).isEqualTo(2);
            assertThat(t.isPreallocated()).isTrue();
            assertThat(t.kafkaSanityCheck()).isPresent();
        }
    }

    @Test
    void everythingOnRequest() {
        LogDir logDir = LogDir.open(logs);
        List<PartitionDir> all = logDir.partitions(Include.all());
        assertThat(all).extracting(PartitionDir::status)
                .containsExactlyInAnyOrder(DirStatus.LIVE, DirStatus.LIVE, DirStatus.DELETE, DirStatus.FUTURE, DirStatus.STRAY);
        assertThat(all).filteredOn(p -> p.status() == DirStatus.DELETE).singleElement()
                .satisfies(p -> assertThat(p.dir().name()).isEqualTo(deleteDir));
        assertThat(logDir.partitions(Set.of(Include.FUTURE_DIRS))).extracting(PartitionDir::status)
                .containsExactly(DirStatus.LIVE, DirStatus.LIVE, DirStatus.FUTURE);

        SegmentSet set = all.stream().filter(p -> p.topic().equals("orders-v2") && p.status() == DirStatus.LIVE)
                .findFirst().orElseThrow().segments(Include.all());
        assertThat(set.segments()).extracting(Segment::baseOffset, Segment::status).containsExactly(
                tuple(0L, FileStatus.LIVE), tuple(0L, FileStatus.DELETED), tuple(0L, FileStatus.SWAP),
                tuple(100L, FileStatus.LIVE), tuple(100L, FileStatus.CLEANED), tuple(250L, FileStatus.LIVE));
        assertThat(set.segments().get(1).index()).isPresent();
        assertThat(set.segments().get(4).index()).isEmpty();
        assertThat(set.snapshots()).extracting(SnapshotFile::offset, SnapshotFile::status)
                .containsExactly(tuple(50L, FileStatus.DELETED), tuple(100L, FileStatus.LIVE), tuple(250L, FileStatus.LIVE));
        SegmentSet swapOnly = all.get(0).segments(Set.of(Include.SWAP_FILES));
        assertThat(swapOnly.segments()).extracting(Segment::status).doesNotContain(FileStatus.DELETED, FileStatus.CLEANED);
    }

    /** Base offsets come from the name before the first '.', as Kafka's {@code LogFileUtils.offsetFromFileName}. */
    @Test
    void segmentFileNamesLikeKafka() {
        for (String name : new String[] {"00000000000000368769.log", "00000000000000368769.index",
                "00000000000000368769.timeindex", "00000000000000368769.txnindex", "00000000000000000512.snapshot",
                "00000000000000000000.log.deleted", "00000000000000000100.index.swap", "00000000000000000100.log.cleaned",
                "09223372036854775807.log", "123.log", "00000000000000000001.foo.log"}) {
            SegmentFileName n = SegmentFileName.parse(name).orElseThrow();
            assertThat(n.baseOffset()).as(name).isEqualTo(LogFileUtils.offsetFromFileName(name));
        }
        assertThat(SegmentFileName.parse("00000000000000000000.log.deleted").orElseThrow())
                .isEqualTo(new SegmentFileName(0, FileKind.LOG, FileStatus.DELETED));
        assertThat(SegmentFileName.parse("00000000000000000000.timeindex").orElseThrow().kind()).isEqualTo(FileKind.TIME_INDEX);
        assertThat(SegmentFileName.parse("leader-epoch-checkpoint")).isEmpty();
        assertThat(SegmentFileName.parse("00000000000000000090-0000000001.checkpoint")).isEmpty();
        assertThat(SegmentFileName.parse(".log")).isEmpty();
        assertThat(SegmentFileName.parse("99999999999999999999.log")).isEmpty();
        for (long offset : new long[] {0, 1, 368_769, Long.MAX_VALUE}) {
            assertThat(SegmentFileName.prefix(offset)).isEqualTo(LogFileUtils.filenamePrefixFromOffset(offset));
        }
    }

    @Test
    void inputKinds() throws Exception {
        assertThat(InputKind.detect(logs)).isEqualTo(InputKind.LOG_DIR);
        assertThat(InputKind.detect(orders)).isEqualTo(InputKind.PARTITION_DIR);
        assertThat(InputKind.detect(orders.resolve("00000000000000000000.log"))).isEqualTo(InputKind.FILE);
        assertThat(InputKind.detect(logs.resolve("lost+found"))).isEqualTo(InputKind.UNKNOWN);
        // A log dir named like a partition, holding only partition dirs, is still a log dir.
        Path named = Files.createDirectories(logs.getParent().resolve("kafka-logs-1").resolve("t-0"));
        Files.write(named.resolve("00000000000000000000.log"), new byte[0]);
        assertThat(InputKind.detect(named.getParent())).isEqualTo(InputKind.LOG_DIR);
        assertThat(InputKind.detect(named)).isEqualTo(InputKind.PARTITION_DIR);
        // Log dirs named like partitions side by side (broker-1, broker-2): their parent is not a
        // log dir holding partitions of a topic "broker", whether they show a root file or only partitions.
        Path brokers = Files.createDirectories(logs.getParent().resolve("logdirs"));
        Path b1 = Files.createDirectories(brokers.resolve("broker-1").resolve("t-0"));
        Files.write(b1.resolve("00000000000000000000.log"), new byte[0]);
        Files.writeString(b1.getParent().resolve("meta.properties"), "version=1\n");
        Path b2 = Files.createDirectories(brokers.resolve("broker-2").resolve("t-0"));
        Files.write(b2.resolve("00000000000000000000.log"), new byte[0]);
        assertThat(InputKind.detect(brokers)).isEqualTo(InputKind.UNKNOWN);
        assertThat(InputKind.detect(b1.getParent())).isEqualTo(InputKind.LOG_DIR);
        assertThat(InputKind.detect(b2.getParent())).isEqualTo(InputKind.LOG_DIR);
        FileListing listing = new FileListing(Set.of(FileKind.LOG));
        assertThat(new LogScanner(Include.none()).scan(brokers, listing)).isTrue();
        assertThat(listing.logDirs()).hasSize(2);
        assertThat(listing.files()).extracting(f -> f.partition().orElseThrow().topic()).containsExactly("t", "t");
    }

    /** The same listing from a tree that is not the file system (as an archive will provide). */
    @Test
    void discoveryOverAnotherFileTree() {
        MemoryTree root = MemoryTree.dir("logs",
                MemoryTree.file("meta.properties", "version=1\n".getBytes()),
                MemoryTree.dir("t-0",
                        MemoryTree.file("00000000000000000000.log", new byte[61]),
                        MemoryTree.file("00000000000000000000.index", new byte[0]),
                        MemoryTree.file("00000000000000000007.log", new byte[61]),
                        MemoryTree.file("00000000000000000007.index", ByteBuffer.allocate(16).putInt(0, 3).putInt(4, 70).array()),
                        MemoryTree.file("00000000000000000007.snapshot", new byte[10])),
                MemoryTree.dir("t-1." + "f".repeat(32) + "-delete"));
        LogDir logDir = new LogDir(root);
        assertThat(InputKind.detect(root)).isEqualTo(InputKind.LOG_DIR);
        assertThat(logDir.partitions()).hasSize(1);
        assertThat(logDir.partitions(Include.all())).hasSize(2);
        SegmentSet set = logDir.partitions().get(0).segments();
        assertThat(set.segments()).extracting(Segment::baseOffset).containsExactly(0L, 7L);
        try (ByteSource src = set.segments().get(1).index().orElseThrow().open()) {
            OffsetIndexReader r = new OffsetIndexReader().wrap(src, 7);
            assertThat(r.entries()).isEqualTo(1);
            assertThat(r.lookup(100)).isEqualTo(new io.segscope.format.index.OffsetPosition(10, 70));
        }
    }

    /** A minimal in-memory {@link FileEntry} tree. */
    record MemoryTree(String name, String path, byte[] bytes, List<FileEntry> kids) implements FileEntry {
        static MemoryTree file(String name, byte[] bytes) {
            return new MemoryTree(name, name, bytes, List.of());
        }

        static MemoryTree dir(String name, MemoryTree... kids) {
            Map<String, FileEntry> sorted = new TreeMap<>();
            for (MemoryTree k : kids) {
                sorted.put(k.name(), new MemoryTree(k.name(), name + "/" + k.path(), k.bytes(), k.kids()));
            }
            return new MemoryTree(name, name, null, new ArrayList<>(sorted.values()));
        }

        @Override
        public boolean isDirectory() {
            return bytes == null;
        }

        @Override
        public long size() {
            return bytes == null ? 0 : bytes.length;
        }

        @Override
        public List<FileEntry> children() {
            return kids;
        }

        @Override
        public ByteSource open() {
            return ByteSource.wrap(ByteBuffer.wrap(bytes), path);
        }
    }
}
