package io.segscope.jmh.compact;

import io.segscope.format.compact.KafkaCleanerOracle;
import io.segscope.format.compact.CompactResult;
import io.segscope.format.compact.CompactSettings;
import io.segscope.format.compact.Compactor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One compaction in a fresh JVM, for the whole process's wall time and peak RSS under
 * {@code /usr/bin/time -v} ({@code jmh/e2e/compact-perf.sh}):
 *
 * <pre>
 * java -cp jmh/target/benchmarks.jar io.segscope.jmh.compact.CompactMain segscope PARTITION_DIR BUFFER_MIB OUT_DIR
 * java -cp jmh/target/benchmarks.jar io.segscope.jmh.compact.CompactMain kafka    COPY_DIR      BUFFER_MIB
 * java -cp jmh/target/benchmarks.jar io.segscope.jmh.compact.CompactMain prepare  DATA none|zstd
 * </pre>
 *
 * <p>{@code prepare} prints the benchmark partition's directory ({@link CompactPartitions}),
 * generating it first if needed.
 *
 * <p>{@code segscope} compacts {@code PARTITION_DIR} into {@code OUT_DIR} (which must not hold the
 * partition yet; the input is only read). {@code kafka} cleans {@code COPY_DIR} in place, as the
 * broker does: it must be a copy of the partition (its segment files only, no producer snapshots),
 * which it opens with {@code UnifiedLog} (recovery), then cleans ({@link KafkaCleanerOracle}). Both use
 * {@link CompactPartitions#settings}: Kafka's defaults, one cleaner thread, the dedupe buffer
 * {@code BUFFER_MIB} MiB, the same clock. Prints the passes, the time of the compaction itself and,
 * from {@code /proc/self/status}, the peak resident set ({@code VmHWM}) and the current one split in
 * anonymous (heap, JVM) and file-backed (mapped files, jars) pages.
 */
public final class CompactMain {
    private CompactMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("prepare")) {
            // the partition dir of a codec under DATA, generated and recovered on first use
            System.out.println(CompactPartitions.partition(Path.of(args[1]), args[2]));
            return;
        }
        if (args.length < 3 || !args[0].equals("segscope") && !args[0].equals("kafka")
                || args[0].equals("segscope") && args.length < 4) {
            System.err.println("usage: CompactMain segscope PARTITION_DIR BUFFER_MIB OUT_DIR | kafka COPY_DIR BUFFER_MIB | prepare DATA CODEC");
            System.exit(2);
        }
        Path dir = Path.of(args[1]);
        CompactSettings settings = CompactPartitions.settings(Integer.parseInt(args[2]));
        long bytes = CompactPartitions.logBytes(dir);
        int passes;
        long bytesOut;
        long t0 = System.nanoTime();
        long cleanStart = t0;
        if (args[0].equals("segscope")) {
            // --repeat N (for a profiler): N - 1 compactions into OUT_DIR/warm, each deleted, before the measured one
            int repeat = args.length > 5 && args[4].equals("--repeat") ? Integer.parseInt(args[5]) : 1;
            for (int i = 1; i < repeat; i++) {
                Path warm = Path.of(args[3]).resolve("warm");
                long w0 = System.nanoTime();
                CompactResult w = Compactor.compact(dir, settings, warm);
                System.err.printf(Locale.ROOT, "run %d: %.3f s (map %.3f s, rewrite %.3f s)%n", i, (System.nanoTime() - w0) / 1e9,
                        w.stats().mapNanos() / 1e9, w.stats().cleanNanos() / 1e9);
                CompactPartitions.deleteTree(warm);
            }
            t0 = System.nanoTime();
            cleanStart = t0;
            CompactResult r = Compactor.compact(dir, settings, Path.of(args[3]));
            passes = r.stats().rounds().size();
            System.out.printf(Locale.ROOT, "segscope: building the key maps %.3f s, rewriting %.3f s%n",
                    r.stats().mapNanos() / 1e9, r.stats().cleanNanos() / 1e9);
            for (var round : r.stats().rounds()) {
                System.out.printf(Locale.ROOT, "  pass to %d: map %d keys of %d slots; batches copied %d, rebuilt %d, emptied %d,"
                                + " dropped %d; records %d -> %d%n", round.endOffset(), round.mapEntries(), round.mapSlots(),
                        round.batchesCopied(), round.batchesRebuilt(), round.emptyBatchesWritten(), round.batchesDropped(),
                        round.messagesRead(), round.messagesWritten());
            }
            bytesOut = CompactPartitions.logBytes(r.partitionDir().orElseThrow());
        } else {
            try (KafkaCleanerOracle.Session s = KafkaCleanerOracle.open(dir, settings)) {
                s.prepare(settings);
                cleanStart = System.nanoTime();
                passes = s.clean(settings).rounds();
            }
            bytesOut = CompactPartitions.logBytes(dir);
        }
        long t1 = System.nanoTime();
        System.out.printf(Locale.ROOT, "%s: %s, %,d bytes -> %,d bytes, dedupe buffer %s MiB, %d passes, %.3f s"
                        + " (cleaning %.3f s, %.1f MB/s; before it: %.3f s), max heap %d MiB%n",
                args[0], dir, bytes, bytesOut, args[2], passes, (t1 - t0) / 1e9, (t1 - cleanStart) / 1e9,
                bytes / 1e3 / ((t1 - cleanStart) / 1e6), (cleanStart - t0) / 1e9, Runtime.getRuntime().maxMemory() >> 20);
        Path status = Path.of("/proc/self/status");
        if (Files.isReadable(status)) {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM") || line.startsWith("VmRSS") || line.startsWith("RssAnon")
                        || line.startsWith("RssFile")) {
                    System.out.println(line.replaceAll("\\s+", " "));
                }
            }
        }
    }
}
