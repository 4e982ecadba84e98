package io.segscope.jmh.inventory;

import io.segscope.format.inventory.LogDirContext;
import io.segscope.format.inventory.ReplicaScanner;
import io.segscope.format.inventory.ReplicaState;
import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.state.OffsetCheckpoint;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.apache.kafka.storage.internals.log.UnifiedLog;
import org.apache.kafka.storage.log.metrics.BrokerTopicStats;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The inventory question: what each partition of a broker log dir holds (log start and end, high
 * watermark, producer state, last stable offset), on the same bytes in the same run: segscope's
 * {@code ReplicaScanner} over every partition of the log dir ({@code segscope partitions}) against
 * Kafka 4.4.0 loading each partition as a broker does after a clean shutdown
 * ({@code UnifiedLog.create} with the log dir's checkpoints, then {@code close}: the broker's
 * {@code LogManager.loadLogs}, one thread). One operation is the whole log dir. The setup reads it
 * once with each and fails unless the log end offsets agree.
 *
 * <p>Kafka loads a copy (its close writes producer snapshots and trims indexes; after the first load
 * the copy no longer changes). The log dir is {@code ${data}}, e.g. the 50-partition
 * {@code logdir50} of jmh/SCALE.md.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar InventoryBenchmark -p data=/work/perfdata/logdir50
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class InventoryBenchmark {
    @Param({"/work/perfdata/logdir50"})
    public String data;

    private Path source;
    private Path copy;
    private KafkaScheduler scheduler;
    private LogDirContext kafkaContext;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        source = Path.of(data);
        if (!Files.isRegularFile(source.resolve("meta.properties"))) {
            throw new IllegalStateException(source + " is not a log dir: generate it as jmh/SCALE.md says");
        }
        copy = Files.createTempDirectory("segscope-inventory-").resolve(source.getFileName());
        try (Stream<Path> s = Files.walk(source)) {
            for (Path p : s.toList()) {
                Path to = copy.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        scheduler = new KafkaScheduler(1);
        scheduler.startup();
        kafkaContext = LogDirContext.read(LogDir.open(copy));
        long ours = segscope();
        long theirs = kafka();
        if (ours != theirs) {
            throw new IllegalStateException("sum of log end offsets: segscope " + ours + ", Kafka " + theirs);
        }
        System.out.printf("%n%s: sum of log end offsets %d (segscope = Kafka)%n", source, ours);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException, InterruptedException {
        scheduler.shutdown();
        try (Stream<Path> s = Files.walk(copy.getParent())) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** segscope partitions: every partition's state; returns the sum of log end offsets. */
    @Benchmark
    public long segscope() {
        LogDir dir = LogDir.open(source);
        LogDirContext ctx = LogDirContext.read(dir);
        ReplicaScanner scanner = new ReplicaScanner(ReaderOptions.defaults(), false);
        long sum = 0;
        for (PartitionDir p : dir.partitions()) {
            ReplicaState s = scanner.scan(p, ctx, null);
            sum += s.logEndOffset();
        }
        return sum;
    }

    /** Kafka loading every partition as after a clean shutdown; returns the sum of log end offsets. */
    @Benchmark
    public long kafka() throws IOException {
        List<Path> parts = new ArrayList<>();
        try (Stream<Path> s = Files.list(copy)) {
            s.filter(Files::isDirectory).sorted().forEach(parts::add);
        }
        long sum = 0;
        LogConfig config = new LogConfig(Map.of());
        for (Path p : parts) {
            String tp = p.getFileName().toString();
            long logStart = kafkaContext.offset(OffsetCheckpoint.LOG_START_OFFSET, tp).orElse(0L);
            long recovery = kafkaContext.offset(OffsetCheckpoint.RECOVERY_POINT, tp).orElse(0L);
            UnifiedLog log = UnifiedLog.create(p.toFile(), config, logStart, recovery, scheduler, new BrokerTopicStats(), Time.SYSTEM,
                    900_000, new ProducerStateManagerConfig(Integer.MAX_VALUE, false), 600_000, new LogDirFailureChannel(1), true,
                    Optional.empty());
            sum += log.logEndOffset();
            log.close();
        }
        return sum;
    }
}
