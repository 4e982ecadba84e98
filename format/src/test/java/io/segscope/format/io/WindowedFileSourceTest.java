package io.segscope.format.io;

import io.segscope.format.error.FormatException;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.RecordIterator;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link WindowedFileSource}: any range, forwards and back, reads the file's bytes; and every corpus
 * segment read through a window of a few KiB gives the batches and records the mapped file gives.
 */
class WindowedFileSourceTest {
    @Test
    void anyRangeReadsTheFileBytes(@TempDir Path tmp) throws IOException {
        byte[] bytes = new byte[200_000];
        new SplittableRandom(9).nextBytes(bytes);
        Path file = tmp.resolve("f");
        Files.write(file, bytes);
        SplittableRandom random = new SplittableRandom(10);
        try (WindowedFileSource s = new WindowedFileSource(file, "f", 4096)) {
            assertThat(s.size()).isEqualTo(bytes.length);
            assertThat(s.isRandomAccess()).isFalse();
            for (int i = 0; i < 20_000; i++) {
                int p = random.nextInt(bytes.length + 10);
                int n = random.nextInt(i % 10 == 0 ? 20_000 : 300);
                int at = s.ensure(p, n);
                if (p + n > bytes.length) {
                    assertThat(at).isEqualTo(-1);
                    assertThat(s.available(p, n)).isEqualTo(Math.max(0, bytes.length - p));
                    continue;
                }
                ByteBuffer b = s.buffer();
                for (int k = 0; k < n; k += 97) {
                    assertThat(b.get(at + k)).as("byte %d", p + k).isEqualTo(bytes[p + k]);
                }
            }
            assertThat(s.ensure(0, bytes.length + 1)).isEqualTo(-1);
        }
        // a range larger than any batch, in a file that has it (sparse): refused, not allocated
        Path large = tmp.resolve("large");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(large.toFile(), "rw")) {
            f.setLength(WindowedFileSource.MAX_RANGE + 10L);
        }
        try (WindowedFileSource s = new WindowedFileSource(large, "large")) {
            assertThatThrownBy(() -> s.ensure(0, WindowedFileSource.MAX_RANGE + 1)).isInstanceOf(FormatException.class)
                    .hasMessageContaining("batch-too-large");
        }
    }

    /** What a reader sees of a segment: each batch's position, offsets, CRC verdict and records. */
    private static List<String> read(ByteSource source) {
        List<String> seen = new ArrayList<>();
        try (BatchReader reader = new BatchReader(source)) {
            while (reader.next()) {
                Batch b = reader.batch();
                seen.add(b.position() + " " + b.lastOffset() + " " + b.isValid());
                try {
                    RecordIterator it = b.records();
                    while (it.next()) {
                        LogRecord r = it.record();
                        seen.add(r.offset() + " " + r.timestamp() + " " + r.keyLength() + " " + r.valueLength());
                    }
                } catch (FormatException e) {
                    seen.add(e.getMessage());
                }
            }
            seen.add("tail " + reader.tail());
        } catch (FormatException e) {
            seen.add(e.getMessage());
        }
        return seen;
    }

    @Test
    void everyCorpusSegmentReadsAsMapped() throws IOException {
        int segments = 0;
        for (Path log : Corpus.filesEndingWith(Corpus.corpus(), ".log")) {
            List<String> mapped;
            try (ByteSource m = MappedSource.open(log, log.toString())) {
                mapped = read(m);
            }
            try (WindowedFileSource w = new WindowedFileSource(log, log.toString(), 4096)) {
                assertThat(read(w)).as("%s through a 4 KiB window", log).isEqualTo(mapped);
            }
            segments++;
        }
        assertThat(segments).isGreaterThan(50);
    }

    @Test
    void filesAboveTheThresholdAreReadThroughAWindow(@TempDir Path tmp) throws IOException {
        Path file = tmp.resolve("f");
        Files.write(file, new byte[100]);
        String before = System.getProperty(MappedSource.WINDOWED_ABOVE_PROPERTY);
        try {
            System.setProperty(MappedSource.WINDOWED_ABOVE_PROPERTY, "99");
            try (ByteSource s = MappedSource.open(file, "f")) {
                assertThat(s).isInstanceOf(WindowedFileSource.class);
            }
            System.setProperty(MappedSource.WINDOWED_ABOVE_PROPERTY, "100");
            try (ByteSource s = MappedSource.open(file, "f")) {
                assertThat(s.isRandomAccess()).isTrue();
            }
        } finally {
            if (before == null) {
                System.clearProperty(MappedSource.WINDOWED_ABOVE_PROPERTY);
            } else {
                System.setProperty(MappedSource.WINDOWED_ABOVE_PROPERTY, before);
            }
        }
    }

    /**
     * A damaged header that passes every cheap test and declares a huge size: looking for the next good
     * batch computes its CRC a chunk at a time, so the window does not grow to the declared size (it
     * did: a 1.9 GiB segment damaged twice held 236 MB of window during a resync, and salvage ran out of
     * a 512 MiB heap), and the right answer still comes out for a real batch that large.
     */
    @Test
    void resyncDoesNotGrowTheWindowToADeclaredSize(@TempDir Path tmp) throws IOException {
        int declared = 6 << 20;
        ByteBuffer b = ByteBuffer.allocate(declared + 4096);
        b.position(100);
        b.putLong(5).putInt(declared).putInt(0).put((byte) 2).putInt(0x12345678).putShort((short) 0).putInt(10)
                .putLong(0).putLong(0).putLong(-1).putShort((short) -1).putInt(-1).putInt(5);
        Path file = tmp.resolve("damaged.log");
        Files.write(file, b.array());
        try (WindowedFileSource s = new WindowedFileSource(file, "damaged.log", 64 * 1024)) {
            assertThat(new io.segscope.format.walk.Resync(128 << 20).find(s, 1, 0)).isEqualTo(-1);
            assertThat(s.buffer().capacity()).as("the window after the search").isLessThanOrEqualTo(1 << 20);
        }
        // the same bytes with the CRC made right are found, read a chunk at a time
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(b.array(), 100 + 21, declared + 12 - 21);
        b.putInt(100 + 17, (int) crc.getValue());
        Files.write(file, b.array());
        try (WindowedFileSource s = new WindowedFileSource(file, "damaged.log", 64 * 1024)) {
            assertThat(new io.segscope.format.walk.Resync(128 << 20).find(s, 1, 0)).isEqualTo(100);
            assertThat(s.buffer().capacity()).isLessThanOrEqualTo(1 << 20);
        }
    }
}
