package io.segscope.format.index;

import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import org.apache.kafka.storage.internals.log.OffsetIndex;
import org.apache.kafka.storage.internals.log.TimeIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flyweight promise of the index readers, checked by counting bytes allocated by this thread:
 * re-wrapping a mapped index, reading every entry and searching by slot allocate nothing.
 */
class IndexAllocationTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long allocatedBy(Runnable r) {
        long before = THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
        r.run();
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
    }

    @Test
    void wrapReadAndSearchAllocateNothing(@TempDir Path dir) throws Exception {
        long base = 1000;
        OffsetIndex kafka = new OffsetIndex(dir.resolve("00000000000000001000.index").toFile(), base, 8 * 20_000);
        TimeIndex kafkaTime = new TimeIndex(dir.resolve("00000000000000001000.timeindex").toFile(), base, 12 * 20_000);
        for (int i = 1; i <= 10_000; i++) {
            kafka.append(base + 5L * i, 100 * i);
            kafkaTime.maybeAppend(1_000_000L + 3L * i, base + 5L * i);
        }
        kafka.flush();
        kafkaTime.flush();
        try (ByteSource idx = MappedSource.open(dir.resolve("00000000000000001000.index"));
             ByteSource tidx = MappedSource.open(dir.resolve("00000000000000001000.timeindex"))) {
            OffsetIndexReader r = new OffsetIndexReader();
            TimeIndexReader t = new TimeIndexReader();
            long[] sum = new long[1];
            Runnable work = () -> {
                r.wrap(idx, base);
                t.wrap(tidx, base);
                for (int i = 0; i < r.entries(); i++) {
                    sum[0] += r.offset(i) + r.position(i);
                }
                for (long target = base; target < base + 60_000; target += 7) {
                    int slot = r.lookupSlot(target);
                    sum[0] += slot < 0 ? 0 : r.position(slot);
                    int ts = t.lookupSlot(1_000_000L + target - base);
                    sum[0] += ts < 0 ? 0 : t.offset(ts);
                }
            };
            for (int i = 0; i < 20; i++) { // warm up: the JIT, then measure
                work.run();
            }
            long bytes = allocatedBy(work);
            assertThat(r.entries()).isEqualTo(10_000);
            assertThat(r.zeroTailSlots()).isEqualTo(10_000);
            assertThat(bytes).as("bytes allocated for a wrap, 10,000 entries and ~17,000 searches").isLessThan(1_000);
            assertThat(sum[0]).isNotZero();
        } finally {
            kafka.close();
            kafkaTime.close();
        }
    }
}
