package io.segscope.format.record;

import io.segscope.format.error.FormatException;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.StreamSource;
import io.segscope.testkit.Minimiser;
import io.segscope.testkit.Tries;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Damaged input of every codec and magic: whatever the damage, the only thing that escapes is a
 * FormatException, and a stream source reads exactly what a random-access source reads.
 */
class HostileInputPropertyTest {

    /** Walks everything a caller can touch; returns a transcript ending with the error kind, if any. */
    static List<String> walk(ByteSource source) {
        List<String> out = new ArrayList<>();
        try (BatchReader r = new BatchReader(source, ReaderOptions.defaults().withMaxDecompressedBytes(1 << 20))) {
            while (r.next()) {
                Batch b = r.batch();
                out.add(b.position() + ":" + b.sizeInBytes() + ":" + b.magic() + ":" + b.lastOffset() + ":" + b.isValid());
                out.add("base " + b.baseOffset());
                RecordIterator it = b.records();
                while (it.next()) {
                    LogRecord rec = it.record();
                    StringBuilder sb = new StringBuilder();
                    sb.append(rec.offset()).append('/').append(rec.timestamp()).append('/').append(rec.keyLength())
                            .append('/').append(rec.valueLength()).append('/').append(rec.sequence());
                    HeaderIterator h = rec.headers();
                    while (h.next()) {
                        sb.append('/').append(h.keyLength()).append('=').append(h.valueLength());
                    }
                    if (b.isControl()) {
                        ControlRecord.Type t = ControlRecord.type(b, rec);
                        sb.append('/').append(t);
                        if (t == ControlRecord.Type.COMMIT || t == ControlRecord.Type.ABORT) {
                            sb.append('/').append(ControlRecord.endTxnMarker(rec.buffer(), rec.valueOffset(), rec.valueLength()));
                        }
                    }
                    out.add(sb.toString());
                }
            }
            out.add("tail " + r.tail());
        } catch (FormatException e) {
            out.add("error " + e.violation() + " at " + e.position());
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> damageNeverEscapesAsAnythingButFormatException() {
        return Tries.of(1234, 1500, gen -> Minimiser.check(damaged(gen.random()), HostileInputPropertyTest::sameWalkEitherWay));
    }

    /** A random segment with one to four random damages. */
    static byte[] damaged(Random rnd) {
        byte[] file = RandomSegments.segmentBytes(rnd, 4);
        int damage = 1 + rnd.nextInt(4);
        for (int i = 0; i < damage; i++) {
            BatchWalkerTwinTest.mutate(rnd, file);
        }
        if (rnd.nextInt(5) == 0) { // hit the compressed payload specifically
            int p = 61 + rnd.nextInt(Math.max(1, file.length - 61));
            if (p < file.length) {
                file[p] ^= (byte) (1 + rnd.nextInt(255));
            }
        }
        return file;
    }

    /**
     * The walk escapes with nothing but a FormatException (anything else fails the property as
     * itself, and is minimised as such), and a stream source reads what the mapped one reads.
     */
    static void sameWalkEitherWay(byte[] file) {
        List<String> mapped = walk(ByteSource.wrap(ByteBuffer.wrap(file), "h.log"));
        List<String> streamed = walk(new StreamSource(new ByteArrayInputStream(file), "h.log", 1 << 20));
        assertThat(streamed).isEqualTo(mapped);
    }
}
