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
 * java -Xmx512m -cp jmh/target/benchmarks.jar io.segscope.jmh.replay.OffsetsReplayMain segscope|kafka DIR [--once]
 * </pre>
 *
 * <p>With {@code --once}: one replay, nothing else (for peak RSS). Otherwise the retained heap is the used heap (MemoryMXBean, after {@code System.gc()} three times) with
 * the result of a second replay held, minus the used heap before it (after a first replay, thrown
 * away, so that class loading and static tables are not counted), divided by the committed offsets: the
 * live-key map and everything else the result keeps (group ids, topic names, groups, pending
 * offsets). Then the same with only the live-key map held ({@link #keyMap}).
 */
public final class OffsetsReplayMain {
    /** {@code -Dthreads=N}: segscope's replay threads (default: {@link OffsetsReplay#defaultThreads}). */
    private static final int THREADS = Integer.getInteger("threads", 0);

    private OffsetsReplayMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || !args[0].equals("segscope") && !args[0].equals("kafka")) {
            System.err.println("usage: OffsetsReplayMain segscope|kafka PARTITION_DIR [--once]");
            System.exit(2);
        }
        String side = args[0];
        Path dir = Path.of(args[1]);
        List<LogFile> files = OffsetsReplay.logFiles(dir);
        List<Path> paths = ReplayPartitions.paths(files);
        if (args.length > 2 && args[2].equals("--once")) {
            // one replay only, for peak RSS
            long t0 = System.nanoTime();
            Object held = replay(side, files, paths);
            int count = side.equals("segscope") ? ((ReplayResult) held).offsetCount()
                    : KafkaOffsetsLoad.committedOffsetCount((GroupCoordinatorShard) held);
            System.out.printf(Locale.ROOT, "%s: %d files, %d committed offsets, one replay %.2f s (max heap %d MiB)%n",
                    side, files.size(), count, (System.nanoTime() - t0) / 1e9, Runtime.getRuntime().maxMemory() >> 20);
            // peak and current resident set, anonymous (heap, JVM) and file-backed (mapped segments, jars)
            Path status = Path.of("/proc/self/status");
            if (java.nio.file.Files.isReadable(status)) {
                for (String line : java.nio.file.Files.readAllLines(status)) {
                    if (line.startsWith("VmHWM") || line.startsWith("VmRSS") || line.startsWith("RssAnon")
                            || line.startsWith("RssFile")) {
                        System.out.println(line.replaceAll("\\s+", " "));
                    }
                }
            }
            if (held.hashCode() == 42) {
                System.out.println();
            }
            return;
        }
        // a first replay, thrown away: classes loaded, static tables and caches filled before the baseline
        long w0 = System.nanoTime();
        replay(side, files, paths);
        long w1 = System.nanoTime();
        long before = usedAfterGc();
        long t0 = System.nanoTime();
        Object held = replay(side, files, paths);
        int count = side.equals("segscope") ? ((ReplayResult) held).offsetCount()
                : KafkaOffsetsLoad.committedOffsetCount((GroupCoordinatorShard) held);
        long t1 = System.nanoTime();
        long after = usedAfterGc();
        System.out.printf(Locale.ROOT, "%s: %d files, %d committed offsets, first replay %.2f s, second %.2f s, retained heap %.1f MiB,"
                        + " %.1f bytes per committed offset (max heap %d MiB)%n", side, files.size(), count,
                (w1 - w0) / 1e9, (t1 - t0) / 1e9, (after - before) / 1048576.0, (double) (after - before) / count,
                Runtime.getRuntime().maxMemory() >> 20);
        // the live-key map alone: drop everything else the result holds and measure again
        Object keyMap = keyMap(side, held);
        held = null;
        long keysOnly = usedAfterGc();
        System.out.printf(Locale.ROOT, "%s: live-key map %.1f MiB, %.1f bytes per committed offset%n", side,
                (keysOnly - before) / 1048576.0, (double) (keysOnly - before) / count);
        if (keyMap.hashCode() == 42) {
            System.out.println();
        }
    }

    private static Object replay(String side, List<LogFile> files, List<Path> paths) throws java.io.IOException {
        return switch (side) {
            case "segscope" -> OffsetsReplay.replay(files, AsOf.END, THREADS > 0 ? THREADS : OffsetsReplay.defaultThreads(files));
            case "kafka" -> KafkaOffsetsLoad.load(paths);
            default -> throw new IllegalArgumentException("segscope or kafka: " + side);
        };
    }

    /**
     * The live-key map: segscope's {@code OffsetTable} with the two string tables its keys index
     * (group ids, topic names); Kafka's {@code OffsetMetadataManager.Offsets.offsetsByGroup} timeline
     * map (group, topic, partition to {@code OffsetAndMetadata}; it also holds the snapshot registry).
     */
    static Object keyMap(String side, Object held) throws ReflectiveOperationException {
        if (side.equals("segscope")) {
            // every shard's (a replay on several threads keeps each group in one shard)
            List<Object> maps = new java.util.ArrayList<>();
            for (Object replay : (List<?>) field(held.getClass(), "shards").get(held)) {
                maps.add(new Object[] {field(replay.getClass(), "offsets").get(replay),
                    field(replay.getClass(), "groupIds").get(replay), field(replay.getClass(), "topics").get(replay)});
            }
            return maps;
        }
        Object om = field(GroupCoordinatorShard.class, "offsetMetadataManager").get(held);
        Object offsets = field(om.getClass(), "offsets").get(om);
        return field(offsets.getClass(), "offsetsByGroup").get(offsets);
    }

    private static java.lang.reflect.Field field(Class<?> c, String name) throws NoSuchFieldException {
        java.lang.reflect.Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
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
