package io.segscope.format.logdir;

import io.segscope.format.index.KafkaIndexOracle;
import io.segscope.format.index.OffsetIndexReader;
import io.segscope.format.index.TimeIndexReader;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.format.state.CleanShutdown;
import io.segscope.format.state.KafkaStateOracle;
import io.segscope.format.state.LeaderEpochCheckpoint;
import io.segscope.format.state.MetaProperties;
import io.segscope.format.state.OffsetCheckpoint;
import io.segscope.format.state.PartitionMetadata;
import io.segscope.testdata.Corpus;
import org.apache.kafka.storage.internals.log.LocalLog;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every index, snapshot and checkpoint file of the real-broker corpus ({@code testdata/corpus}),
 * read by segscope and by Kafka 4.4.0's own readers, must agree (the comparisons are
 * {@link KafkaIndexOracle} and {@link KafkaStateOracle}, which the temp-dir tests exercise on
 * files Kafka wrote). Each file is copied to a temporary directory first, since some of Kafka's
 * readers open files for writing. Also: every directory of each corpus log dir is classified as
 * Kafka's parser classifies it. Until a corpus is committed this finds nothing.
 */
class CorpusSideFilesTest {

    private static Stream<DynamicTest> each(Path root, String suffix, ToIntFunction<Path> compare) {
        return Corpus.filesEndingWith(root, suffix).stream()
                .filter(f -> f.getFileName().toString().endsWith(suffix))
                .map(f -> DynamicTest.dynamicTest(root.relativize(f).toString(), () -> {
                    Path dir = Files.createTempDirectory("segscope-corpus");
                    try {
                        Path parent = Files.createDirectories(dir.resolve(f.getParent().getFileName().toString()));
                        Path copy = Files.copy(f, parent.resolve(f.getFileName().toString()));
                        compare.applyAsInt(copy);
                    } finally {
                        delete(dir);
                    }
                }));
    }

    private static long baseOffset(Path file) {
        return SegmentFileName.parse(file.getFileName().toString()).orElseThrow().baseOffset();
    }

    /** Lookup targets around every real entry, so that Kafka's and segscope's searches are compared. */
    private static long[] offsetTargets(Path file, long base) {
        try (ByteSource src = MappedSource.open(file)) {
            OffsetIndexReader r = new OffsetIndexReader().wrap(src, base);
            List<Long> t = new ArrayList<>(List.of(base - 1, base, base + 1, Long.MAX_VALUE));
            for (int i = 0; i < r.entries(); i++) {
                t.add(r.offset(i) - 1);
                t.add(r.offset(i));
                t.add(r.offset(i) + 1);
            }
            return t.stream().mapToLong(Long::longValue).toArray();
        }
    }

    private static long[] timeTargets(Path file, long base) {
        try (ByteSource src = MappedSource.open(file)) {
            TimeIndexReader r = new TimeIndexReader().wrap(src, base);
            List<Long> t = new ArrayList<>(List.of(-1L, 0L, Long.MAX_VALUE));
            for (int i = 0; i < r.entries(); i++) {
                t.add(r.timestamp(i) - 1);
                t.add(r.timestamp(i));
                t.add(r.timestamp(i) + 1);
            }
            return t.stream().mapToLong(Long::longValue).toArray();
        }
    }

    /** Every comparison, over every file below {@code root}. */
    static Stream<DynamicTest> all(Path root) {
        return Stream.of(
                each(root, ".index", f -> KafkaIndexOracle.assertOffsetIndexMatchesKafka(f, baseOffset(f), offsetTargets(f, baseOffset(f)))),
                each(root, ".timeindex", f -> KafkaIndexOracle.assertTimeIndexMatchesKafka(f, baseOffset(f), timeTargets(f, baseOffset(f)))),
                each(root, ".txnindex", f -> KafkaIndexOracle.assertTxnIndexMatchesKafka(f, baseOffset(f))),
                each(root, ".snapshot", KafkaStateOracle::assertSnapshotMatchesKafka),
                OffsetCheckpoint.FILE_NAMES.stream().flatMap(name -> each(root, name, f -> {
                    assertThat(f.getFileName().toString()).isEqualTo(name);
                    return KafkaStateOracle.assertOffsetCheckpointMatchesKafka(f);
                })),
                each(root, LeaderEpochCheckpoint.FILE_NAME, KafkaStateOracle::assertLeaderEpochCheckpointMatchesKafka),
                each(root, PartitionMetadata.FILE_NAME, KafkaStateOracle::assertPartitionMetadataMatchesKafka),
                each(root, MetaProperties.FILE_NAME, KafkaStateOracle::assertMetaPropertiesMatchesKafka),
                each(root, CleanShutdown.FILE_NAME, KafkaStateOracle::assertCleanShutdownMatchesKafka),
                logDirs(root)).flatMap(x -> x);
    }

    /** The committed real-broker corpus. */
    @TestFactory
    Stream<DynamicTest> corpus() {
        return all(Corpus.corpus());
    }

    /** The committed synthetic segments (legacy formats built with Kafka's own builder). */
    @TestFactory
    Stream<DynamicTest> synthetic() {
        return all(Corpus.synthetic());
    }

    /**
     * The same comparisons over a log dir that Kafka's {@code UnifiedLog} wrote here, so that none
     * of them is vacuous while the corpus is absent.
     */
    @Test
    void sameComparisonsOverALogDirKafkaWrote(@TempDir Path tmp) throws Throwable {
        Path root = KafkaWrittenLogDir.create(tmp.resolve("kafka-logs"));
        List<DynamicTest> tests = all(root).toList();
        Map<String, Long> byKind = new TreeMap<>();
        for (DynamicTest t : tests) {
            String name = t.getDisplayName();
            byKind.merge(name.substring(name.lastIndexOf('/') + 1).replaceAll("^[0-9]+", ""), 1L, Long::sum);
            t.getExecutable().execute();
        }
        assertThat(byKind).containsKeys(".index", ".timeindex", ".txnindex", ".snapshot", "leader-epoch-checkpoint",
                "partition.metadata", "meta.properties", ".kafka_cleanshutdown", "recovery-point-offset-checkpoint",
                "cleaner-offset-checkpoint", "kafka-logs");
        assertThat(byKind.get(".index")).isEqualTo(8);  // 4 segments, two partition dirs

        // What the fixture holds: a crashed copy with preallocated active indexes, a clean one trimmed.
        LogDir logDir = LogDir.open(root);
        assertThat(logDir.partitions()).extracting(p -> p.name().topicPartition()).containsExactly("orders-0", "orders-1");
        for (PartitionDir p : logDir.partitions()) {
            SegmentSet set = p.segments();
            assertThat(set.segments()).hasSize(4);
            assertThat(set.problems()).isEmpty();
            assertThat(set.snapshots()).isNotEmpty();
            Segment active = set.segments().get(3);
            try (ByteSource idx = active.index().orElseThrow().open(); ByteSource tidx = active.timeIndex().orElseThrow().open()) {
                OffsetIndexReader r = new OffsetIndexReader().wrap(idx, active.baseOffset());
                TimeIndexReader t = new TimeIndexReader().wrap(tidx, active.baseOffset());
                assertThat(r.entries()).isPositive();
                assertThat(t.entries()).isPositive();
                boolean crashed = p.partition() == 1;
                assertThat(r.isPreallocated()).as("%s active .index preallocated", p).isEqualTo(crashed);
                assertThat(t.isPreallocated()).as("%s active .timeindex preallocated", p).isEqualTo(crashed);
                assertThat(t.kafkaSanityCheck().isPresent()).as("KAFKA-10207 on the crashed copy").isEqualTo(crashed);
            }
            Segment withTxn = set.segments().get(0);
            try (ByteSource txn = withTxn.txnIndex().orElseThrow().open()) {
                io.segscope.format.index.TxnIndexReader r = new io.segscope.format.index.TxnIndexReader().wrap(txn, 0);
                assertThat(r.entries()).isEqualTo(2);
                assertThat(r.producerId(0)).isEqualTo(KafkaWrittenLogDir.TXN_PRODUCER_ID);
            }
        }
    }

    /** Each log dir (a directory holding meta.properties): its subdirectories are classified as Kafka does. */
    static Stream<DynamicTest> logDirs(Path root) {
        return Corpus.filesEndingWith(root, MetaProperties.FILE_NAME).stream()
                .map(Path::getParent)
                .map(dir -> DynamicTest.dynamicTest(root.relativize(dir).toString().isEmpty() ? root.getFileName().toString()
                        : root.relativize(dir).toString(), () -> {
                    LogDir logDir = LogDir.open(dir);
                    assertThat(InputKind.detect(dir)).isEqualTo(InputKind.LOG_DIR);
                    List<PartitionDir> all = logDir.partitions(Include.all());
                    for (PartitionDir p : all) {
                        org.apache.kafka.common.TopicPartition tp = LocalLog.parseTopicPartitionName(
                                ((PathEntry) p.dir()).toPath().toFile());
                        assertThat(p.topic()).isEqualTo(tp.topic());
                        assertThat(p.partition()).isEqualTo(tp.partition());
                        assertThat(InputKind.detect(p.dir())).isEqualTo(InputKind.PARTITION_DIR);
                        SegmentSet set = p.segments(Include.all());
                        for (Segment s : set.segments()) {
                            assertThat(s.log()).isPresent();
                        }
                    }
                    assertThat(all.size() + logDir.unrecognizedDirs().size())
                            .isEqualTo((int) logDir.root().children().stream().filter(FileEntry::isDirectory).count());
                }));
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
