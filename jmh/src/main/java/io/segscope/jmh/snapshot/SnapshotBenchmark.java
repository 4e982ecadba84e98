package io.segscope.jmh.snapshot;

import io.segscope.format.logdir.LogFile;
import io.segscope.format.replay.AsOf;
import io.segscope.format.replay.OffsetsReplay;
import io.segscope.format.replay.ReplayResult;
import io.segscope.jmh.replay.KafkaOffsetsLoad;
import io.segscope.jmh.replay.ReplayPartitions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.coordinator.group.GroupCoordinatorShard;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The snapshot question: replaying a whole {@code __consumer_offsets} partition to its committed
 * offsets (what {@code segscope offsets}, {@code groups} and {@code expired} start from), on the same
 * bytes in the same run: segscope's {@code OffsetsReplay.replay(files, AsOf.END)} (on the threads it
 * picks, and on one thread) against Kafka
 * 4.4.0's own load ({@link KafkaOffsetsLoad}: FileRecords, GroupCoordinatorRecordSerde,
 * GroupCoordinatorShard.replay through a SnapshottableCoordinator, as the broker's
 * CoordinatorLoaderImpl does). One operation is one full replay into fresh state. The setup
 * replays once with each and fails unless both have the same number of committed offsets.
 *
 * <p>The partition ({@link ReplayPartitions}) is {@code ${data}/replay${sizeMib}/__consumer_offsets-0},
 * generated on first use.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar SnapshotBenchmark -prof gc
 * java -jar jmh/target/benchmarks.jar SnapshotBenchmark -p sizeMib=300 -f 1 -wi 2 -i 3 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class SnapshotBenchmark {
    @Param({"30"})
    public int sizeMib;

    @Param({"/work/perfdata"})
    public String data;

    private List<LogFile> files;
    private List<Path> paths;

    /** Committed offsets after the replay (both sides agree). */
    public int committedOffsets;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        Path dir = ReplayPartitions.partition(Path.of(data), sizeMib);
        files = OffsetsReplay.logFiles(dir);
        paths = ReplayPartitions.paths(files);
        ReplayResult ours = segscope();
        GroupCoordinatorShard kafka = kafka();
        int theirs = KafkaOffsetsLoad.committedOffsetCount(kafka);
        if (!ours.problems().isEmpty()) {
            throw new IllegalStateException("segscope reports problems: " + ours.problems());
        }
        if (ours.offsetCount() != theirs) {
            throw new IllegalStateException("committed offsets: segscope " + ours.offsetCount() + ", Kafka " + theirs);
        }
        committedOffsets = theirs;
        System.out.printf("%n%s: %d files, %d records, %d committed offsets (segscope = Kafka); %d threads, %d processors%n",
                dir, files.size(), ours.records(), committedOffsets, OffsetsReplay.defaultThreads(files),
                Runtime.getRuntime().availableProcessors());
    }

    /** With the threads {@link OffsetsReplay#defaultThreads} picks (the processors, at most 8, for a log of 64 MiB or more). */
    @Benchmark
    public ReplayResult segscope() {
        return OffsetsReplay.replay(files, AsOf.END);
    }

    /** On one thread, as Kafka's load. */
    @Benchmark
    public ReplayResult segscopeOneThread() {
        return OffsetsReplay.replay(files, AsOf.END, 1);
    }

    @Benchmark
    public GroupCoordinatorShard kafka() throws IOException {
        return KafkaOffsetsLoad.load(paths);
    }
}
