package io.segscope.format.salvage;

import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.record.ReaderOptions;
import io.segscope.testdata.Corpus;
import io.segscope.testkit.Tries;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka 4.4.0's {@code UnifiedLog} is the oracle of salvage: a salvaged copy loads with every
 * segment recovered and nothing truncated; every batch it holds is a byte-for-byte copy of a batch
 * of the input; the indexes and {@code .txnindex} files Kafka's recovery rewrites are the ones
 * segscope wrote; the producer state Kafka reads from segscope's snapshot (a clean start) is the one
 * its recovery rebuilds from the batches; the leader epochs are the ones recovery assigns. Run on
 * every case of the corruption catalogue, every partition of every corpus run (undamaged: nothing
 * may be lost), and seeded random damage of corpus partitions.
 */
class SalvageKafkaTest {
    private static final Pattern PARTITION_DIR = Pattern.compile(".+-\\d+");

    @TestFactory
    Stream<DynamicTest> corruptionCatalogue(@TempDir Path tmp) throws IOException {
        List<Path> dirs = partitionDirs(Corpus.resolve("corrupt"), 2);
        assertThat(dirs).hasSizeGreaterThanOrEqualTo(15);
        return dirs.stream().map(d -> DynamicTest.dynamicTest(Corpus.testdata().relativize(d).toString(),
                () -> check(d, tmp.resolve(d.getParent().getFileName().toString()))));
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusPartition(@TempDir Path tmp) throws IOException {
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> runs = Files.list(Corpus.corpus())) {
            for (Path run : runs.sorted().toList()) {
                dirs.addAll(partitionDirs(run.resolve("logdir"), 1));
            }
        }
        assertThat(dirs).hasSizeGreaterThan(100);
        return dirs.stream().map(d -> DynamicTest.dynamicTest(Corpus.testdata().relativize(d).toString(), () -> {
            Path out = tmp.resolve(d.getParent().getParent().getFileName() + "-" + d.getFileName());
            SalvagedPartition p = check(d, out);
            assertThat(p.losses()).as("an undamaged partition loses nothing").isEmpty();
            assertThat(p.keptBatches()).isEqualTo(kafkaBatches(d));
        }));
    }

    /** Corpus partitions with transactions, codecs, legacy magics and coordinator records, damaged at random. */
    @TestFactory
    Stream<DynamicTest> randomDamage(@TempDir Path tmp) {
        List<Path> sources = List.of(
                Corpus.resolve("corpus/kraft-4.4.0-plain/logdir/txn-orders-0"),
                Corpus.resolve("corpus/kraft-4.4.0-compressed/logdir/codec-zstd-0"),
                Corpus.resolve("corpus/kraft-4.4.0-crashed/logdir/txn-orders-0"),
                Corpus.resolve("corpus/legacy-3.9.1-ibp0.10.2-gzip/logdir/legacy-gzip-0"),
                Corpus.resolve("synthetic/logdir/__consumer_offsets-0"));
        return Tries.of(0x5a1_7a6eL, 40, gen -> {
            long seed = gen.seed();
            Random r = gen.random();
            Path source = sources.get(r.nextInt(sources.size()));
            Path work = tmp.resolve("in-" + Long.toHexString(seed)).resolve(source.getFileName());
            KafkaLoad.copy(source, work);
            List<Path> logs = new ArrayList<>();
            try (Stream<Path> s = Files.list(work)) {
                s.filter(f -> f.toString().endsWith(".log") && f.toFile().length() > 0).sorted().forEach(logs::add);
            }
            Path log = logs.get(r.nextInt(logs.size()));
            byte[] bytes = Files.readAllBytes(log);
            Files.write(log, damage(bytes, r));
            SalvagedPartition p = check(work, tmp.resolve("out-" + Long.toHexString(seed)));
            assertThat(p.keptBytes() + p.lostBytes()).as("every byte kept or listed as lost")
                    .isLessThanOrEqualTo(totalLogBytes(work));
        });
    }

    /** A synthetic damage: bytes flipped, a range zeroed or overwritten, bytes inserted or removed, a cut. */
    private static byte[] damage(byte[] b, Random r) {
        int n = b.length;
        int at = r.nextInt(n);
        int len = 1 + r.nextInt(Math.max(1, Math.min(2000, n - at)));
        switch (r.nextInt(5)) {
            case 0 -> {
                for (int i = 0; i < 1 + r.nextInt(4); i++) {
                    b[r.nextInt(n)] ^= (byte) (1 + r.nextInt(255));
                }
                return b;
            }
            case 1 -> {
                Arrays.fill(b, at, Math.min(n, at + len), (byte) 0);
                return b;
            }
            case 2 -> {
                byte[] junk = new byte[len];
                r.nextBytes(junk);
                byte[] out = new byte[n + len];
                System.arraycopy(b, 0, out, 0, at);
                System.arraycopy(junk, 0, out, at, len);
                System.arraycopy(b, at, out, at + len, n - at);
                return out;
            }
            case 3 -> {
                int end = Math.min(n, at + len);
                byte[] out = new byte[n - (end - at)];
                System.arraycopy(b, 0, out, 0, at);
                System.arraycopy(b, end, out, at, n - end);
                return out;
            }
            default -> {
                return Arrays.copyOf(b, at);
            }
        }
    }

    /** The torn tail of the catalogue is cut; the offsets and bytes lost are the catalogue's. */
    @Test
    void tornTailCut(@TempDir Path tmp) throws IOException {
        SalvagedPartition p = check(Corpus.resolve("corrupt/truncated-mid-batch/__consumer_offsets-0"), tmp.resolve("o"));
        assertThat(p.losses()).singleElement().satisfies(l -> {
            assertThat(l.kind()).isEqualTo("torn-tail");
            assertThat(l.fromByte()).isEqualTo(3229);
            assertThat(l.toByte()).isEqualTo(3311);
            assertThat(l.firstOffset()).isEqualTo(22);
            assertThat(l.lastOffset()).isEqualTo(24);
        });
        assertThat(p.logEndOffset()).isEqualTo(22);
    }

    /** Damage in the middle: skipped, every batch after it kept (Kafka's own recovery would truncate them all). */
    @Test
    void middleDamageKeepsWhatFollows(@TempDir Path tmp) throws IOException {
        Path in = Corpus.resolve("corrupt/mid-segment-damage/__consumer_offsets-0");
        SalvagedPartition p = check(in, tmp.resolve("o"));
        assertThat(p.losses()).singleElement().satisfies(l -> {
            assertThat(l.fromByte()).isEqualTo(667);
            assertThat(l.toByte()).isEqualTo(1530);
            assertThat(l.firstOffset()).isEqualTo(5);
            assertThat(l.lastOffset()).isEqualTo(11);
        });
        Path copy = tmp.resolve("original/__consumer_offsets-0");
        KafkaLoad.copy(in, copy);
        KafkaLoad kafka = KafkaLoad.load(copy, 0, 0);
        assertThat(kafka.logEndOffset()).as("Kafka's recovery of the original stops at the damage").isEqualTo(5);
        assertThat(p.logEndOffset()).isEqualTo(25);
    }

    /**
     * The real torn tail of the corpus: a partition dir copied file by file while a 4.4.0 broker wrote
     * to it. Salvage cuts exactly what verify names; Kafka's recovery of the copy truncates at the same byte.
     */
    @Test
    void copiedWhileWriting(@TempDir Path tmp) throws IOException {
        Path copy = Corpus.resolve("corpus/kraft-4.4.0-killed-mid-write/copied-while-writing");
        List<Path> dirs = partitionDirs(copy, 1);
        assertThat(dirs).extracting(d -> d.getFileName().toString()).contains("burst-0", "__consumer_offsets-2");
        for (Path d : dirs) {
            SalvagedPartition p = check(d, tmp.resolve(d.getFileName().toString()));
            if (d.getFileName().toString().equals("burst-0")) {
                assertThat(p.losses()).singleElement().satisfies(l -> {
                    assertThat(l.kind()).isEqualTo("torn-tail");
                    assertThat(l.file()).endsWith("00000000000000007604.log");
                    assertThat(l.fromByte()).isEqualTo(224003);
                    assertThat(l.bytes()).isEqualTo(38141);
                    assertThat(l.firstOffset()).isEqualTo(7644);
                    assertThat(l.lastOffset()).isEqualTo(7789);
                });
                assertThat(p.logEndOffset()).isEqualTo(7644);
            }
        }
    }

    /**
     * An aborted transaction whose only data batch is damaged: its ABORT marker is kept with no
     * transaction open, and Kafka 4.4.0's recovery then completes none (no {@code .txnindex} entry),
     * as the copy's rebuilt index says.
     */
    @Test
    void anAbortMarkerWhoseDataIsLost(@TempDir Path tmp) throws IOException {
        Path in = tmp.resolve("in/txn-orders-0");
        KafkaLoad.copy(Corpus.resolve("corpus/kraft-4.4.0-plain/logdir/txn-orders-0"), in);
        Path log = in.resolve("00000000000000000000.log");
        byte[] bytes = Files.readAllBytes(log);
        assertThat(ByteBuffer.wrap(bytes).getLong(612)).as("the aborted batch of offsets 7..8").isEqualTo(7);
        bytes[700] ^= 0x5a;
        Files.write(log, bytes);
        SalvagedPartition p = check(in, tmp.resolve("out"));
        assertThat(p.losses()).singleElement().satisfies(l -> {
            assertThat(l.fromByte()).isEqualTo(612);
            assertThat(l.toByte()).isEqualTo(915);
            assertThat(l.firstOffset()).isEqualTo(7);
            assertThat(l.lastOffset()).isEqualTo(8);
        });
    }

    /** Salvages {@code input} into {@code out} and checks the copy against Kafka's loading of it. */
    static SalvagedPartition check(Path input, Path out) throws IOException {
        SalvagedPartition p;
        Path salvaged;
        try (SalvageOutput o = SalvageOutput.open(out, false, List.of(input))) {
            p = o.salvage(new Salvager(ReaderOptions.defaults()), PartitionDir.of(FileEntry.of(input)), null);
            salvaged = o.finish().get(0);
        }
        assertThat(salvaged).isDirectory();

        // every batch a byte-for-byte copy of one of the input's segment of the same base offset
        Map<Long, Integer> sizes = new TreeMap<>();
        long batches = 0;
        long bytes = 0;
        for (SalvagedPartition.SegmentOut s : p.segments()) {
            String name = String.format("%020d.log", s.baseOffset());
            Path log = salvaged.resolve(name);
            sizes.put(s.baseOffset(), (int) Files.size(log));
            byte[] original = Files.readAllBytes(input.resolve(name));
            try (FileRecords records = FileRecords.open(log.toFile(), false, false, 0, false)) {
                long n = 0;
                for (RecordBatch b : records.batches()) {
                    b.ensureValid();
                    ByteBuffer copy = ByteBuffer.allocate(b.sizeInBytes());
                    b.writeTo(copy);
                    assertThat(indexOf(original, copy.array())).as("batch at %d of %s is in the input", b.baseOffset(), name)
                            .isGreaterThanOrEqualTo(0);
                    n++;
                    bytes += b.sizeInBytes();
                }
                assertThat(n).isEqualTo(s.batches());
                batches += n;
            }
        }
        assertThat(batches).isEqualTo(p.keptBatches());
        assertThat(bytes).isEqualTo(p.keptBytes());

        // recovered by Kafka from nothing: nothing truncated, the same indexes, epochs and aborted transactions
        long logStart = p.segments().isEmpty() ? 0 : p.segments().get(0).baseOffset();
        Path recovered = out.resolveSibling(out.getFileName() + "-recovered").resolve(salvaged.getFileName());
        KafkaLoad.copy(salvaged, recovered);
        try (Stream<Path> s = Files.list(recovered)) {
            for (Path f : s.toList()) {
                if (f.toString().endsWith(".snapshot") || f.getFileName().toString().equals("leader-epoch-checkpoint")) {
                    Files.delete(f);
                }
            }
        }
        KafkaLoad kafka = KafkaLoad.load(recovered, logStart, 0);
        assertThat(kafka.segmentSizes()).as("Kafka truncates nothing").isEqualTo(p.segments().isEmpty() ? kafka.segmentSizes() : sizes);
        assertThat(kafka.logEndOffset()).isEqualTo(p.logEndOffset());
        assertThat(kafka.batches()).hasSize((int) p.keptBatches());
        List<String> ours = new ArrayList<>();
        p.epochs().forEach(e -> ours.add(e.epoch() + " " + e.startOffset()));
        assertThat(ours).as("leader epochs").isEqualTo(kafka.epochs());
        for (SalvagedPartition.SegmentOut s : p.segments()) {
            String base = String.format("%020d", s.baseOffset());
            for (String suffix : List.of(".index", ".timeindex")) {
                // Kafka leaves the active segment's indexes at their preallocated size: zeros after the entries
                byte[] kafkaIndex = Files.readAllBytes(recovered.resolve(base + suffix));
                byte[] ourIndex = Files.readAllBytes(salvaged.resolve(base + suffix));
                assertThat(kafkaIndex.length).as(base + suffix).isGreaterThanOrEqualTo(ourIndex.length);
                assertThat(Arrays.copyOf(kafkaIndex, ourIndex.length)).as(base + suffix).isEqualTo(ourIndex);
                int nonZero = -1;
                for (int i = ourIndex.length; i < kafkaIndex.length && nonZero < 0; i++) {
                    nonZero = kafkaIndex[i] != 0 ? i : -1;
                }
                assertThat(nonZero).as(base + suffix + ": a non-zero byte after its entries").isEqualTo(-1);
            }
            Path txn = salvaged.resolve(base + ".txnindex");
            Path kafkaTxn = recovered.resolve(base + ".txnindex");
            byte[] kafkaTxnBytes = Files.exists(kafkaTxn) ? Files.readAllBytes(kafkaTxn) : new byte[0];
            assertThat(Files.exists(txn) ? Files.readAllBytes(txn) : new byte[0]).as(base + ".txnindex").isEqualTo(kafkaTxnBytes);
        }

        // started cleanly from segscope's snapshot: the producer state recovery rebuilt
        Path clean = out.resolveSibling(out.getFileName() + "-clean").resolve(salvaged.getFileName());
        KafkaLoad.copy(salvaged, clean);
        KafkaLoad fromSnapshot = KafkaLoad.load(clean, logStart, p.logEndOffset(), true);
        assertThat(fromSnapshot.producers()).as("producers from the snapshot").isEqualTo(kafka.producers());
        assertThat(fromSnapshot.producers()).hasSize(p.producers());
        assertThat(fromSnapshot.logEndOffset()).isEqualTo(p.logEndOffset());
        assertThat(fromSnapshot.epochs()).isEqualTo(kafka.epochs());
        return p;
    }

    private static long kafkaBatches(Path dir) throws IOException {
        long n = 0;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.filter(f -> f.toString().endsWith(".log")).toList()) {
                try (FileRecords records = FileRecords.open(f.toFile(), false, false, 0, false)) {
                    for (RecordBatch b : records.batches()) {
                        n++;
                    }
                }
            }
        }
        return n;
    }

    private static long totalLogBytes(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.toString().endsWith(".log")).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    private static List<Path> partitionDirs(Path root, int depth) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(root, depth)) {
            return s.filter(Files::isDirectory).filter(d -> PARTITION_DIR.matcher(d.getFileName().toString()).matches())
                    .filter(d -> !d.equals(root)).sorted().toList();
        }
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
