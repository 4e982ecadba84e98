package io.segscope.format.record;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random segments built with Kafka's MemoryRecordsBuilder (magic x codec x transactional x
 * control x sizes) read by segscope and by Kafka must agree on every field. Seeds are fixed.
 */
class BatchReaderPropertyTest {

    @Property(tries = 400, seed = "20261130")
    void heapSegmentsMatchKafka(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seed) {
        ByteBuffer segment = RandomSegments.segment(new Random(seed), 6);
        KafkaOracle.Coverage c = KafkaOracle.compareBuffer(segment, "random-" + seed + ".log");
        assertThat(c.batches()).isPositive();
        assertThat(c.bytes()).isEqualTo(segment.remaining());
    }

    @Property(tries = 60, seed = "424242")
    void mappedSegmentsMatchKafkaFileRecords(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seed) throws IOException {
        Path dir = Files.createTempDirectory("segscope-prop");
        try {
            Path file = dir.resolve("00000000000000000000.log");
            ByteBuffer segment = RandomSegments.segment(new Random(seed), 10);
            int size = segment.remaining();
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ch.write(segment);
            }
            KafkaOracle.Coverage c = KafkaOracle.compareFile(file);
            assertThat(c.bytes()).isEqualTo(size);
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
