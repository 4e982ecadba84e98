package io.segscope.jmh.compact;

import io.segscope.format.compact.KafkaCleanerOracle;
import io.segscope.format.compact.CompactSettings;
import io.segscope.format.replay.OffsetsReplay;
import io.segscope.jmh.e2e.OffsetsSegmentGenerator;
import io.segscope.jmh.e2e.OffsetsSegments;
import io.segscope.jmh.replay.ReplayPartitions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The compaction benchmarks' input: the replay benchmarks' 300 MiB {@code __consumer_offsets}
 * partition ({@link ReplayPartitions}: seed 42, 10,000 groups, 2,869,037 offsets, ~206,000 live
 * keys, 3 segments of 100 MiB), uncompressed in {@code DATA/compact300}, and the same records
 * zstd-compressed in {@code DATA/compact300zstd} (the same 298,303 batches, {@code --max-batches};
 * segments of 30 MiB, so 3 full ones and a short fourth: 97,457,132 bytes).
 *
 * <p>The generator writes the segments' {@code .log} files only; a broker's partition also has the
 * {@code .index}, {@code .timeindex} and {@code .txnindex} (aborted transactions) it wrote as it
 * appended, and the cleaner reads the aborted transactions from the {@code .txnindex}. So the
 * generated partition is opened once by Kafka's {@code UnifiedLog} (recovery writes those files) and
 * closed, as a broker leaves it. Written once, on first use.
 */
public final class CompactPartitions {
    /** Batches of the uncompressed 300 MiB partition: the zstd twin stops after as many. */
    static final int BATCHES_300 = 298_303;

    /**
     * The cleaner's clock in every run: the generator's first timestamp (2026-12-01T00:00Z) plus 6 h,
     * i.e. about 4.6 h after the partition's last record: no producer has expired, every tombstone
     * gets a delete horizon 24 h later.
     */
    public static final long NOW = 1_795_996_800_000L + 6 * 3_600_000L;

    private CompactPartitions() {
    }

    /**
     * The generator's arguments for the partition of {@code sizeMib} MiB compressed with {@code codec}
     * under {@code data}; a compressed one stops after {@code batches} batches (those of the
     * uncompressed one) in segments of a tenth of the size.
     */
    static String[] generatorArgs(Path data, String codec, int sizeMib, long batches) {
        List<String> args = new ArrayList<>(Arrays.asList(ReplayPartitions.generatorArgs(data, sizeMib)));
        args.set(args.indexOf("--out") + 1, data.resolve(name(codec, sizeMib)).toString());
        if (!codec.equals("none")) {
            args.set(args.indexOf("--segment-mib") + 1, Integer.toString(Math.max(1, sizeMib / 10)));
            args.addAll(List.of("--compression", codec, "--max-batches", Long.toString(batches)));
        }
        return args.toArray(String[]::new);
    }

    private static String name(String codec, int sizeMib) {
        return codec.equals("none") ? "compact" + sizeMib : "compact" + sizeMib + codec;
    }

    /**
     * The 300 MiB partition dir compressed with {@code codec} ("none" or "zstd"), generated and
     * opened once by Kafka's {@code UnifiedLog} on first use (a {@code .recovered} file beside it marks that done).
     */
    public static Path partition(Path data, String codec) throws IOException {
        return partition(data, codec, 300);
    }

    /**
     * The same for a partition of {@code sizeMib} MiB ({@code DATA/compactN}, {@code DATA/compactNzstd}:
     * 2 for a smoke run); a compressed one holds the records of the uncompressed one, which is
     * generated first when missing to count its batches.
     */
    public static Path partition(Path data, String codec, int sizeMib) throws IOException {
        Path dir = data.resolve(name(codec, sizeMib)).resolve("__consumer_offsets-0");
        Path done = dir.resolveSibling(".recovered");
        if (!Files.exists(done)) {
            if (!Files.isDirectory(dir) || OffsetsReplay.logFiles(dir).isEmpty()) {
                long batches = codec.equals("none") ? -1
                        : sizeMib == 300 ? BATCHES_300 : batches(partition(data, "none", sizeMib));
                OffsetsSegmentGenerator.main(generatorArgs(data, codec, sizeMib, batches));
            }
            KafkaCleanerOracle.recover(dir, settings(128));
            Files.createFile(done);
        }
        return dir;
    }

    /** The batches of the partition's segments. */
    private static long batches(Path dir) throws IOException {
        long n = 0;
        for (Path log : segmentLogs(dir)) {
            n += OffsetsSegments.batches(log);
        }
        return n;
    }

    /**
     * Kafka 4.4.0's cleaner defaults with one thread, the dedupe buffer {@code bufferMib} MiB, the
     * clock at {@link #NOW}, every segment cleaned as after a roll, and the map sized as Kafka's
     * (so the rounds are Kafka's).
     */
    public static CompactSettings settings(int bufferMib) {
        return CompactSettings.defaults(NOW)
                .withDedupeBufferBytes(bufferMib * 1024L * 1024L)
                .withCleanUpTo(Long.MAX_VALUE)
                .withKafkaRounds(true);
    }

    /** Bytes of the partition's segment files. */
    public static long logBytes(Path dir) throws IOException {
        long n = 0;
        for (Path p : segmentLogs(dir)) {
            n += Files.size(p);
        }
        return n;
    }

    /** The {@code .log} files of {@code dir}, by name (base offset). */
    public static List<Path> segmentLogs(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("\\d{20}\\.log")).sorted().toList();
        }
    }

    /** Deletes {@code root} and everything under it. */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var s = Files.walk(root)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
