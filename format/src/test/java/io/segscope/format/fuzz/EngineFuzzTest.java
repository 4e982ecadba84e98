package io.segscope.format.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.segscope.format.compact.CompactSettings;
import io.segscope.format.compact.Compactor;
import io.segscope.format.compat.Compatibility;
import io.segscope.format.compat.FormatInventory;
import io.segscope.format.compat.KafkaReleases;
import io.segscope.format.error.FormatException;
import io.segscope.format.inventory.LogDirContext;
import io.segscope.format.inventory.ReplicaScanner;
import io.segscope.format.inventory.ReplicaState;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.replay.AsOf;
import io.segscope.format.replay.OffsetsReplay;
import io.segscope.format.replay.ReplayResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engines on the fuzzer's bytes as a {@code __consumer_offsets} segment (format/FUZZING.md):
 * the offsets replay (one thread and three, which must agree), the compaction's dry run and the
 * replica inventory and the format inventory. The outcome: a result (damage is reported in it, as the engines report it)
 * or a {@link FormatException}; anything else is a finding. The inventory never throws: whatever
 * it cannot read is among the replica's problems.
 */
class EngineFuzzTest {
    private static final String DIR = "__consumer_offsets-0";
    private static final String LOG = "00000000000000000000.log";

    /** What a replay says, for comparing two. */
    private static String summary(ReplayResult r) {
        return r.offsets() + "\n" + r.pendingOffsets() + "\n" + r.groups().keySet() + "\n"
                + r.problems().stream().map(p -> p.message()).toList();
    }

    @FuzzTest(maxDuration = "30s")
    void replay(byte[] bytes) {
        List<LogFile> files = List.of(Fuzzed.logFile(bytes, DIR, LOG));
        String one;
        try {
            one = summary(OffsetsReplay.replay(files, AsOf.END, 1));
        } catch (FormatException expected) {
            return;
        }
        assertThat(summary(OffsetsReplay.replay(files, AsOf.END, 3))).as("three threads give one thread's replay").isEqualTo(one);
    }

    private static Path partition;

    /** The bytes as the only segment of a partition dir on disk (the compactor reads files). */
    private static Path partitionWith(byte[] bytes) {
        try {
            if (partition == null) {
                Path tmp = Files.createTempDirectory("segscope-fuzz-");
                partition = Files.createDirectories(tmp.resolve(DIR));
                // deleted at exit, the last registered first: the segment, its dir, the temporary dir
                tmp.toFile().deleteOnExit();
                partition.toFile().deleteOnExit();
                partition.resolve(LOG).toFile().deleteOnExit();
            }
            Files.write(partition.resolve(LOG), bytes);
            return partition;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "30s")
    void compactDryRun(byte[] bytes) throws IOException {
        Path dir = partitionWith(bytes);
        try {
            Compactor.dryRun(dir, CompactSettings.defaults(1_800_000_000_000L));
        } catch (FormatException expected) {
            // a partition the compactor refuses, saying why
        }
    }

    @FuzzTest(maxDuration = "30s")
    void inventory(byte[] bytes) {
        Path dir = partitionWith(bytes);
        PartitionDir p = PartitionDir.of(FileEntry.of(dir));
        // a partition dir on its own, and one of a log dir that did not shut down cleanly (recovery: CRCs read)
        LogDirContext unclean = new LogDirContext(dir.getParent().toString(), java.util.Optional.empty(), Boolean.FALSE,
                java.util.Map.of(), List.of());
        for (LogDirContext ctx : List.of(LogDirContext.NONE, unclean)) {
            for (boolean deep : new boolean[] {false, true}) {
                ReplicaScanner scanner = new ReplicaScanner(ReaderOptions.defaults(), deep);
                ReplicaState s = scanner.scan(p, ctx, null);
                assertThat(s.logEndOffset()).isGreaterThanOrEqualTo(0);
                assertThat(s.lastStableOffset()).isLessThanOrEqualTo(s.logEndOffset());
                for (long t : new long[] {0, s.firstTimestamp() + 1, s.maxTimestamp()}) {
                    if (t >= 0) {
                        long[] found = scanner.searchTimestamp(p, t, s.logStartOffset());
                        assertThat(found == null || found[1] >= t).isTrue();
                    }
                }
                scanner.timestampAt(p, Math.max(0, s.logEndOffset() - 1));
            }
        }
    }

    /**
     * The format inventory ({@code segscope compat}) of the bytes as a segment of a coordinator
     * topic, the metadata log and a user topic, from batch headers and deep, and the verdicts of
     * every release line on it: it never throws (a codec id 5 to 7 once made it throw a
     * NullPointerException; such a batch is now counted as codec {@code unknown}).
     */
    @FuzzTest(maxDuration = "30s")
    void formatInventory(byte[] bytes) {
        for (String dir : List.of(DIR, "__cluster_metadata-0", "events-0")) {
            String topic = dir.substring(0, dir.lastIndexOf('-'));
            List<LogFile> files = List.of(Fuzzed.logFile(bytes, dir, LOG));
            for (boolean deep : new boolean[] {false, true}) {
                FormatInventory.Counts c = FormatInventory.of(topic, 0, files, ReaderOptions.defaults(), deep);
                assertThat(c.batches()).isGreaterThanOrEqualTo(c.batchesByMagic()[0] + c.batchesByMagic()[1] + c.batchesByMagic()[2]);
                long sum = 0;
                for (long n : c.codecs().values()) {
                    sum += n;
                }
                assertThat(sum).as("every batch of magic 0 to 2 has a codec").isEqualTo(c.batches() - c.otherMagicBatches());
                List<Compatibility.Verdict> verdicts = Compatibility.judge(Compatibility.byTopic(List.of(c)));
                assertThat(verdicts).hasSize(KafkaReleases.all().size());
            }
        }
    }
}
