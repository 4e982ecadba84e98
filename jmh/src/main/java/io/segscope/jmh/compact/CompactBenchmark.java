package io.segscope.jmh.compact;

import io.segscope.format.compact.KafkaCleanerOracle;
import io.segscope.format.compact.CompactResult;
import io.segscope.format.compact.CompactSettings;
import io.segscope.format.compact.Compactor;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Compacting the 300 MiB {@code __consumer_offsets} partition ({@link CompactPartitions}: 2.87 M
 * records, ~206,000 live keys; uncompressed or zstd), segscope against Kafka 4.4.0's cleaner, with
 * the same settings ({@link CompactPartitions#settings}: Kafka's defaults, one cleaner thread, the
 * dedupe buffer of the {@code bufferMib} parameter, the same fixed "now", every segment cleaned,
 * the key map of Kafka's size so that both make the same passes). One operation is one whole
 * compaction; each is timed on its own ({@code SingleShotTime}).
 *
 * <ul>
 *   <li>{@code segscope}: {@code Compactor.compact(partition, settings, out)} into a new empty
 *   directory: mapping and walking the input segments (producer state), allocating the key map,
 *   every pass, writing and syncing the cleaned segments and their indexes, assembling the output
 *   directory. The input is only read.</li>
 *   <li>{@code kafka}: {@link KafkaCleanerOracle.Session#clean}: {@code Cleaner.doClean} pass after pass on
 *   a copy of the partition opened by {@code UnifiedLog}: reading, the key map, filtering, writing
 *   and flushing the {@code .cleaned} segments and swapping them in. Not timed
 *   ({@code @Setup(Level.Invocation)}): the copy (synced to disk), the log's recovery when it is
 *   opened (indexes, producer state), the roll, and allocating the {@code SkimpyOffsetMap}, which a
 *   broker does once at start-up.</li>
 * </ul>
 *
 * So segscope's time includes work that Kafka's excludes (reading the log once for the producer
 * state and the indexes, allocating the map). The trial setup of {@code segscope} first runs both
 * once and fails unless segscope's passes, per-pass {@code CleanerStats} and output files
 * ({@code .log}, {@code .index}, {@code .timeindex}, {@code .txnindex} of every segment) equal
 * Kafka's byte for byte ({@link CompactCheck}); it prints the passes and both sides' MB/s for that
 * single run.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar CompactBenchmark -prof gc
 * java -jar jmh/target/benchmarks.jar CompactBenchmark -p codec=zstd -p bufferMib=4
 * java -jar jmh/target/benchmarks.jar CompactBenchmark -p sizeMib=2 -p codec=none -bm ss -wi 0 -i 1 -f 0   # smoke
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class CompactBenchmark {
    @Param({"none", "zstd"})
    public String codec;

    /** {@code log.cleaner.dedupe.buffer.size} in MiB: 128 (Kafka's default, one pass here), 4 (several passes). */
    @Param({"128", "4"})
    public int bufferMib;

    @Param({"/work/perfdata"})
    public String data;

    /** The partition's size in MiB ({@link CompactPartitions#partition(Path, String, int)}): 300; 2 for a smoke run. */
    @Param({"300"})
    public int sizeMib;

    private Path partition;
    private CompactSettings settings;
    private Path work;
    private boolean kafkaSide;
    private Path out;
    private KafkaCleanerOracle.Session session;

    @Setup(Level.Trial)
    public void setup(BenchmarkParams params) throws IOException {
        partition = CompactPartitions.partition(Path.of(data), codec, sizeMib);
        settings = CompactPartitions.settings(bufferMib);
        work = Files.createDirectories(Path.of(data).resolve("compact-bench"));
        kafkaSide = params.getBenchmark().endsWith(".kafka");
        if (!kafkaSide) {
            check();
        }
    }

    /** Both once, compared; the passes and MB/s of that run. */
    private void check() throws IOException {
        long bytes = CompactPartitions.logBytes(partition);
        Path ourOut = Files.createTempDirectory(work, "check-segscope-");
        Path copy = Files.createTempDirectory(work, "check-kafka-").resolve(partition.getFileName());
        try {
            long t0 = System.nanoTime();
            CompactResult ours = Compactor.compact(partition, settings, ourOut);
            long t1 = System.nanoTime();
            KafkaCleanerOracle.copy(partition, copy);
            syncAll(copy);
            KafkaCleanerOracle.Result kafka;
            long t2;
            long t3;
            try (KafkaCleanerOracle.Session s = KafkaCleanerOracle.open(copy, settings)) {
                s.prepare(settings);
                t2 = System.nanoTime();
                kafka = s.clean(settings);
                t3 = System.nanoTime();
            }
            CompactCheck.sameAsKafka(ours, kafka, copy);
            long below = 0;   // the input segments wholly below the cleaner checkpoint: what was cleaned
            for (Path log : CompactPartitions.segmentLogs(partition)) {
                if (Long.parseLong(log.getFileName().toString().substring(0, 20)) < ours.stats().cleanerCheckpoint()) {
                    below += Files.size(log);
                }
            }
            System.out.printf(Locale.ROOT, "%n%s (%s, %,d bytes), dedupe buffer %d MiB: %d passes, %,d bytes of segments"
                            + " below the last stable offset cleaned (segscope = Kafka: passes, stats, output files); this run: segscope"
                            + " %.2f s, Kafka %.2f s (cleaning only), Kafka / segscope %.2f; MB/s of the partition: segscope"
                            + " %.1f, Kafka %.1f%n",
                    partition, codec, bytes, bufferMib, kafka.rounds(), below,
                    (t1 - t0) / 1e9, (t3 - t2) / 1e9, (double) (t3 - t2) / (t1 - t0),
                    bytes / 1e3 / ((t1 - t0) / 1e6), bytes / 1e3 / ((t3 - t2) / 1e6));
        } finally {
            CompactPartitions.deleteTree(ourOut);
            CompactPartitions.deleteTree(copy.getParent());
        }
    }

    @Setup(Level.Invocation)
    public void prepare() throws IOException {
        if (kafkaSide) {
            Path copy = Files.createTempDirectory(work, "kafka-").resolve(partition.getFileName());
            KafkaCleanerOracle.copy(partition, copy);
            syncAll(copy);
            session = KafkaCleanerOracle.open(copy, settings);
            session.prepare(settings);   // the roll, the high watermark and the offset map: not measured
        } else {
            out = Files.createTempDirectory(work, "segscope-");
        }
    }

    @TearDown(Level.Invocation)
    public void cleanUp() throws IOException {
        if (session != null) {
            session.close();
            CompactPartitions.deleteTree(session.dir().getParent());
            session = null;
        }
        if (out != null) {
            CompactPartitions.deleteTree(out);
            out = null;
        }
    }

    @Benchmark
    public CompactResult segscope() throws IOException {
        return Compactor.compact(partition, settings, out);
    }

    @Benchmark
    public KafkaCleanerOracle.Result kafka() throws IOException {
        return session.clean(settings);
    }

    /** fsync every file of {@code dir}, so that writing the copy back is not done during the measurement. */
    static void syncAll(Path dir) throws IOException {
        List<Path> files;
        try (var s = Files.list(dir)) {
            files = s.toList();
        }
        for (Path f : files) {
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
        }
    }
}
