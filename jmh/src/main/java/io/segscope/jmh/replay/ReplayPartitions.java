package io.segscope.jmh.replay;

import io.segscope.format.logdir.LogFile;
import io.segscope.format.replay.OffsetsReplay;
import io.segscope.jmh.e2e.OffsetsSegmentGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The replay benchmarks' input: {@code DATA/replayN/__consumer_offsets-0}, written (once, if absent)
 * by {@link OffsetsSegmentGenerator} with fixed arguments: seed 42, 10,000 groups of one topic each
 * (about 25 partitions per group, 247,856 group-partitions), expiration sweeps on ~9% of writes
 * (~5-6% tombstones), 3% of commit requests transactional (COMMIT/ABORT markers), segments of
 * N/3 MiB.
 */
public final class ReplayPartitions {
    private ReplayPartitions() {
    }

    public static String[] generatorArgs(Path data, int sizeMib) {
        return new String[] {"--out", data.resolve("replay" + sizeMib).toString(), "--seed", "42", "--groups", "10000",
            "--max-group-topics", "1", "--expire-percent", "8", "--txn-percent", "3",
            "--size-mib", Integer.toString(sizeMib), "--segment-mib", Integer.toString(Math.max(1, sizeMib / 3))};
    }

    /** The partition dir of size {@code sizeMib} under {@code data}, generated if it has no .log file. */
    public static Path partition(Path data, int sizeMib) throws IOException {
        Path dir = data.resolve("replay" + sizeMib).resolve("__consumer_offsets-0");
        if (!Files.isDirectory(dir) || OffsetsReplay.logFiles(dir).isEmpty()) {
            OffsetsSegmentGenerator.main(generatorArgs(data, sizeMib));
        }
        return dir;
    }

    /** The paths of {@code files}, in their order. */
    public static List<Path> paths(List<LogFile> files) {
        List<Path> out = new ArrayList<>();
        for (LogFile f : files) {
            out.add(Path.of(f.path()));
        }
        return out;
    }

    /**
     * {@code ReplayPartitions DATA SIZE_MIB}: prints the partition dir, generating it first when it
     * has no .log file.
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: ReplayPartitions DATA SIZE_MIB");
            System.exit(2);
        }
        System.out.println(partition(Path.of(args[0]), Integer.parseInt(args[1])));
    }
}
