package io.segscope.format.write;

import io.segscope.format.logdir.FileEntry;
import io.segscope.format.record.CompressionType;
import io.segscope.format.verify.Finding;
import io.segscope.format.verify.Severity;
import io.segscope.format.verify.Verifier;
import io.segscope.testkit.Gen;
import io.segscope.testkit.Tries;
import org.apache.kafka.common.message.AbortedTxn;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogSegment;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Random segments (batches of every codec from {@link BatchBuilder}, appended one or several at a
 * time, timestamps going up and down, index intervals from 0 to the default, aborted transactions)
 * written by {@link SegmentWriter} and by Kafka 4.4.0's {@code LogSegment} (open, append,
 * {@code onBecomeInactiveSegment} as the cleaner calls it, close): the same {@code .log},
 * {@code .index}, {@code .timeindex} and {@code .txnindex}, byte for byte; and segscope's
 * {@code verify} reads the output with no warning or error.
 */
class SegmentWriterKafkaTest {

    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> sameFilesAsKafkaLogSegment() {
        return Tries.of(0x5E65E6L, 100, gen -> {
            try {
                compare(gen);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private void compare(Gen gen) throws IOException {
        long baseOffset = gen.oneIn(3) ? 0 : gen.longBetween(0, 1L << 40);
        int interval = gen.choose(0, 1, 100, 1000, 4096, gen.intBetween(0, 20_000));
        BatchBuilder builder = new BatchBuilder();
        RecordHeaders headers = new RecordHeaders();
        List<List<ByteBuffer>> appends = new ArrayList<>();
        long next = baseOffset;
        int batches = gen.size(0, 60);
        List<ByteBuffer> group = new ArrayList<>();
        List<long[]> txns = new ArrayList<>();
        for (int i = 0; i < batches; i++) {
            KafkaBatches.Spec spec = KafkaBatches.spec(gen, gen.choose(CompressionType.values()), next);
            ByteBuffer built = KafkaBatches.segscope(builder, headers, spec);
            ByteBuffer copy = ByteBuffer.allocate(built.remaining()).put(built).flip();
            group.add(copy);
            if (spec.control() && spec.records().get(0).key()[3] == 0 && gen.bool()) {
                // an aborted transaction whose ABORT marker is this batch, as the cleaner keeps it
                long first = Math.max(baseOffset, spec.baseOffset() - gen.intBetween(0, 500));
                txns.add(new long[] {spec.producerId(), first, spec.lastOffset(), gen.longBetween(first, spec.lastOffset())});
            }
            next = spec.lastOffset() + 1 + (gen.oneIn(4) ? gen.intBetween(1, 50) : 0);
            if (gen.oneIn(3) || i == batches - 1) {
                appends.add(group);
                group = new ArrayList<>();
            }
        }

        Path ours = Files.createDirectories(tmp.resolve(gen.seed() + "/ours/topic-0"));
        Path input = Files.createDirectories(tmp.resolve(gen.seed() + "/input"));
        try (SegmentWriter w = SegmentWriter.open(ours, baseOffset, interval, List.of(input))) {
            for (List<ByteBuffer> a : appends) {
                w.append(concat(a));
            }
            for (long[] t : txns) {
                w.appendAbortedTxn(t[0], t[1], t[2], t[3]);
            }
        }

        Path theirs = Files.createDirectories(tmp.resolve(gen.seed() + "/kafka/topic-0"));
        LogSegment seg = LogSegment.open(theirs.toFile(), baseOffset,
                new LogConfig(Map.of("index.interval.bytes", interval)), Time.SYSTEM, 0, false);
        for (List<ByteBuffer> a : appends) {
            ByteBuffer all = concat(a);
            MemoryRecords records = MemoryRecords.readableRecords(all);
            long largest = -1;
            for (var b : records.batches()) {
                largest = b.lastOffset();
            }
            seg.append(largest, records);
        }
        for (long[] t : txns) {
            seg.txnIndex().append(new AbortedTxn().setProducerId(t[0]).setFirstOffset(t[1]).setLastOffset(t[2])
                    .setLastStableOffset(t[3]));
        }
        seg.onBecomeInactiveSegment();
        seg.close();

        String name = String.format("%020d", baseOffset);
        for (String ext : List.of(".log", ".index", ".timeindex", ".txnindex")) {
            Path k = theirs.resolve(name + ext);
            Path s = ours.resolve(name + ext);
            assertThat(Files.exists(s)).as(ext + " exists").isEqualTo(Files.exists(k));
            if (Files.exists(k)) {
                byte[] kb = Files.readAllBytes(k);
                byte[] sb = Files.readAllBytes(s);
                if (!Arrays.equals(kb, sb)) {
                    throw new AssertionError(ext + " differs (interval " + interval + "): Kafka " + kb.length + " bytes, segscope "
                            + sb.length + ", first difference at " + Arrays.mismatch(kb, sb));
                }
            }
        }
        if (interval == 0 && batches > 0) {
            // every batch after the first gets an entry: the counter is above 0 once a batch is in
            assertThat(Files.size(ours.resolve(name + ".index"))).isEqualTo(8L * (batches - 1));
        }
        try (Stream<Path> left = Files.list(ours)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(SegmentWriter.TEMP_SUFFIX));
        }
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(ours));
        assertThat(findings).allMatch(f -> f.severity() == Severity.INFO, "only INFO findings");
    }

    private static ByteBuffer concat(List<ByteBuffer> parts) {
        int n = 0;
        for (ByteBuffer p : parts) {
            n += p.remaining();
        }
        ByteBuffer out = ByteBuffer.allocate(n);
        for (ByteBuffer p : parts) {
            out.put(p.duplicate());
        }
        return out.flip();
    }

    @Test
    void closeGivesTheLastModifiedTimeAndAppendRefusesOtherMagics() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("mtime"));
        java.nio.file.attribute.FileTime t = java.nio.file.attribute.FileTime.fromMillis(1_600_000_000_000L);
        SegmentWriter w = SegmentWriter.open(dir, 0, 4096, List.of()).lastModified(t);
        BatchBuilder b = new BatchBuilder();
        b.begin(0, CompressionType.LZ4).append(0, 1000, null, new byte[] {1}, RecordHeaders.NONE);
        ByteBuffer batch = b.finish();
        // magic 0 and 1 entries are written too (salvaged legacy segments: SalvageKafkaTest); others are refused
        ByteBuffer unknown = ByteBuffer.allocate(batch.remaining()).put(batch.duplicate()).flip();
        unknown.put(16, (byte) 3);
        assertThatThrownBy(() -> w.append(unknown)).isInstanceOf(IllegalArgumentException.class);
        w.append(batch);
        assertThatThrownBy(() -> w.append(batch)).as("offsets go back").isInstanceOf(IllegalArgumentException.class);
        assertThat(w.size()).isEqualTo(batch.remaining());
        w.close();
        for (String ext : List.of(".log", ".index", ".timeindex")) {
            assertThat(Files.getLastModifiedTime(dir.resolve("00000000000000000000" + ext))).isEqualTo(t);
        }
        assertThat(Files.size(dir.resolve("00000000000000000000.timeindex"))).isEqualTo(12);
        assertThat(Files.exists(dir.resolve("00000000000000000000.txnindex"))).isFalse();
    }

    @Test
    void refusesAnInputDirectory() throws IOException {
        Path in = Files.createDirectories(tmp.resolve("in/topic-0"));
        assertThatThrownBy(() -> SegmentWriter.open(in, 0, 4096, List.of(tmp.resolve("in"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("input");
        assertThatThrownBy(() -> SegmentWriter.open(in, 0, 4096, List.of(in)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesToReplaceASegmentAndAbortLeavesNothing() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("out"));
        Files.write(dir.resolve("00000000000000000000.log"), new byte[0]);
        assertThatThrownBy(() -> SegmentWriter.open(dir, 0, 4096, List.of())).isInstanceOf(IOException.class);
        SegmentWriter w = SegmentWriter.open(dir, 5, 4096, List.of());
        BatchBuilder b = new BatchBuilder();
        b.begin(5, CompressionType.NONE).append(5, 1000, new byte[] {1}, null, RecordHeaders.NONE);
        w.append(b.finish());
        w.abort();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("00000000000000000000.log");
        }
    }
}
