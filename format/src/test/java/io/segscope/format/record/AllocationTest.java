package io.segscope.format.record;

import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The zero-copy promise, checked by counting bytes allocated by this thread (not by timing):
 * walking every record, key, value and header of a mapped uncompressed segment allocates
 * nothing per record, and reading compressed batches allocates nothing per batch once the
 * decompression buffer has grown. JMH's -prof gc gives the same figure in jmh/.
 */
class AllocationTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long walk(ByteSource source) {
        long sum = 0;
        try (BatchReader r = new BatchReader(source)) {
            while (r.next()) {
                Batch b = r.batch();
                sum += b.lastOffset() + b.maxTimestamp() + b.producerId();
                RecordIterator it = b.records();
                while (it.next()) {
                    LogRecord rec = it.record();
                    sum += rec.offset() + rec.timestamp() + rec.keyLength() + rec.valueLength();
                    if (rec.valueLength() > 0) {
                        sum += rec.buffer().get(rec.valueOffset());
                    }
                    HeaderIterator h = rec.headers();
                    while (h.next()) {
                        sum += h.keyLength();
                    }
                }
            }
        }
        return sum;
    }

    private static long allocatedBy(Runnable r) {
        long before = THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
        r.run();
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
    }

    private static Path write(Path dir, String name, ByteBuffer bytes) throws IOException {
        Path f = dir.resolve(name);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(bytes.duplicate());
        }
        return f;
    }

    @Test
    void uncompressedRecordsAllocateNothingPerRecord(@TempDir Path dir) throws IOException {
        Path f = write(dir, "00000000000000000000.log", Segments.v2(200, 100, "none"));
        try (ByteSource src = MappedSource.open(f)) {
            for (int i = 0; i < 20; i++) { // warm up: the JIT, then measure
                walk(src);
            }
            long[] sum = new long[1];
            long bytes = allocatedBy(() -> sum[0] = walk(src));
            // 20,000 records: the reader, its views and the decompressor's empty buffer are all
            // there is; anything per record would show as hundreds of kilobytes
            assertThat(bytes).as("bytes allocated for 20,000 records").isLessThan(200_000);
            assertThat(bytes / 20_000.0).as("bytes per record").isLessThan(10.0);
            assertThat(sum[0]).isNotZero();
        }
    }

    @Test
    void compressedBatchesReuseTheDecompressionBuffer(@TempDir Path dir) throws IOException {
        for (String codec : new String[]{"gzip", "snappy", "lz4", "zstd"}) {
            Path f = write(dir, codec + ".log", Segments.v2(200, 50, codec));
            try (ByteSource src = MappedSource.open(f)) {
                BatchReader reader = new BatchReader(src);
                long[] sum = new long[1];
                Runnable walkAll = () -> {
                    try (BatchReader r = new BatchReader(src)) {
                        sum[0] += walk(src);
                    }
                };
                for (int i = 0; i < 10; i++) {
                    walkAll.run();
                }
                long bytes = allocatedBy(walkAll);
                reader.close();
                // a new reader per walk costs its buffers once; nothing grows with the 200 batches
                assertThat(bytes / 200.0).as(codec + ": bytes per batch").isLessThan(2_000.0);
            }
        }
    }
}
