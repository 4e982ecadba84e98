package io.segscope.inspector;

import io.segscope.testdata.Corpus;
import io.segscope.testkit.Tries;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real corpus partitions, damaged at random (bit flips, overwritten sizes, truncation, zero fill,
 * garbage in indexes and snapshots), through {@code dump} in every format and {@code verify}:
 * the exit code is always 0 or 1 and stderr never carries anything but segscope's own messages
 * (no stack trace, no "segscope: java.lang..." from an exception that escaped).
 */
class HostileCliPropertyTest {
    private static final List<Path> PARTITIONS = partitions();

    private static List<Path> partitions() {
        List<Path> out = new ArrayList<>();
        for (Path root : List.of(Corpus.corpus(), Corpus.synthetic())) {
            try (Stream<Path> s = Files.walk(root, 4)) {
                s.filter(Files::isDirectory).filter(d -> d.getParent().getFileName().toString().equals("logdir"))
                        .filter(HostileCliPropertyTest::hasLog).sorted().forEach(out::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    private static boolean hasLog(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(f -> f.getFileName().toString().endsWith(".log"));
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void thereArePartitionsToDamage() {
        assertThat(PARTITIONS).hasSizeGreaterThan(100);
    }

    @TestFactory
    Stream<DynamicTest> damagedPartitionsNeverCrashTheCli() {
        return Tries.of(8086, 300, gen -> damagedPartitionsNeverCrashTheCli(gen.seed(), gen.random()));
    }

    private static void damagedPartitionsNeverCrashTheCli(long seed, Random rnd) throws IOException {
        Path source = PARTITIONS.get(rnd.nextInt(PARTITIONS.size()));
        Path dir = Files.createTempDirectory("segscope-hostile");
        Path copy = dir.resolve(source.getFileName().toString());
        try {
            Files.createDirectories(copy);
            List<Path> files = new ArrayList<>();
            try (Stream<Path> s = Files.list(source)) {
                s.filter(Files::isRegularFile).sorted().forEach(files::add);
            }
            for (Path f : files) {
                Files.copy(f, copy.resolve(f.getFileName().toString()));
            }
            int damages = 1 + rnd.nextInt(3);
            for (int i = 0; i < damages; i++) {
                damage(rnd, copy.resolve(files.get(rnd.nextInt(files.size())).getFileName().toString()));
            }
            for (String[] args : List.of(
                    new String[]{"dump", "--files", "all", copy.toString()},
                    new String[]{"dump", "--format", "kafka", "--files", "all", copy.toString()},
                    new String[]{"dump", "--format", "jsonl", "--files", "all", copy.toString()},
                    new String[]{"verify", "--format", "jsonl", copy.toString()},
                    new String[]{"offsets", "--format", "jsonl", copy.toString()},
                    new String[]{"partitions", "--format", "jsonl", copy.toString()},
                    new String[]{"partitions", "--deep", copy.toString()},
                    new String[]{"partitions", "--time", "1700000000000", copy.toString()},
                    new String[]{"lag", "--format", "kafka", copy.toString()},
                    new String[]{"transactions", "--format", "jsonl", copy.toString()},
                    new String[]{"compat", copy.toString()},
                    new String[]{"report", "--out", dir.resolve("report.html").toString(), copy.toString()},
                    new String[]{"compact", "--dry-run", "--roll", "--format", "jsonl", copy.toString()},
                    new String[]{"compact", "--roll", "--out", dir.resolve("out").toString(), copy.toString()},
                    new String[]{"compact", "--snapshot", "--out", dir.resolve("snapshot").toString(), copy.toString()})) {
                Run run = Run.of(args);
                boolean nothingToCompact = args[0].equals("compact") && run.err().contains("no partition to compact");
                assertThat(run.exit()).as("seed %d %s: %s", seed, String.join(" ", args), run.err())
                        .isIn(nothingToCompact ? new Integer[] {2} : new Integer[] {0, 1});
                assertThat(run.err()).as("seed %d %s", seed, args[0]).doesNotContain("segscope: java.", "Exception in", "\tat ");
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> damagedZooKeeperDirsNeverCrashTheCli() {
        return Tries.of(2020, 60, gen -> damagedZooKeeperDirNeverCrashesTheCli(gen.seed(), gen.random()));
    }

    private static void damagedZooKeeperDirNeverCrashesTheCli(long seed, Random rnd) throws IOException {
        Path corpus = Corpus.root().resolve("testdata/corpus-zookeeper");
        List<Path> runs;
        try (Stream<Path> s = Files.list(corpus)) {
            runs = s.filter(p -> Files.isDirectory(p.resolve("data"))).sorted().toList();
        }
        Path source = runs.get(rnd.nextInt(runs.size()));
        Path dir = Files.createTempDirectory("segscope-hostile-zk");
        try {
            List<Path> files = new ArrayList<>();
            try (Stream<Path> s = Files.walk(source)) {
                for (Path p : s.toList()) {
                    Path q = dir.resolve(source.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(q);
                    } else {
                        Files.copy(p, q);
                        if (p.getFileName().toString().matches("(snapshot|log)\\..*")) {
                            files.add(q);
                        }
                    }
                }
            }
            int damages = 1 + rnd.nextInt(3);
            for (int i = 0; i < damages; i++) {
                damage(rnd, files.get(rnd.nextInt(files.size())));
            }
            for (String[] args : List.of(
                    new String[]{"zk-offsets", dir.toString()},
                    new String[]{"zk-offsets", "--format", "jsonl", "--no-checksums", dir.toString()},
                    new String[]{"zk-tree", "--format", "jsonl", dir.toString()},
                    new String[]{"zk-tree", "--kafka", dir.toString()})) {
                Run run = Run.of(args);
                assertThat(run.exit()).as("seed %d %s: %s", seed, String.join(" ", args), run.err()).isIn(0, 1);
                assertThat(run.err()).as("seed %d %s", seed, args[0]).doesNotContain("segscope: java.", "Exception in", "\tat ");
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** One random damage to one file. */
    private static void damage(Random rnd, Path file) throws IOException {
        byte[] b = Files.readAllBytes(file);
        if (b.length == 0) {
            Files.write(file, new byte[]{(byte) rnd.nextInt(256)});
            return;
        }
        switch (rnd.nextInt(6)) {
            case 0 -> b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
            case 1 -> { // overwrite what may be a size field with something hostile
                int p = rnd.nextInt(b.length);
                int v = rnd.nextBoolean() ? Integer.MAX_VALUE - rnd.nextInt(100) : rnd.nextInt(64) - 8;
                for (int k = 0; k < 4 && p + k < b.length; k++) {
                    b[p + k] = (byte) (v >>> (24 - 8 * k));
                }
            }
            case 2 -> b = java.util.Arrays.copyOf(b, rnd.nextInt(b.length));
            case 3 -> java.util.Arrays.fill(b, rnd.nextInt(b.length), b.length, (byte) 0);
            case 4 -> {
                for (int k = 0; k < 16; k++) {
                    b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
                }
            }
            default -> {
                byte[] longer = java.util.Arrays.copyOf(b, b.length + 1 + rnd.nextInt(100));
                for (int k = b.length; k < longer.length; k++) {
                    longer[k] = (byte) rnd.nextInt(256);
                }
                b = longer;
            }
        }
        Files.write(file, b);
    }
}
