package io.segscope.format.index;

import io.segscope.format.io.ByteSource;
import io.segscope.testkit.Tries;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An index held as its stored bytes and the length of its zero tail ({@link ByteSource#withZeroTail},
 * how an archive keeps a preallocated index) reads exactly as the whole file: same counts,
 * entries, lookups and findings, wherever the stored part ends (inside an entry too).
 */
class ZeroTailIndexTest {

    private static ByteSource heap(byte[] bytes) {
        return ByteSource.wrap(ByteBuffer.wrap(bytes), "z.index");
    }

    @TestFactory
    Stream<DynamicTest> zeroTailEqualsWholeFile() {
        return Tries.of(607, 200, gen -> zeroTailEqualsWholeFile(gen.bytes(600), gen.intBetween(0, 3000),
                gen.intBetween(0, 3000), gen.anyLong()));
    }

    private static void zeroTailEqualsWholeFile(byte[] raw, int zeroTail, int cut, long target) {
        byte[] bytes = Arrays.copyOf(raw, raw.length + zeroTail);
        int stored = raw.length + Math.min(cut, zeroTail);
        ByteSource z = ByteSource.withZeroTail(ByteBuffer.wrap(Arrays.copyOf(bytes, stored)), bytes.length, "z.index");

        OffsetIndexReader a = new OffsetIndexReader().wrap(heap(bytes), 100);
        OffsetIndexReader b = new OffsetIndexReader().wrap(z, 100);
        assertThat(b.sizeInBytes()).isEqualTo(bytes.length);
        assertThat(b.entries()).isEqualTo(a.entries());
        assertThat(b.slots()).isEqualTo(a.slots());
        for (int i = 0; i < a.slots(); i++) {
            assertThat(b.offset(i)).isEqualTo(a.offset(i));
            assertThat(b.position(i)).isEqualTo(a.position(i));
        }
        assertThat(b.lookup(target)).isEqualTo(a.lookup(target));
        assertThat(b.sanityCheck()).hasSameSizeAs(a.sanityCheck());
        assertThat(b.kafkaSanityCheck().isPresent()).isEqualTo(a.kafkaSanityCheck().isPresent());

        TimeIndexReader ta = new TimeIndexReader().wrap(heap(bytes), 100);
        TimeIndexReader tb = new TimeIndexReader().wrap(z, 100);
        assertThat(tb.entries()).isEqualTo(ta.entries());
        assertThat(tb.slots()).isEqualTo(ta.slots());
        for (int i = 0; i < ta.slots(); i++) {
            assertThat(tb.timestamp(i)).isEqualTo(ta.timestamp(i));
            assertThat(tb.offset(i)).isEqualTo(ta.offset(i));
        }
        assertThat(tb.lookup(target)).isEqualTo(ta.lookup(target));
        assertThat(tb.sanityCheck()).hasSameSizeAs(ta.sanityCheck());
        assertThat(tb.kafkaSanityCheck().isPresent()).isEqualTo(ta.kafkaSanityCheck().isPresent());

        // a reader that does not know zero tails sees the whole file through ensure()
        TxnIndexReader xa = new TxnIndexReader().wrap(heap(bytes), 100);
        TxnIndexReader xb = new TxnIndexReader().wrap(z, 100);
        assertThat(xb.entries()).isEqualTo(xa.entries());
        for (int i = 0; i < xa.entries(); i++) {
            assertThat(xb.producerId(i)).isEqualTo(xa.producerId(i));
            assertThat(xb.lastStableOffset(i)).isEqualTo(xa.lastStableOffset(i));
        }
    }

    @Test
    void aPreallocatedIndexCostsItsEntriesOnly() {
        byte[] entries = new byte[24];
        ByteBuffer.wrap(entries).putInt(0, 5).putInt(4, 100).putInt(8, 9).putInt(12, 300);
        ByteSource z = ByteSource.withZeroTail(ByteBuffer.wrap(entries), 10 * 1024 * 1024, "p.index");
        OffsetIndexReader r = new OffsetIndexReader().wrap(z, 0);
        assertThat(r.entries()).isEqualTo(2);
        assertThat(r.slots()).isEqualTo(10 * 1024 * 1024 / 8);
        assertThat(r.zeroTailSlots()).isEqualTo(r.slots() - 2);
        assertThat(r.sanityCheck()).isEmpty();
        assertThat(z.zeroTailFrom()).isEqualTo(24);
    }
}
