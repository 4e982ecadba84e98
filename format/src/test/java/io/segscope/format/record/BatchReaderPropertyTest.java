package io.segscope.format.record;

import io.segscope.testkit.Minimiser;
import io.segscope.testkit.Tries;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random segments built with Kafka's MemoryRecordsBuilder (magic x codec x transactional x
 * control x sizes) read by segscope and by Kafka must agree on every field. Seeds are fixed.
 */
class BatchReaderPropertyTest {

    /**
     * A failing segment is minimised over the inputs that Kafka's own reader still takes for whole
     * batches covering every byte (so, in effect, by dropping whole batches).
     */
    static boolean wholeBatchesForKafka(byte[] segment) {
        try {
            long covered = 0;
            int batches = 0;
            for (RecordBatch b : MemoryRecords.readableRecords(ByteBuffer.wrap(segment)).batches()) {
                covered += b.sizeInBytes();
                batches++;
            }
            return batches > 0 && covered == segment.length;
        } catch (RuntimeException e) {
            return false;
        }
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @TestFactory
    Stream<DynamicTest> heapSegmentsMatchKafka() {
        return Tries.of(20261130, 400, gen -> {
            byte[] segment = bytes(RandomSegments.segment(gen.random(), 6));
            Minimiser.check(segment, BatchReaderPropertyTest::wholeBatchesForKafka, s -> {
                KafkaOracle.Coverage c = KafkaOracle.compareBuffer(ByteBuffer.wrap(s), "random-" + gen.seed() + ".log");
                assertThat(c.batches()).isPositive();
                assertThat(c.bytes()).isEqualTo(s.length);
            });
        });
    }

    @TestFactory
    Stream<DynamicTest> mappedSegmentsMatchKafkaFileRecords() {
        return Tries.of(424242, 60, gen -> {
            byte[] segment = bytes(RandomSegments.segment(gen.random(), 10));
            Minimiser.check(segment, BatchReaderPropertyTest::wholeBatchesForKafka, BatchReaderPropertyTest::mappedMatchesKafkaFileRecords);
        });
    }

    private static void mappedMatchesKafkaFileRecords(byte[] segment) throws IOException {
        Path dir = Files.createTempDirectory("segscope-prop");
        try {
            Path file = dir.resolve("00000000000000000000.log");
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(segment));
            }
            KafkaOracle.Coverage c = KafkaOracle.compareFile(file);
            assertThat(c.bytes()).isEqualTo(segment.length);
        } finally {
            try (var s = Files.list(dir)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    @Test
    void everyMagicAndCodecIsCovered(@TempDir Path dir) {
        Random rnd = new Random(7);
        int[][] seen = new int[3][5];
        for (int i = 0; i < 300; i++) {
            byte magic = (byte) (i % 3);
            ByteBuffer b = RandomSegments.batch(rnd, magic, i * 1000L);
            KafkaOracle.compareBuffer(b, "batch-" + i);
            try (BatchReader r = new BatchReader(io.segscope.format.io.ByteSource.wrap(b, "b"))) {
                while (r.next()) {
                    seen[r.batch().magic()][r.batch().compression().id]++;
                }
            }
        }
        for (int m = 0; m < 3; m++) {
            for (int c = 0; c < (m == 2 ? 5 : 4); c++) {
                assertThat(seen[m][c]).as("magic %d codec %d", m, c).isPositive();
            }
        }
    }
}
