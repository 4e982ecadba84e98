package io.segscope.format.inventory;

import io.segscope.format.compact.CleanerDecision;
import io.segscope.format.compact.CompactSettings;
import io.segscope.format.compact.Compactor;
import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.salvage.KafkaLoad;
import io.segscope.format.state.OffsetCheckpoint;
import io.segscope.testdata.Corpus;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.storage.internals.log.ProducerStateEntry;
import org.apache.kafka.storage.internals.log.UnifiedLog;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka 4.4.0's {@code UnifiedLog} is the oracle of the replica state: every partition of every
 * corpus log dir (and the synthetic legacy one) is loaded by Kafka from a copy, with the log dir's
 * checkpoints and shutdown state, and its log start and end offsets, open transactions, last stable
 * offset, ListOffsets MAX_TIMESTAMP answer and timestamp searches are compared with what
 * {@link ReplicaScanner} reads, by default and with {@code --deep}.
 */
class ReplicaScannerKafkaTest {

    static List<Path> logDirs() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> runs = Files.list(Corpus.corpus())) {
            for (Path run : runs.sorted().toList()) {
                if (Files.isDirectory(run.resolve("logdir"))) {
                    out.add(run.resolve("logdir"));
                }
            }
        }
        out.add(Corpus.synthetic().resolve("logdir"));
        for (Path run : Corpus.replicaRuns()) {
            out.addAll(Corpus.brokerLogDirs(run));
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusPartition(@TempDir Path tmp) throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path logDir : logDirs()) {
            LogDir dir = LogDir.open(logDir);
            LogDirContext ctx = LogDirContext.read(dir);
            for (PartitionDir p : dir.partitions()) {
                if (p.name().isMetadataLog()) {
                    continue;
                }
                for (boolean deep : new boolean[] {false, true}) {
                    String name = Corpus.testdata().relativize(logDir) + "/" + p.dir().name() + (deep ? " --deep" : "");
                    tests.add(DynamicTest.dynamicTest(name, () -> check(tmp, logDir, p, ctx, deep)));
                }
            }
        }
        assertThat(tests).hasSizeGreaterThan(200);
        return tests.stream();
    }

    private static void check(Path tmp, Path logDir, PartitionDir p, LogDirContext ctx, boolean deep) throws IOException {
        ReplicaScanner scanner = new ReplicaScanner(ReaderOptions.defaults(), deep);
        ReplicaState s = scanner.scan(p, ctx, null);
        String tp = p.topic() + "-" + p.partition();
        Path copy = tmp.resolve(Corpus.testdata().relativize(logDir).toString().replace('/', '_') + (deep ? "-deep" : ""))
                .resolve(p.dir().name());
        KafkaLoad.copy(Path.of(p.dir().path()), copy);
        long ckLogStart = ctx.offset(OffsetCheckpoint.LOG_START_OFFSET, tp).orElse(0L);
        long rp = ctx.offset(OffsetCheckpoint.RECOVERY_POINT, tp).orElse(0L);
        boolean clean = Boolean.TRUE.equals(ctx.cleanShutdown());
        // timestamps to search: around every batch's max timestamp the scanner saw, and the edges
        List<Long> targets = new ArrayList<>(List.of(0L, s.firstTimestamp(), s.firstTimestamp() + 1, s.maxTimestamp(),
                s.maxTimestamp() + 1, (s.firstTimestamp() + s.maxTimestamp()) / 2, Long.MAX_VALUE - 1));
        Map<Long, long[]> ours = new TreeMap<>();
        for (long t : targets) {
            if (t >= 0) {
                ours.put(t, scanner.searchTimestamp(p, t, s.logStartOffset()));
            }
        }
        KafkaLoad.withLog(copy, ckLogStart, rp, clean, (UnifiedLog log) -> {
            assertThat(s.logEndOffset()).as("log end offset").isEqualTo(log.logEndOffset());
            assertThat(s.logStartOffset()).as("log start offset").isEqualTo(log.logStartOffset());
            List<String> kafkaOpen = new ArrayList<>();
            for (Map.Entry<Long, ProducerStateEntry> e : log.producerStateManager().activeProducers().entrySet()) {
                if (e.getValue().currentTxnFirstOffset().isPresent()) {
                    kafkaOpen.add(e.getKey() + "@" + e.getValue().currentTxnFirstOffset().getAsLong() + " epoch "
                            + e.getValue().producerEpoch() + " last " + e.getValue().lastTimestamp());
                }
            }
            List<String> ourOpen = s.openTransactions().stream().map(o -> o.producerId() + "@" + o.firstOffset() + " epoch "
                    + o.producerEpoch() + " last " + o.lastTimestamp()).sorted().toList();
            assertThat(ourOpen).as("open transactions").isEqualTo(kafkaOpen.stream().sorted().toList());
            assertThat(s.producers()).as("producers").isEqualTo(log.producerStateManager().activeProducers().size());
            long hw = s.highWatermark().orElse(s.logEndOffset());
            log.updateHighWatermark(hw);
            assertThat(s.lastStableOffset()).as("last stable offset").isEqualTo(log.lastStableOffset());
            Optional<FileRecords.TimestampAndOffset> max = log.fetchOffsetByTimestamp(-3L, Optional.empty()).timestampAndOffsetOpt();
            long kafkaMax = max.map(m -> m.offset).orElse(-1L);
            if (kafkaMax >= hw) {
                kafkaMax = -1;
            }
            assertThat(s.maxTimestampOffset()).as("max timestamp offset (Kafka's timestamp " + max.map(m -> m.timestamp).orElse(-1L)
                    + ", ours " + s.maxTimestamp() + ")").isEqualTo(kafkaMax);
            for (Map.Entry<Long, long[]> e : ours.entrySet()) {
                Optional<FileRecords.TimestampAndOffset> k = log.fetchOffsetByTimestamp(e.getKey(), Optional.empty())
                        .timestampAndOffsetOpt();
                String kafka = k.map(x -> x.offset + "@" + x.timestamp).orElse("none");
                String our = e.getValue() == null ? "none" : e.getValue()[0] + "@" + e.getValue()[1];
                assertThat(our).as("search for timestamp " + e.getKey()).isEqualTo(kafka);
            }
            List<String> kafkaEpochs = new ArrayList<>();
            log.leaderEpochCache().epochEntries().forEach(e -> kafkaEpochs.add(e.epoch() + "@" + e.startOffset()));
            List<String> ourEpochs = PartitionReplicas.epochs(s).stream().map(e -> e.epoch() + "@" + e.startOffset()).toList();
            assertThat(ourEpochs).as("leader epochs of " + p.dir().path()).isEqualTo(kafkaEpochs);
            if (s.logEndOffset() > s.logStartOffset()) {
                assertThat(s.latestEpoch()).as("latest epoch of " + p.dir().path()).isEqualTo(log.leaderEpochCache().latestEpoch().orElse(-1));
            }
            return null;
        });
    }

    /** The dirty ratio of every compacted corpus partition is the one the compaction engine's broker decision gives. */
    @TestFactory
    Stream<DynamicTest> dirtyRatioIsTheCleanersDecision() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path logDir : logDirs()) {
            LogDir dir = LogDir.open(logDir);
            LogDirContext ctx = LogDirContext.read(dir);
            for (PartitionDir p : dir.partitions()) {
                ReplicaState s = new ReplicaScanner(ReaderOptions.defaults(), false).scan(p, ctx, null);
                if (!s.compacted() || s.segments() == 0) {
                    continue;
                }
                tests.add(DynamicTest.dynamicTest(Corpus.testdata().relativize(logDir) + "/" + p.dir().name(), () -> {
                    CompactSettings settings = CompactSettings.defaults(System.currentTimeMillis())
                            .withHighWatermark(s.highWatermark().orElse(-1L))
                            .withFirstDirtyOffset(s.cleanerCheckpoint().orElse(-1L));
                    CleanerDecision d = Compactor.decide(Path.of(p.dir().path()), settings);
                    assertThat(s.dirtyRatio().orElseThrow()).isEqualTo(d.dirtyRatio());
                    assertThat(s.lastStableOffset()).isEqualTo(d.lastStableOffset());
                }));
            }
        }
        assertThat(tests).hasSizeGreaterThan(50);
        return tests.stream();
    }

    /**
     * The corruption catalogue: each damaged partition as a broker that crashed would recover it
     * (no clean shutdown, recovery point 0: every segment recovered, CRCs checked, truncated at the
     * first bad or partial batch), by Kafka and by the scanner.
     */
    @TestFactory
    Stream<DynamicTest> corruptionCatalogueAsRecovered(@TempDir Path tmp) throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        LogDirContext crashed = new LogDirContext("", Optional.empty(), Boolean.FALSE, Map.of(), List.of());
        try (Stream<Path> cases = Files.list(Corpus.resolve("corrupt"))) {
            for (Path c : cases.filter(Files::isDirectory).sorted().toList()) {
                try (Stream<Path> dirs = Files.list(c)) {
                    for (Path d : dirs.filter(Files::isDirectory).filter(x -> x.getFileName().toString().matches(".+-\\d+")).sorted().toList()) {
                        PartitionDir p = PartitionDir.of(io.segscope.format.logdir.FileEntry.of(d));
                        tests.add(DynamicTest.dynamicTest(Corpus.testdata().relativize(d).toString(), () -> {
                            ReplicaState s = new ReplicaScanner(ReaderOptions.defaults(), false).scan(p, crashed, null);
                            Path copy = tmp.resolve(c.getFileName().toString()).resolve(d.getFileName().toString());
                            KafkaLoad.copy(d, copy);
                            KafkaLoad.withLog(copy, 0, 0, false, (UnifiedLog log) -> {
                                assertThat(s.logEndOffset()).as("log end offset").isEqualTo(log.logEndOffset());
                                log.updateHighWatermark(s.logEndOffset());
                                assertThat(s.lastStableOffset()).as("last stable offset").isEqualTo(log.lastStableOffset());
                                assertThat(s.producers()).as("producers").isEqualTo(log.producerStateManager().activeProducers().size());
                                return null;
                            });
                        }));
                    }
                }
            }
        }
        assertThat(tests).hasSizeGreaterThan(10);
        return tests.stream();
    }
}
