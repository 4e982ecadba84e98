package io.segscope.format.zookeeper;

import io.segscope.format.logdir.FileEntry;
import io.segscope.format.verify.Finding;
import io.segscope.format.verify.Severity;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * segscope's restore of a ZooKeeper data dir against ZooKeeper 3.9.5's own, on seeded random
 * workloads run by an embedded server ({@link ZkWorkload}): node for node (data, ACL, every stat
 * field, children), the open sessions and the last zxid; a filtered tree (exact stats for the
 * kept nodes); and three as-of zxids per seed against ZooKeeper's processTransaction stopped there.
 * More seeds: {@code -Dzk.oracle.seeds=60}.
 */
class ZkRestoreOracleTest {
    static LongStream seeds() {
        return LongStream.rangeClosed(1, Long.getLong("zk.oracle.seeds", 16));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void restoreEqualsZooKeepers(long seed, @TempDir Path dir) throws Exception {
        ZkWorkload.Dirs dirs = ZkWorkload.run(dir, seed, 160);
        List<FileEntry> roots = List.of(FileEntry.of(dirs.root()));

        ZkRestore.Result ours = ZkRestore.restore(roots, ZkRestore.Options.all());
        ZkRestore.Result filtered = ZkRestore.restore(roots, new ZkRestore.Options(
                ZkPathFilter.subtrees(List.of("/consumers/g0", "/a/b1")), -1, Long.MIN_VALUE, true));
        long last = ours.lastZxid();
        Random r = new Random(seed);
        long[] asOf = {1 + r.nextInt((int) Math.max(1, last)), 1 + r.nextInt((int) Math.max(1, last)), last / 2};
        ZkRestore.Result[] past = new ZkRestore.Result[asOf.length];
        for (int i = 0; i < asOf.length; i++) {
            past[i] = ZkRestore.restore(roots, new ZkRestore.Options(ZkPathFilter.ALL, asOf[i], Long.MIN_VALUE, true));
        }

        ZooKeeperSettings.with(dirs, () -> {
            ZkOracle.Restored zk = ZkOracle.restore(dirs.logDir().getParent().toFile(), dirs.snapDir().getParent().toFile());
            assertThat(ours.findings()).as("findings").filteredOn(f -> f.severity() != Severity.INFO).isEmpty();
            ZkOracle.assertSame(ours.tree(), zk, "seed " + seed);
            assertThat(last).as("last zxid").isEqualTo(zk.lastZxid());
            ZkOracle.assertSame(filtered.tree(), zk, "seed " + seed + " filtered");
            assertThat(filtered.tree().size()).isLessThan(ours.tree().size());
            for (int i = 0; i < asOf.length; i++) {
                ZkOracle.Restored then = ZkOracle.replayTo(dirs.logDir().getParent().toFile(),
                        dirs.snapDir().getParent().toFile(), asOf[i]);
                ZkOracle.assertSame(past[i].tree(), then, "seed " + seed + " as of 0x" + Long.toHexString(asOf[i]));
                assertThat(past[i].lastZxid()).isEqualTo(then.lastZxid());
            }
            return null;
        });
        assertThat(ours.tree().size()).isGreaterThan(5);
        assertThat(ours.snapshot()).isNotNull();
        for (Finding f : ours.findings()) {
            assertThat(f.problem().kind().kind()).startsWith("zk-");
        }
    }
}
