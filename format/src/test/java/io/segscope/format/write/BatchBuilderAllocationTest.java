package io.segscope.format.write;

import io.segscope.format.record.CompressionType;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nothing is allocated per record: a batch of 20,000 records costs no more heap than a batch of 20
 * (beyond a small constant), for every codec, once the builder's buffer has grown.
 */
class BatchBuilderAllocationTest {
    private static final byte[] KEY = "key-0001".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] VALUE = new byte[100];
    private static final byte[] HEADER_KEY = {'h'};

    @Test
    void noAllocationPerRecord() {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled());
        long thread = Thread.currentThread().getId();
        BatchBuilder b = new BatchBuilder(8 << 20);
        RecordHeaders headers = new RecordHeaders().add(HEADER_KEY, 0, 1, VALUE, 0, 5);
        for (CompressionType codec : CompressionType.values()) {
            for (int warm = 0; warm < 30; warm++) {
                build(b, codec, headers, 20_000);
                build(b, codec, headers, 20);
            }
            long small = Long.MAX_VALUE;
            long large = Long.MAX_VALUE;
            for (int i = 0; i < 5; i++) {
                long t0 = mx.getThreadAllocatedBytes(thread);
                build(b, codec, headers, 20);
                long t1 = mx.getThreadAllocatedBytes(thread);
                build(b, codec, headers, 20_000);
                long t2 = mx.getThreadAllocatedBytes(thread);
                small = Math.min(small, t1 - t0);
                large = Math.min(large, t2 - t1);
            }
            assertThat(large - small).as(codec + ": bytes allocated by 19,980 more records").isLessThan(4_096);
        }
    }

    private static void build(BatchBuilder b, CompressionType codec, RecordHeaders headers, int records) {
        b.begin(1000, codec).producer(5, (short) 1, 0);
        for (int i = 0; i < records; i++) {
            VALUE[0] = (byte) i;
            b.append(1000 + i, 1_700_000_000_000L + i, KEY, 0, KEY.length, VALUE, 0, VALUE.length, headers);
        }
        b.finish();
    }
}
