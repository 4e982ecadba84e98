package io.segscope.format.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.error.Problem;
import io.segscope.format.logdir.LogFile;
import io.segscope.testkit.Tries;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay on several threads (groups split into shards by id) gives exactly what one thread
 * gives: offsets with their provenance, pending offsets, open transactions, groups with their
 * members, problems in log order, skipped types, counts and expirations; on seeded random logs
 * (cut at a random offset too, and damaged), and on every corpus partition.
 */
class ShardedReplayTest {
    private static final int[] THREADS = {2, 3, 7};

    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> shardsGiveWhatOneThreadGives() {
        return Tries.of(0x5a4dL, 200, gen -> {
            RandomOffsetsLog log = new RandomOffsetsLog(gen);
            int n = log.events.size();
            List<LogFile> files = log.write(Files.createTempDirectory(tmp, "log"), n);
            AsOf cut = gen.bool() ? AsOf.END : AsOf.endOffset(gen.intBetween(0, n));
            String one = describe(OffsetsReplay.replay(files, cut, 1));
            for (int k : THREADS) {
                assertThat(describe(OffsetsReplay.replay(files, cut, k))).as("%d threads", k).isEqualTo(one);
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> damagedLogs() {
        return Tries.of(0xda3aL, 100, gen -> {
            RandomOffsetsLog log = new RandomOffsetsLog(gen);
            List<LogFile> files = log.write(Files.createTempDirectory(tmp, "log"), log.events.size());
            Path path = Path.of(files.get(0).path());
            long size = Files.size(path);
            if (size > 0) {
                try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    for (int i = gen.intBetween(1, 3); i > 0; i--) {
                        long at = gen.longBetween(0, size - 1);
                        ByteBuffer b = ByteBuffer.allocate(1);
                        ch.read(b, at);
                        b.put(0, (byte) (b.get(0) ^ (1 << gen.intBetween(0, 7)))).rewind();
                        ch.write(b, at);
                    }
                    if (gen.bool()) {
                        ch.truncate(gen.longBetween(0, size));
                    }
                }
            }
            String one = describe(OffsetsReplay.replay(files, AsOf.END, 1));
            for (int k : THREADS) {
                assertThat(describe(OffsetsReplay.replay(files, AsOf.END, k))).as("%d threads", k).isEqualTo(one);
            }
        });
    }

    @Test
    void everyCorpusPartition() throws IOException {
        int partitions = 0;
        int withOffsets = 0;
        for (Path run : CorpusReplayTest.runs()) {
            try (Stream<Path> s = Files.list(run.resolve("logdir"))) {
                for (Path p : s.filter(p -> p.getFileName().toString().startsWith("__consumer_offsets-")).sorted().toList()) {
                    List<LogFile> files = OffsetsReplay.logFiles(p);
                    ReplayResult single = OffsetsReplay.replay(files, AsOf.END, 1);
                    String one = describe(single);
                    assertThat(describe(OffsetsReplay.replay(files, AsOf.END, 4))).as(p.toString()).isEqualTo(one);
                    partitions++;
                    withOffsets += single.offsetCount() > 0 ? 1 : 0;
                }
            }
        }
        assertThat(partitions).isGreaterThan(100);
        assertThat(withOffsets).isGreaterThan(40);
    }

    @Test
    void shardOfAKeyIsShardOfItsGroup() {
        for (String group : RandomOffsetsLog.GROUPS) {
            byte[] id = group.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ByteBuffer key = ByteBuffer.allocate(4 + id.length + 10);
            key.putShort((short) 1).putShort((short) id.length).put(id);
            for (int k : THREADS) {
                assertThat(OffsetsReplay.shardOf(key, 0, key.capacity(), k)).isEqualTo(OffsetsReplay.shardOf(group, k));
            }
        }
        // keys that hold no group id: shard 0
        assertThat(OffsetsReplay.shardOf(null, 0, -1, 3)).isZero();
        assertThat(OffsetsReplay.shardOf(ByteBuffer.wrap(new byte[] {0, 1, 0, 9, 65}), 0, 5, 3)).isZero();
        assertThat(OffsetsReplay.shardOf(ByteBuffer.wrap(new byte[] {0, 1, -1, -1}), 0, 4, 3)).isZero();
    }

    /** Everything a result tells, as text. */
    static String describe(ReplayResult r) {
        List<String> out = new ArrayList<>();
        out.add("records " + r.records() + " batches " + r.batches() + " next " + r.nextOffset() + " last "
                + r.lastBatchTimestamp() + " stopped " + r.stopped() + " count " + r.offsetCount());
        for (CommittedOffset o : r.offsets()) {
            out.add("offset " + o);
            assertThat(r.offset(o.group(), o.topic(), o.partition())).isEqualTo(o);
        }
        r.groups().keySet().forEach(g -> out.add("group-offsets " + g + " " + r.offsets(g)));
        r.pendingOffsets().forEach(o -> out.add("pending " + o));
        out.add("open " + new java.util.TreeSet<>(r.openTransactions()));
        r.groups().forEach((id, g) -> {
            out.add("group " + id + " " + g.type() + " " + g.state() + " " + g.members().keySet() + " " + g.lastRecord());
            assertThat(r.group(id)).isSameAs(g);
        });
        for (Problem p : r.problems()) {
            out.add("problem " + p.message());
        }
        out.add("skipped " + r.skippedRecordTypes());
        r.expiredOffsets(1000, Long.MAX_VALUE / 2).forEach(e -> out.add("expired " + e));
        return String.join("\n", out);
    }
}
