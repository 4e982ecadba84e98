package io.segscope.format.index;

import io.segscope.format.io.ByteSource;
import io.segscope.format.io.StreamSource;
import io.segscope.testkit.Tries;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An index that comes from a stream (an archive entry) reads exactly as the same bytes mapped:
 * same counts, entries, lookups and findings, whatever the stream's window.
 */
class StreamedIndexTest {

    private static ByteSource stream(byte[] bytes, int window) {
        return new StreamSource(new ByteArrayInputStream(bytes), "s.index", window);
    }

    private static ByteSource heap(byte[] bytes) {
        return ByteSource.wrap(ByteBuffer.wrap(bytes), "s.index");
    }

    @TestFactory
    Stream<DynamicTest> streamedEqualsInPlace() {
        return Tries.of(606, 200, gen -> streamedEqualsInPlace(gen.bytes(3000), gen.intBetween(40, 5000),
                gen.intBetween(0, 2000), gen.anyLong()));
    }

    private static void streamedEqualsInPlace(byte[] raw, int window, int zeroTail, long target) {
        byte[] bytes = Arrays.copyOf(raw, raw.length + zeroTail);
        OffsetIndexReader a = new OffsetIndexReader().wrap(heap(bytes), 100);
        OffsetIndexReader b = new OffsetIndexReader();
        b.wrap(stream(new byte[16], window), 100);      // a first, smaller file: the kept buffer must grow
        b.wrap(stream(bytes, window), 100);
        assertThat(b.sizeInBytes()).isEqualTo(bytes.length);
        assertThat(b.entries()).isEqualTo(a.entries());
        assertThat(b.slots()).isEqualTo(a.slots());
        for (int i = 0; i < a.slots(); i++) {
            assertThat(b.offset(i)).isEqualTo(a.offset(i));
            assertThat(b.position(i)).isEqualTo(a.position(i));
        }
        assertThat(b.lookup(target)).isEqualTo(a.lookup(target));
        assertThat(b.sanityCheck()).hasSameSizeAs(a.sanityCheck());

        TimeIndexReader ta = new TimeIndexReader().wrap(heap(bytes), 100);
        TimeIndexReader tb = new TimeIndexReader().wrap(stream(bytes, window), 100);
        assertThat(tb.entries()).isEqualTo(ta.entries());
        assertThat(tb.lookup(target)).isEqualTo(ta.lookup(target));
        assertThat(tb.kafkaSanityCheck().isPresent()).isEqualTo(ta.kafkaSanityCheck().isPresent());

        TxnIndexReader xa = new TxnIndexReader().wrap(heap(bytes), 100);
        TxnIndexReader xb = new TxnIndexReader().wrap(stream(bytes, window), 100);
        assertThat(xb.entries()).isEqualTo(xa.entries());
        assertThat(xb.partialBytes()).isEqualTo(xa.partialBytes());
        for (int i = 0; i < xa.entries(); i++) {
            assertThat(xb.lastStableOffset(i)).isEqualTo(xa.lastStableOffset(i));
        }
        assertThat(xb.sanityCheck()).hasSameSizeAs(xa.sanityCheck());
    }
}
