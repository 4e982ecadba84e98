package io.segscope.jmh.e2e;

import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.format.record.BatchReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The one-segment input of the scan and decode benchmarks and of {@code perf/compare}: a
 * {@code __consumer_offsets-0} segment written by {@link OffsetsSegmentGenerator} with its defaults
 * (seed 42, 4,000 groups, 600 topics) up to {@code sizeMib} MiB, in {@code DATA/CODEC} for the
 * 100 MiB default (the README's {@code /work/perfdata/none} and {@code /work/perfdata/zstd}) and
 * in {@code DATA/CODEC-Nmib} for any other size. A compressed segment holds the same records as the
 * uncompressed one of the same size: the same seed, stopped after as many batches (the
 * uncompressed segment is generated first when missing, and its batches counted).
 *
 * <p>Generated on first use, into a directory that is renamed into place once complete, so an
 * interrupted run leaves no half-written input behind.
 *
 * <pre>
 * java -cp jmh/target/benchmarks.jar io.segscope.jmh.e2e.OffsetsSegments DATA [CODEC [SIZE_MIB]]
 * </pre>
 * prints the segment's path, generating it first when missing.
 */
public final class OffsetsSegments {
    /** The default size: the README's 100 MiB segment (104,856,767 bytes, 76,122 batches). */
    public static final int DEFAULT_MIB = 100;

    static final String FILE = "00000000000000000000.log";

    private OffsetsSegments() {
    }

    /** {@code DATA/CODEC} (100 MiB) or {@code DATA/CODEC-Nmib}: the generator's {@code --out}. */
    public static Path root(Path data, String codec, int sizeMib) {
        return data.resolve(sizeMib == DEFAULT_MIB ? codec : codec + "-" + sizeMib + "mib");
    }

    /** The segment of {@code sizeMib} MiB compressed with {@code codec}, generated if missing. */
    public static Path segment(Path data, String codec, int sizeMib) throws IOException {
        Path root = root(data, codec, sizeMib);
        Path log = root.resolve("__consumer_offsets-0").resolve(FILE);
        if (Files.isRegularFile(log)) {
            return log;
        }
        long maxBatches = codec.equals("none") ? -1 : batches(segment(data, "none", sizeMib));
        Path partial = root.resolveSibling(root.getFileName() + ".partial");
        deleteTree(partial);
        OffsetsSegmentGenerator.main(generatorArgs(partial, codec, sizeMib, maxBatches));
        Files.createDirectories(root);
        Files.move(partial.resolve("__consumer_offsets-0"), root.resolve("__consumer_offsets-0"),
                StandardCopyOption.ATOMIC_MOVE);
        deleteTree(partial);
        return log;
    }

    /** The generator's arguments; {@code maxBatches} -1 for no limit. */
    static String[] generatorArgs(Path out, String codec, int sizeMib, long maxBatches) {
        List<String> args = new ArrayList<>(List.of("--out", out.toString(), "--size-mib", Integer.toString(sizeMib)));
        if (!codec.equals("none")) {
            args.addAll(List.of("--compression", codec));
        }
        if (maxBatches >= 0) {
            args.addAll(List.of("--max-batches", Long.toString(maxBatches)));
        }
        return args.toArray(String[]::new);
    }

    /** The number of batches in {@code log}. */
    public static long batches(Path log) {
        long n = 0;
        try (ByteSource source = MappedSource.open(log); BatchReader reader = new BatchReader(source)) {
            while (reader.next()) {
                n++;
            }
        }
        return n;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 3) {
            System.err.println("usage: OffsetsSegments DATA [none|gzip|snappy|lz4|zstd [SIZE_MIB]]");
            System.exit(2);
        }
        String codec = args.length > 1 ? args[1] : "none";
        int sizeMib = args.length > 2 ? Integer.parseInt(args[2]) : DEFAULT_MIB;
        System.out.println(segment(Path.of(args[0]), codec, sizeMib));
    }
}
