package io.segscope.jmh.zookeeper;

import io.segscope.format.logdir.FileEntry;
import io.segscope.format.zookeeper.ZkKafka;
import io.segscope.format.zookeeper.ZkPathFilter;
import io.segscope.format.zookeeper.ZkRestore;
import org.apache.zookeeper.server.DataTree;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;
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

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Restoring a ZooKeeper data dir: ZooKeeper 3.9.5's own {@code FileTxnSnapLog.restore} into a new
 * {@code DataTree} against segscope's {@link ZkRestore} keeping every node, and keeping Kafka's
 * paths only (what {@code zk-offsets} does), on the same files in the same run. The dir
 * ({@link ZkDataDirs}) is written by an embedded 3.9.5 server on first use, never committed. The
 * setup restores once with each and fails unless both hold the same number of znodes and zxid.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar ZkRestoreBenchmark -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class ZkRestoreBenchmark {
    @Param({"200000"})
    public int znodes;

    @Param({"/work/perfdata"})
    public String data;

    private Path dir;
    private List<FileEntry> roots;
    private ZkRestore.Options kafkaPaths;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        System.setProperty("zookeeper.snapshot.trust.empty", "true");
        dir = ZkDataDirs.dataDir(Path.of(data), znodes);
        roots = List.of(FileEntry.of(dir));
        kafkaPaths = new ZkRestore.Options(ZkKafka.PATHS, -1, Long.MIN_VALUE, true);
        ZkRestore.Result ours = segscopeAll();
        DataTree theirs = zookeeper();
        int ourNodes = ours.tree().size();
        int theirNodes = count(theirs);
        if (ourNodes != theirNodes || ours.lastZxid() != theirs.lastProcessedZxid) {
            throw new IllegalStateException("segscope " + ourNodes + " znodes at 0x" + Long.toHexString(ours.lastZxid())
                    + ", ZooKeeper " + theirNodes + " at 0x" + Long.toHexString(theirs.lastProcessedZxid));
        }
        ZkRestore.Result kafka = segscopeKafkaPaths();
        System.out.printf("%n%s: %d znodes (segscope = ZooKeeper), last zxid 0x%x, snapshot %s, %d txns replayed; %d kept for zk-offsets, %d offsets%n",
                dir, ourNodes, ours.lastZxid(), ours.snapshot() == null ? "-" : ours.snapshot().file(), ours.applied(),
                kafka.tree().size(), ZkKafka.read(kafka.tree()).offsets().size());
    }

    /** The znodes ZooKeeper's tree reaches from the root. */
    private static int count(DataTree dt) {
        int n = 0;
        java.util.ArrayDeque<String> stack = new java.util.ArrayDeque<>(List.of("/"));
        while (!stack.isEmpty()) {
            String p = stack.pop();
            org.apache.zookeeper.server.DataNode node = dt.getNode(p);
            if (node == null) {
                continue;
            }
            n++;
            for (String c : node.getChildren()) {
                stack.push(p.equals("/") ? "/" + c : p + "/" + c);
            }
        }
        return n;
    }

    @Benchmark
    public DataTree zookeeper() throws IOException {
        FileTxnSnapLog snapLog = new FileTxnSnapLog(dir.toFile(), dir.toFile());
        try {
            DataTree dt = new DataTree();
            Map<Long, Integer> sessions = new ConcurrentHashMap<>();
            snapLog.restore(dt, sessions, (h, t, d) -> { });
            return dt;
        } finally {
            snapLog.close();
        }
    }

    @Benchmark
    public ZkRestore.Result segscopeAll() {
        return ZkRestore.restore(roots, new ZkRestore.Options(ZkPathFilter.ALL, -1, Long.MIN_VALUE, true));
    }

    @Benchmark
    public ZkRestore.Result segscopeKafkaPaths() {
        return ZkRestore.restore(roots, kafkaPaths);
    }
}
