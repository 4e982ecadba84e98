package io.segscope.format.zookeeper;

import io.segscope.format.logdir.FileEntry;
import io.segscope.format.verify.Finding;
import io.segscope.format.verify.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Damaged copies of corpus runs (seeded: truncated, bit-flipped, zeroed, removed files): segscope
 * never throws, every finding is a zk-* kind naming its file, with checksums on and off; whenever
 * ZooKeeper 3.9.5's own restore still loads a copy, segscope's tree is the same.
 */
class ZkDamageTest {
    private static final List<String> RUNS = List.of("zk-3.9.5", "zk-3.4.14", "zk-3.6.4-gz", "zk-3.7.2-snappy",
            "zk-3.9.5-datalogdir");

    /** Copies ZooKeeper loaded and segscope matched, over the seeds run so far. */
    static final java.util.concurrent.atomic.AtomicInteger LOADED = new java.util.concurrent.atomic.AtomicInteger();
    static final java.util.concurrent.atomic.AtomicInteger REFUSED = new java.util.concurrent.atomic.AtomicInteger();

    @org.junit.jupiter.api.AfterAll
    static void bothKindsSeen() {
        System.out.println("ZkDamageTest: ZooKeeper loaded " + LOADED + " damaged copies (segscope equal), refused " + REFUSED);
        assertThat(LOADED.get()).isPositive();
        assertThat(REFUSED.get()).isPositive();
    }

    static LongStream seeds() {
        return LongStream.rangeClosed(1, Long.getLong("zk.damage.seeds", 10));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void damagedCopies(long seed, @TempDir Path scratch) throws Exception {
        Random r = new Random(seed);
        int zkLoaded = 0;
        for (int copy = 0; copy < 6; copy++) {
            String run = RUNS.get(r.nextInt(RUNS.size()));
            Path dir = ZkCorpusRuns.copy(ZkCorpusRuns.dir().resolve(run), scratch.resolve("c" + copy));
            String what = damage(dir, r);
            List<FileEntry> roots = List.of(FileEntry.of(dir));
            ZkRestore.Result on = restoreNeverThrows(roots, true, what);
            ZkRestore.Result off = restoreNeverThrows(roots, false, what);
            Path oracleCopy = ZkCorpusRuns.copy(dir, scratch.resolve("z" + copy));
            boolean separate = Files.isDirectory(oracleCopy.resolve("datalog"));
            ZkOracle.Restored zk;
            try {
                zk = ZkOracle.restore(oracleCopy.resolve(separate ? "datalog" : "data").toFile(), oracleCopy.resolve("data").toFile());
            } catch (Exception | Error e) {
                REFUSED.incrementAndGet();
                continue;
            }
            if (on != null && on.complete()) {
                ZkOracle.assertSame(on.tree(), zk, "seed " + seed + " " + what);
                assertThat(on.lastZxid()).as(what).isEqualTo(zk.lastZxid());
                zkLoaded++;
            }
        }
        LOADED.addAndGet(zkLoaded);
    }

    private static ZkRestore.Result restoreNeverThrows(List<FileEntry> roots, boolean checksums, String what) {
        try {
            ZkRestore.Result r = ZkRestore.restore(roots, new ZkRestore.Options(ZkPathFilter.ALL, -1, Long.MIN_VALUE, checksums));
            for (Finding f : r.findings()) {
                assertThat(f.problem().kind().kind()).as(what + ": " + f).startsWith("zk-");
                assertThat(f.problem().file()).as(what + ": " + f).isNotBlank();
            }
            ZkKafka.read(r.tree());
            return r;
        } catch (io.segscope.format.error.FormatException e) {
            assertThat(e.problem().kind().kind()).as(what).isEqualTo("io-error");
            return null;
        }
    }

    /** Damages one file of the copy; says what it did. */
    private static String damage(Path dir, Random r) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir)) {
            s.filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        // half of the time one of the files a restore reads: the newest snapshots and logs
        List<Path> recent = new ArrayList<>();
        for (String prefix : List.of("snapshot.", "log.")) {
            List<Path> of = new ArrayList<>(files.stream().filter(p -> p.getFileName().toString().startsWith(prefix)).toList());
            of.sort(java.util.Comparator.comparingLong(p -> ZkSnapshot.zxidFromName(p.getFileName().toString(), prefix.substring(0, prefix.length() - 1))));
            recent.addAll(of.subList(Math.max(0, of.size() - 2), of.size()));
        }
        Path f = r.nextBoolean() && !recent.isEmpty() ? recent.get(r.nextInt(recent.size())) : files.get(r.nextInt(files.size()));
        long size = Files.size(f);
        int kind = r.nextInt(4);
        String name = dir.relativize(f).toString();
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            switch (kind) {
                case 0 -> {
                    long at = size == 0 ? 0 : (long) (r.nextDouble() * size);
                    raf.setLength(at);
                    return "truncated " + name + " at " + at;
                }
                case 1 -> {
                    if (size == 0) {
                        return "nothing to flip in " + name;
                    }
                    long at = (long) (r.nextDouble() * size);
                    raf.seek(at);
                    int b = raf.read();
                    raf.seek(at);
                    raf.write(b ^ (1 << r.nextInt(8)));
                    return "bit flipped in " + name + " at " + at;
                }
                case 2 -> {
                    if (size == 0) {
                        return "nothing to zero in " + name;
                    }
                    long at = (long) (r.nextDouble() * size);
                    int n = (int) Math.min(size - at, 1 + r.nextInt(200));
                    raf.seek(at);
                    raf.write(new byte[n]);
                    return "zeroed " + n + " bytes of " + name + " at " + at;
                }
                default -> {
                }
            }
        }
        Files.delete(f);
        return "removed " + name;
    }

    @Test
    void badSealInTheNewestSnapshotFallsBack(@TempDir Path scratch) throws Exception {
        Path dir = ZkCorpusRuns.copy(ZkCorpusRuns.dir().resolve("zk-3.9.5"), scratch.resolve("c"));
        List<FileEntry> roots = List.of(FileEntry.of(dir));
        ZkRestore.Result before = ZkRestore.restore(roots, ZkRestore.Options.all());
        Path newest = dir.resolve("data/version-2").resolve(before.snapshot().file().substring(before.snapshot().file().lastIndexOf('/') + 1));
        long size = Files.size(newest);
        // a 3.9.5 snapshot with digests ends: seal 1 (13 bytes), digest block (33), last zxid block (21)
        long sealLowByte = size - 21 - 33 - 13 + 7;
        try (RandomAccessFile raf = new RandomAccessFile(newest.toFile(), "rw")) {
            raf.seek(sealLowByte);
            int b = raf.read();
            raf.seek(sealLowByte);
            raf.write(b ^ 1);
        }
        ZkRestore.Result after = ZkRestore.restore(roots, ZkRestore.Options.all());
        assertThat(after.snapshot().nameZxid()).isLessThan(before.snapshot().nameZxid());
        assertThat(after.findings()).anySatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.problem().kind().kind()).isEqualTo("zk-checksum");
            assertThat(f.problem().file()).endsWith(newest.getFileName().toString());
            assertThat(f.problem().position()).isEqualTo(sealLowByte - 7);
            assertThat(f.consequence()).contains("falls back to an older snapshot");
        });
        assertThat(after.tree().nodesByPath().keySet()).isEqualTo(before.tree().nodesByPath().keySet());
        ZkOracle.Restored zk = ZkOracle.restore(ZkCorpusRuns.copy(dir, scratch.resolve("z")).resolve("data").toFile(),
                scratch.resolve("z").resolve("data").toFile());
        ZkOracle.assertSame(after.tree(), zk, "bad seal");
        ZkOracle.assertSame(before.tree(), zk, "original");

        ZkRestore.Result unchecked = ZkRestore.restore(roots, new ZkRestore.Options(ZkPathFilter.ALL, -1, Long.MIN_VALUE, false));
        assertThat(unchecked.snapshot().nameZxid()).isEqualTo(before.snapshot().nameZxid());
    }
}
