package io.segscope.jmh.replay;

import io.segscope.format.logdir.LogFile;
import io.segscope.format.replay.AsOf;
import io.segscope.format.replay.OffsetsReplay;
import io.segscope.format.replay.ReplayResult;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.coordinator.group.GroupCoordinatorShard;

/**
 * One replay of a {@code __consumer_offsets} partition dir, for peak RSS under
 * {@code /usr/bin/time -v} and the retained heap per committed offset:
 *
 * <pre>
 * java -Xmx512m -cp jmh/target/benchmarks.jar io.segscope.jmh.replay.OffsetsReplayMain segscope|kafka DIR
 * </pre>
 *
 * <p>The retained heap is the used heap (MemoryMXBean, after {@code System.gc()} three times) with
 * the result held, minus the used heap before the replay, divided by the committed offsets: the
 * live-key map and everything else the result keeps (group ids, topic names, groups).
 */
public final class OffsetsReplayMain {
    private OffsetsReplayMain() {
    }

    public static void main(String[] args) throws Exception {
        String side = args[0];
        Path dir = Path.of(args[1]);
        List<LogFile> files = OffsetsReplay.logFiles(dir);
        List<Path> paths = ReplayPartitions.paths(files);
        // load the classes of both sides before the baseline
        Class.forName(GroupCoordinatorShard.class.getName());
        long before = usedAfterGc();
        long t0 = System.nanoTime();
        Object held;
        int count;
        if (side.equals("segscope")) {
            ReplayResult r = OffsetsReplay.replay(files, AsOf.END);
            count = r.offsetCount();
            held = r;
        } else if (side.equals("kafka")) {
            GroupCoordinatorShard s = KafkaOffsetsLoad.load(paths);
            count = KafkaOffsetsLoad.committedOffsetCount(s);
            held = s;
        } else {
            throw new IllegalArgumentException("segscope or kafka: " + side);
        }
        long t1 = System.nanoTime();
        long after = usedAfterGc();
        System.out.printf(Locale.ROOT, "%s: %d files, %d committed offsets, replay %.2f s, retained heap %.1f MiB,"
                        + " %.1f bytes per committed offset (max heap %d MiB)%n", side, files.size(), count,
                (t1 - t0) / 1e9, (after - before) / 1048576.0, (double) (after - before) / count,
                Runtime.getRuntime().maxMemory() >> 20);
        if (held.hashCode() == 42) {
            System.out.println();
        }
    }

    private static long usedAfterGc() throws InterruptedException {
        MemoryMXBean mx = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return mx.getHeapMemoryUsage().getUsed();
    }
}
