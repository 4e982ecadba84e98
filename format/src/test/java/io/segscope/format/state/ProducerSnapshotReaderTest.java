package io.segscope.format.state;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.testkit.Gen;
import io.segscope.testkit.Tries;
import org.apache.kafka.storage.internals.log.ProducerStateEntry;
import org.apache.kafka.storage.internals.log.ProducerStateManager;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link ProducerSnapshotReader} against {@code ProducerStateManager.writeSnapshot/readSnapshot} of Kafka 4.4.0. */
class ProducerSnapshotReaderTest {
    @TempDir
    Path tmp;

    /** {@code ProducerStateEntry.addBatch} is package-private in Kafka; the test reaches it reflectively. */
    private static final Method ADD_BATCH;

    static {
        try {
            ADD_BATCH = ProducerStateEntry.class.getDeclaredMethod("addBatch", short.class, int.class, long.class, int.class, long.class);
            ADD_BATCH.setAccessible(true);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static ProducerStateEntry entry(long pid, short epoch, int coordinatorEpoch, long ts, long txnFirst, int[][] batches) {
        ProducerStateEntry e = new ProducerStateEntry(pid, epoch, coordinatorEpoch, ts,
                txnFirst >= 0 ? OptionalLong.of(txnFirst) : OptionalLong.empty());
        long lastOffset = 100;
        int lastSeq = 0;
        for (int[] b : batches) {
            lastOffset += b[0] + 1;
            lastSeq += b[0] + 1;
            try {
                ADD_BATCH.invoke(e, epoch, lastSeq, lastOffset, b[0], ts + b[1]);
            } catch (ReflectiveOperationException x) {
                throw new IllegalStateException(x);
            }
        }
        return e;
    }

    private Path write(String name, Map<Long, ProducerStateEntry> entries) throws IOException {
        Path file = tmp.resolve(name);
        ProducerStateManager.writeSnapshot(file.toFile(), entries, false);
        return file;
    }

    private static ProducerSnapshotReader read(byte[] bytes) {
        return new ProducerSnapshotReader().wrap(ByteSource.wrap(ByteBuffer.wrap(bytes), "s.snapshot"));
    }

    @Test
    void idempotentAndTransactionalProducersMatchKafka() throws Exception {
        Map<Long, ProducerStateEntry> m = new LinkedHashMap<>();
        m.put(1000L, entry(1000L, (short) 0, -1, 1_764_460_800_000L, -1, new int[][] {{4, 1}, {9, 2}}));
        m.put(2000L, entry(2000L, (short) 3, 0, 1_764_460_900_000L, -1, new int[0][]));   // marker state only
        m.put(3000L, entry(3000L, (short) 7, 5, 1_764_461_000_000L, 470, new int[][] {{0, 0}}));
        Path file = write("00000000000000000512.snapshot", m);
        assertThat(Files.size(file)).isEqualTo(10 + 46 * 3);
        assertThat(KafkaStateOracle.assertSnapshotMatchesKafka(file)).isEqualTo(3);
        ProducerSnapshotReader r = read(Files.readAllBytes(file));
        assertThat(r.version()).isEqualTo((short) 1);
        assertThat(r.isCrcValid()).isTrue();
        assertThat(r.findings()).isEmpty();
        assertThat(r.entry(0)).isEqualTo(new ProducerSnapshotEntry(1000L, (short) 0, 15, 115, 9, 1_764_460_800_002L, -1, -1));
        assertThat(r.entry(1)).isEqualTo(new ProducerSnapshotEntry(2000L, (short) 3, -1, -1, 0, 1_764_460_900_000L, 0, -1));
        assertThat(r.currentTxnFirstOffset(2)).isEqualTo(470);
    }

    /** From a stream (an archive entry) with a window far smaller than the file, the reader sees every byte. */
    @Test
    void readsFromAStreamWithASmallWindow() throws Exception {
        Map<Long, ProducerStateEntry> m = new LinkedHashMap<>();
        for (long pid = 0; pid < 300; pid++) {
            m.put(pid, entry(pid, (short) 1, -1, 5L + pid, -1, new int[][] {{2, 1}}));
        }
        byte[] bytes = Files.readAllBytes(write("big.snapshot", m));
        ProducerSnapshotReader streamed = new ProducerSnapshotReader().wrap(
                new io.segscope.format.io.StreamSource(new java.io.ByteArrayInputStream(bytes), "big.snapshot", 100));
        assertThat(streamed.count()).isEqualTo(300);
        assertThat(streamed.isCrcValid()).isTrue();
        assertThat(streamed.entries()).isEqualTo(read(bytes).entries());
    }

    @Test
    void emptySnapshotIsTenBytes() throws Exception {
        Path file = write("e.snapshot", Map.of());
        assertThat(Files.size(file)).isEqualTo(10);
        assertThat(KafkaStateOracle.assertSnapshotMatchesKafka(file)).isZero();
    }

    @Test
    void badCrcIsCheckedOnDemand() throws Exception {
        Map<Long, ProducerStateEntry> m = new LinkedHashMap<>();
        m.put(1L, entry(1L, (short) 0, -1, 5L, -1, new int[][] {{1, 1}}));
        Path file = write("c.snapshot", m);
        byte[] bytes = Files.readAllBytes(file);
        bytes[30] ^= 0x40;
        Files.write(file, bytes);
        assertThat(KafkaStateOracle.assertSnapshotMatchesKafka(file)).isEqualTo(-1);
        ProducerSnapshotReader r = read(bytes);   // wrap succeeds: the structure is fine
        assertThat(r.isCrcValid()).isFalse();
        assertThatThrownBy(r::verifyCrc).isInstanceOfSatisfying(FormatException.class, e -> {
            assertThat(e.violation()).isEqualTo(Violation.CRC_MISMATCH);
            assertThat(e.position()).isEqualTo(2);
            assertThat(e.field()).isEqualTo("crc");
        });
        assertThat(r.findings()).extracting(FormatException::violation).containsExactly(Violation.CRC_MISMATCH);
    }

    @Test
    void truncatedSnapshot() throws Exception {
        Map<Long, ProducerStateEntry> m = new LinkedHashMap<>();
        m.put(1L, entry(1L, (short) 0, -1, 5L, -1, new int[][] {{1, 1}}));
        m.put(2L, entry(2L, (short) 0, -1, 5L, -1, new int[0][]));
        Path file = write("t.snapshot", m);
        byte[] whole = Files.readAllBytes(file);
        for (int cut : new int[] {0, 1, 4, 8, 10, 40, 56, 70, 101}) {
            byte[] bytes = Arrays.copyOf(whole, cut);
            Path f = Files.write(tmp.resolve("t" + cut + ".snapshot"), bytes);
            assertThat(KafkaStateOracle.assertSnapshotMatchesKafka(f)).as("cut at %d", cut).isEqualTo(-1);
            assertThatThrownBy(() -> read(bytes)).isInstanceOfSatisfying(FormatException.class, e -> {
                assertThat(e.violation()).isEqualTo(Violation.TRUNCATED);
                long expected = cut < 2 ? 0 : cut < 6 ? 2 : cut < 10 ? 6 : cut < 56 ? 10 : 56;
                assertThat(e.position()).as("cut at %d", cut).isEqualTo(expected);
            });
        }
    }

    @Test
    void unknownVersionAndNegativeCount() throws Exception {
        Path file = write("v.snapshot", Map.of());
        byte[] bytes = Files.readAllBytes(file);
        bytes[1] = 2;
        Path f = Files.write(tmp.resolve("v2.snapshot"), bytes);
        assertThat(KafkaStateOracle.assertSnapshotMatchesKafka(f)).isEqualTo(-1);
        assertThatThrownBy(() -> read(bytes)).isInstanceOfSatisfying(FormatException.class, e -> {
            assertThat(e.violation()).isEqualTo(Violation.SNAPSHOT_VERSION);
            assertThat(e.position()).isZero();
            assertThat(e.actual()).isEqualTo("2");
        });
        byte[] neg = Files.readAllBytes(file);
        ByteBuffer.wrap(neg).putInt(6, -1);
        Path g = Files.write(tmp.resolve("n.snapshot"), neg);
        assertThat(KafkaStateOracle.assertSnapshotMatchesKafka(g)).isEqualTo(-1);
        assertThatThrownBy(() -> read(neg)).isInstanceOfSatisfying(FormatException.class, e -> {
            assertThat(e.violation()).isEqualTo(Violation.SNAPSHOT_SIZE);
            assertThat(e.position()).isEqualTo(6);
        });
    }

    /** Bytes after the last entry, covered by a correct CRC: Kafka accepts the file, segscope reports the bytes. */
    @Test
    void trailingBytesWithAValidCrc() throws Exception {
        Map<Long, ProducerStateEntry> m = new LinkedHashMap<>();
        m.put(1L, entry(1L, (short) 0, -1, 5L, -1, new int[][] {{1, 1}}));
        Path file = write("x.snapshot", m);
        byte[] bytes = Arrays.copyOf(Files.readAllBytes(file), 10 + 46 + 3);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bytes, 6, bytes.length - 6);
        ByteBuffer.wrap(bytes).putInt(2, (int) crc.getValue());
        Path f = Files.write(tmp.resolve("x3.snapshot"), bytes);
        assertThat(KafkaStateOracle.assertSnapshotMatchesKafka(f)).isEqualTo(1);
        ProducerSnapshotReader r = read(bytes);
        assertThat(r.trailingBytes()).isEqualTo(3);
        assertThat(r.findings()).singleElement().satisfies(e -> {
            assertThat(e.violation()).isEqualTo(Violation.SNAPSHOT_SIZE);
            assertThat(e.position()).isEqualTo(56);
        });
    }

    /** Producers, unique by id: {pid, epoch, coordinatorEpoch, timestamp, txnFirstOffset, batches, sequence delta}. */
    static List<long[]> producers(Gen gen) {
        return gen.uniqueList(0, 40, g -> new long[] {g.longBetween(0, Long.MAX_VALUE), g.intBetween(0, Short.MAX_VALUE),
                g.intBetween(-1, 1000), g.longBetween(-1, 2_000_000_000_000L), g.longBetween(-1, 1_000_000),
                g.intBetween(0, 4), g.intBetween(0, 50)}, a -> a[0]);
    }

    /** Random producer maps written by Kafka: same entries, CRC valid, no findings. */
    @TestFactory
    Stream<DynamicTest> snapshotsWrittenByKafkaReadTheSame() {
        return Tries.of(1234567, 200, gen -> snapshotsWrittenByKafkaReadTheSame(producers(gen)));
    }

    private static void snapshotsWrittenByKafkaReadTheSame(List<long[]> spec) throws Exception {
        Path dir = Files.createTempDirectory("segscope-snapshot");
        try {
            Map<Long, ProducerStateEntry> m = new LinkedHashMap<>();
            for (long[] s : spec) {
                int[][] batches = new int[(int) s[5]][];
                for (int b = 0; b < batches.length; b++) {
                    batches[b] = new int[] {(int) s[6] + b, b};
                }
                m.put(s[0], entry(s[0], (short) s[1], (int) s[2], s[3], s[4], batches));
            }
            Path file = dir.resolve("00000000000000000000.snapshot");
            ProducerStateManager.writeSnapshot(file.toFile(), m, false);
            assertThat(KafkaStateOracle.assertSnapshotMatchesKafka(file)).isEqualTo(spec.size());
            ProducerSnapshotReader r = read(Files.readAllBytes(file));
            assertThat(r.findings()).isEmpty();
            assertThat(r.count()).isEqualTo(spec.size());
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Any single flipped byte or cut: segscope refuses the file exactly when Kafka does. */
    @TestFactory
    Stream<DynamicTest> damagedSnapshotsAreRefusedLikeKafka() {
        return Tries.of(31337, 200, gen -> damagedSnapshotsAreRefusedLikeKafka(producers(gen), gen.anyInt(), gen.anyByte(), gen.bool()));
    }

    private static void damagedSnapshotsAreRefusedLikeKafka(List<long[]> spec, int where, byte xor, boolean cut) throws Exception {
        Path dir = Files.createTempDirectory("segscope-snapshot");
        try {
            Map<Long, ProducerStateEntry> m = new LinkedHashMap<>();
            for (long[] s : spec) {
                m.put(s[0], entry(s[0], (short) s[1], (int) s[2], s[3], s[4], new int[][] {{(int) s[6], 0}}));
            }
            Path file = dir.resolve("00000000000000000000.snapshot");
            ProducerStateManager.writeSnapshot(file.toFile(), m, false);
            byte[] bytes = Files.readAllBytes(file);
            int at = Math.floorMod(where, bytes.length);
            if (cut) {
                bytes = Arrays.copyOf(bytes, at);
            } else {
                bytes[at] ^= (xor == 0 ? 1 : xor);
            }
            Files.write(file, bytes);
            KafkaStateOracle.assertSnapshotMatchesKafka(file);
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
