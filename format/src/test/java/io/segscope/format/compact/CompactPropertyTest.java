package io.segscope.format.compact;

import io.segscope.format.io.MappedSource;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.RecordIterator;
import io.segscope.format.replay.AsOf;
import io.segscope.format.replay.CommittedOffset;
import io.segscope.format.replay.OffsetsReplay;
import io.segscope.format.replay.RandomOffsetsLog;
import io.segscope.format.replay.ReplayResult;
import io.segscope.format.verify.Finding;
import io.segscope.format.verify.Severity;
import io.segscope.format.verify.Verifier;
import io.segscope.testkit.Gen;
import io.segscope.testkit.Tries;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.apache.kafka.storage.internals.log.UnifiedLog;
import org.apache.kafka.storage.log.metrics.BrokerTopicStats;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Properties of the engine on seeded random logs: compaction does not change what the group
 * coordinator loads ({@link OffsetsReplay} of the output equals that of the input), a second
 * compaction is what Kafka's second pass makes of the first one's output, the output verifies clean,
 * the input is never modified, a dry run reports what a real run does, and a run that fails leaves
 * nothing in the output directory.
 */
class CompactPropertyTest {
    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> offsetsReplayUnchangedAndOutputVerifies() {
        return Tries.of(0x0FF5E75CL, 60, gen -> {
            try {
                Path dir = Files.createDirectories(tmp.resolve(gen.seed() + "/in"));
                RandomOffsetsLog log = new RandomOffsetsLog(gen);
                log.write(dir, log.size());
                Path in = dir.resolve("__consumer_offsets-7");
                normalize(in);
                CompactSettings s = CompactSettings.defaults(RandomPartition.NOW)
                        .withCleanUpTo(Long.MAX_VALUE)
                        .withDedupeBufferBytes(gen.choose(CompactSettings.DEFAULT_DEDUPE_BUFFER_BYTES, 24L * 4, 24L * 30))
                        .withSegmentBytes(gen.choose(CompactSettings.DEFAULT_SEGMENT_BYTES, 2_000));
                Path work = tmp.resolve(gen.seed() + "");
                try (KafkaCleanerOracle.Session kafka = KafkaCleanerOracle.open(in, work.resolve("kafka/__consumer_offsets-7"), s)) {
                    CompactResult once = CompactKafkaTest.sameAsKafka(in, s, work.resolve("once"), kafka);
                    CompactResult twice = CompactKafkaTest.sameAsKafka(once.partitionDir().orElseThrow(), s,
                            work.resolve("twice"), kafka);
                    ReplayResult before = replay(in);
                    for (CompactResult r : List.of(once, twice)) {
                        Path out = r.partitionDir().orElseThrow();
                        List<Finding> findings = Verifier.verifyAll(FileEntry.of(out));
                        assertThat(findings).as("verify of the output").allMatch(f -> f.severity() == Severity.INFO);
                        if (!before.problems().isEmpty() || transactionalTombstone(in)) {
                            // the coordinator's load stops at a bad record, which compaction may remove (a
                            // log that does not load has no state to keep); and it applies a tombstone at
                            // once even inside a transaction that later aborts, while the cleaner removes
                            // aborted data, tombstones included (the coordinator never writes such records)
                            continue;
                        }
                        ReplayResult after = replay(out);
                        assertThat(view(after.offsets())).as("committed offsets").isEqualTo(view(before.offsets()));
                        assertThat(view(after.pendingOffsets())).as("pending offsets").isEqualTo(view(before.pendingOffsets()));
                        if (!abortedTransactions(in)) {
                            // a transactional offset commit creates its group even when the transaction
                            // aborts later; the cleaner removes aborted data, and the group goes with it
                            assertThat(after.groups().keySet()).as("groups").isEqualTo(before.groups().keySet());
                        }
                        assertThat(after.openTransactions()).isEqualTo(before.openTransactions());
                    }
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    /**
     * The coordinator snapshot loads into the same committed offsets and groups, with no tombstone,
     * no control batch and no transactional batch left, and verifies clean.
     */
    @TestFactory
    Stream<DynamicTest> snapshotLoadsTheSameOffsets() {
        return Tries.of(0x5AA95407L, 60, gen -> {
            try {
                Path dir = Files.createDirectories(tmp.resolve(gen.seed() + "/in"));
                RandomOffsetsLog log = new RandomOffsetsLog(gen);
                log.write(dir, log.size());
                Path in = dir.resolve("__consumer_offsets-7");
                normalize(in);
                CompactSettings s = CompactSettings.defaults(RandomPartition.NOW)
                        .withSegmentBytes(gen.choose(CompactSettings.DEFAULT_SEGMENT_BYTES, 2_000));
                Path out = Compactor.snapshot(in, s, tmp.resolve(gen.seed() + "/out")).partitionDir().orElseThrow();
                assertThat(Verifier.verifyAll(FileEntry.of(out))).allMatch(f -> f.severity() == Severity.INFO);
                for (Path seg : CompactKafkaTest.segmentLogs(out).values()) {
                    try (BatchReader reader = new BatchReader(MappedSource.open(seg))) {
                        while (reader.next()) {
                            Batch b = reader.batch();
                            assertThat(b.isControl() || b.isTransactional() || b.producerId() >= 0).isFalse();
                            RecordIterator it = b.records();
                            while (it.next()) {
                                assertThat(it.record().hasValue()).as("no tombstone").isTrue();
                            }
                        }
                    }
                }
                ReplayResult before = replay(in);
                if (!before.problems().isEmpty() || transactionalTombstone(in)) {
                    return;
                }
                ReplayResult after = replay(out);
                assertThat(view(after.offsets())).as("committed offsets").isEqualTo(view(before.offsets()));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> dryRunReportsWhatARunDoes() {
        return Tries.of(0xD5E5L, 12, gen -> {
            try {
                Path in = RandomPartition.write(gen, tmp.resolve(gen.seed() + "/in"), "topic");
                CompactSettings s = CompactKafkaTest.settings(gen);
                CompactStats dry = Compactor.dryRun(in, s).stats();
                CompactStats real = Compactor.compact(in, s, tmp.resolve(gen.seed() + "/out")).stats();
                assertThat(withoutTimes(dry)).isEqualTo(withoutTimes(real).subList(0, dry.rounds().size()));
                assertThat(dry.rounds().size()).isEqualTo(real.rounds().size());
                assertThat(dry.cleanerCheckpoint()).isEqualTo(real.cleanerCheckpoint());
                assertThat(dry.segmentsOut()).isEqualTo(real.segmentsOut());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void aFailedRunLeavesNothingBehind() throws Exception {
        Gen gen = new Gen(0xBAD5EEDL);
        Path in;
        do {
            in = RandomPartition.write(gen, tmp.resolve("in-" + gen.intBetween(0, 1 << 30)), "topic");
        } while (CompactKafkaTest.segmentLogs(in).size() < 2);
        // the last segment's first batch claims more records than it holds: reading its records fails
        Path last = CompactKafkaTest.segmentLogs(in).lastEntry().getValue();
        try (RandomAccessFile f = new RandomAccessFile(last.toFile(), "rw")) {
            f.seek(57);
            f.writeInt(1_000_000);
        }
        Map<String, byte[]> before = CompactKafkaTest.contents(in);
        Path out = Files.createDirectories(tmp.resolve("out"));
        Path input = in;
        assertThatThrownBy(() -> Compactor.compact(input, CompactSettings.defaults(RandomPartition.NOW)
                .withCleanUpTo(Long.MAX_VALUE).withDedupeBufferBytes(24L * 4), out))
                .isInstanceOf(RuntimeException.class);
        try (Stream<Path> left = Files.list(out)) {
            assertThat(left.toList()).as("nothing under the output dir").isEmpty();
        }
        assertThat(CompactKafkaTest.contents(in)).containsExactlyInAnyOrderEntriesOf(before);
    }

    @Test
    void refusesAnExistingOutputAndTheInputItself() throws Exception {
        Path in = RandomPartition.write(new Gen(7), tmp.resolve("in"), "topic");
        CompactSettings s = CompactSettings.defaults(RandomPartition.NOW);
        Path out = tmp.resolve("out");
        Compactor.compact(in, s, out);
        assertThatThrownBy(() -> Compactor.compact(in, s, out)).isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
        assertThatThrownBy(() -> Compactor.compact(in, s, in.resolve("x"))).isInstanceOf(IllegalArgumentException.class);
    }

    private static List<CompactStats.Round> withoutTimes(CompactStats s) {
        return s.rounds().stream().map(r -> new CompactStats.Round(r.firstDirtyOffset(), r.firstUncleanableOffset(),
                r.endOffset(), r.segmentsCleaned(), r.segmentsWritten(), r.mapBytesRead(), r.mapMessagesRead(),
                r.bytesRead(), r.bytesWritten(), r.messagesRead(), r.messagesWritten(), r.invalidMessagesRead(),
                r.mapSlots(), r.mapEntries(), r.bufferUtilization(), r.batchesCopied(), r.batchesRebuilt(),
                r.emptyBatchesWritten(), r.batchesDropped(), 0, 0)).toList();
    }

    /** Whether the partition's {@code .txnindex} files name an aborted transaction. */
    private static boolean abortedTransactions(Path partition) throws Exception {
        try (Stream<Path> s = Files.list(partition)) {
            for (Path p : s.filter(p -> p.toString().endsWith(".txnindex")).toList()) {
                if (Files.size(p) > 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether a transactional data batch of the partition holds a tombstone. */
    private static boolean transactionalTombstone(Path partition) throws Exception {
        for (Path log : CompactKafkaTest.segmentLogs(partition).values()) {
            try (BatchReader reader = new BatchReader(MappedSource.open(log))) {
                while (reader.next()) {
                    Batch b = reader.batch();
                    if (b.isTransactional() && !b.isControl()) {
                        RecordIterator it = b.records();
                        while (it.next()) {
                            if (!it.record().hasValue()) {
                                return true;
                            }
                        }
                    }
                }
            }
        }
        return false;
    }

    private static ReplayResult replay(Path partition) {
        return OffsetsReplay.replay(OffsetsReplay.logFiles(partition), AsOf.END);
    }

    /** An offset without where it was read from (positions change when a log is compacted). */
    private static List<String> view(List<CommittedOffset> offsets) {
        return offsets.stream().map(o -> o.group() + "/" + o.topic() + "/" + o.partition() + "=" + o.offset() + " e"
                + o.leaderEpoch() + " m" + o.metadata() + " c" + o.commitTimestamp() + " x" + o.expireTimestamp()
                + " id" + o.topicId() + " p" + o.producerId() + " @" + o.source().logOffset()).sorted().toList();
    }

    /** Opens and closes the partition with Kafka after an unclean shutdown: indexes and {@code .txnindex} rebuilt. */
    static void normalize(Path partition) throws Exception {
        KafkaScheduler scheduler = new KafkaScheduler(1);
        scheduler.startup();
        UnifiedLog log = UnifiedLog.create(partition.toFile(), new LogConfig(Map.of("cleanup.policy", "compact")), 0L, 0L,
                scheduler, new BrokerTopicStats(), KafkaCleanerOracle.fixed(RandomPartition.NOW), 60_000,
                new ProducerStateManagerConfig(86_400_000, false), 600_000, new LogDirFailureChannel(1), false,
                Optional.empty());
        log.close();
        scheduler.shutdown();
        try (Stream<Path> s = Files.list(partition)) {
            for (Path p : s.filter(p -> p.toString().endsWith(".snapshot")).toList()) {
                Files.delete(p);
            }
        }
    }
}
