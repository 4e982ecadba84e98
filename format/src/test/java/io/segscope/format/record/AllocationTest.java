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

    /** Bytes one walk allocates, after warming up: the walk's own objects, whatever the segment holds. */
    private static long perWalk(ByteSource src) {
        long[] sum = new long[1];
        for (int i = 0; i < 20; i++) { // warm up: the JIT, then measure
            sum[0] += walk(src);
        }
        // the least of a few walks: a one-off allocation (JIT deoptimisation, a library's lazy init)
        // would otherwise pass for a per-batch cost
        long bytes = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            bytes = Math.min(bytes, allocatedBy(() -> sum[0] += walk(src)));
        }
        assertThat(sum[0]).isNotZero();
        return bytes;
    }

    /**
     * What the README states: a walk allocates its reader (views, decompressor: about 1.2 KB),
     * nothing per batch or record. Measured as the difference between a segment and one ten
     * times larger, so that a single byte per batch would show.
     */
    @Test
    void uncompressedRecordsAllocateNothingPerBatchOrRecord(@TempDir Path dir) throws IOException {
        Path small = write(dir, "small.log", Segments.v2(20, 100, "none"));
        Path large = write(dir, "large.log", Segments.v2(200, 100, "none"));
        try (ByteSource s = MappedSource.open(small); ByteSource l = MappedSource.open(large)) {
            long smallBytes = perWalk(s);
            long largeBytes = perWalk(l);
            assertThat(largeBytes).as("bytes allocated walking 20,000 records").isLessThan(2_048);
            assertThat(largeBytes - smallBytes).as("bytes for 180 more batches, 18,000 more records").isLessThan(180);
        }
    }

    @Test
    void compressedBatchesAllocateNothingPerBatch(@TempDir Path dir) throws IOException {
        for (String codec : new String[]{"gzip", "snappy", "lz4", "zstd"}) {
            Path small = write(dir, codec + "-small.log", Segments.v2(20, 50, codec));
            Path large = write(dir, codec + "-large.log", Segments.v2(200, 50, codec));
            try (ByteSource s = MappedSource.open(small); ByteSource l = MappedSource.open(large)) {
                long smallBytes = perWalk(s);
                long largeBytes = perWalk(l);
                assertThat(largeBytes).as(codec + ": bytes allocated walking 200 batches").isLessThan(2_048);
                assertThat(largeBytes - smallBytes).as(codec + ": bytes for 180 more batches").isLessThan(180);
            }
        }
    }
}
