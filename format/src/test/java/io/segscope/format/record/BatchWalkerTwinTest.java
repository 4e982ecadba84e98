package io.segscope.format.record;

import io.segscope.format.error.FormatException;
import io.segscope.format.io.ByteSource;
import io.segscope.testkit.Minimiser;
import io.segscope.testkit.Tries;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fast batch walker against a slow, obviously correct twin that reads the file with a
 * DataInputStream into plain lists, over random uncompressed segments and mutations of them.
 * Both must agree on every entry and record, and on where and whether the walk fails.
 */
class BatchWalkerTwinTest {

    /** One parsed entry: what the twin sees. */
    record Entry(long position, int size, byte magic, long firstOffset, List<String> records) {
    }

    /** Result of a walk: entries, then "end", "tail" or "error" (at the position of the failing entry). */
    record Walk(List<Entry> entries, String end) {
    }

    static Walk slow(byte[] file) {
        List<Entry> entries = new ArrayList<>();
        int pos = 0;
        while (true) {
            int left = file.length - pos;
            if (left == 0) {
                return new Walk(entries, "end");
            }
            if (left <= 17) {
                return new Walk(entries, "tail");
            }
            try {
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(file, pos, left));
                long offset = in.readLong();
                int size = in.readInt();
                if (size < 14) {
                    boolean zeros = true;
                    for (int i = pos; i < file.length; i++) {
                        zeros &= file[i] == 0;
                    }
                    return new Walk(entries, zeros ? "tail" : "error@" + pos);
                }
                if ((long) size + 12 > left) {
                    return new Walk(entries, "tail");
                }
                byte magic = file[pos + 16];
                if (magic != 2) {
                    if (magic < 0 || magic > 2) {
                        return new Walk(entries, "error@" + pos);
                    }
                    entries.add(new Entry(pos, size + 12, magic, offset, List.of()));
                } else {
                    if (size + 12 < 61) {
                        return new Walk(entries, "error@" + pos);
                    }
                    in.skipBytes(4 + 1 + 4);
                    int attributes = in.readShort();
                    in.skipBytes(4 + 8 + 8 + 8 + 2 + 4);
                    int count = in.readInt();
                    List<String> records = (attributes & 7) == 0
                            ? slowRecords(Arrays.copyOfRange(file, pos + 61, pos + 12 + size), count) : List.of();
                    if (records == null) {
                        return new Walk(entries, "error@" + pos);
                    }
                    entries.add(new Entry(pos, size + 12, magic, offset, records));
                }
                pos += size + 12;
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }
    }

    /** Records as "delta/key/value/headers" strings, or null when they do not parse. */
    static List<String> slowRecords(byte[] body, int count) {
        if (count < 0) {
            return null;
        }
        List<String> out = new ArrayList<>();
        int[] p = {0};
        try {
            for (int i = 0; i < count; i++) {
                long length = slowVarint(body, p, 5);
                if (length < 0 || length > body.length - p[0]) {
                    return null;
                }
                int end = p[0] + (int) length;
                byte[] rec = Arrays.copyOfRange(body, p[0], end);
                int[] q = {1};
                slowVarint(rec, q, 10);
                long delta = slowVarint(rec, q, 5);
                String key = slowBytes(rec, q);
                String value = slowBytes(rec, q);
                long headers = slowVarint(rec, q, 5);
                if (headers < 0 || headers > rec.length - q[0]) {
                    return null;
                }
                StringBuilder h = new StringBuilder();
                for (int k = 0; k < headers; k++) {
                    long kl = slowVarint(rec, q, 5);
                    if (kl < 0 || kl > rec.length - q[0]) {
                        return null;
                    }
                    h.append(Arrays.toString(Arrays.copyOfRange(rec, q[0], q[0] + (int) kl)));
                    q[0] += (int) kl;
                    h.append('=').append(slowBytes(rec, q)).append(';');
                }
                if (q[0] != rec.length) {
                    return null;
                }
                out.add(delta + "/" + key + "/" + value + "/" + h);
                p[0] = end;
            }
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
            return null;
        }
        return p[0] == body.length ? out : null;
    }

    static long slowVarint(byte[] b, int[] p, int maxBytes) {
        long raw = 0;
        for (int i = 0; ; i++) {
            if (i == maxBytes) {
                throw new IllegalStateException("too long");
            }
            int v = b[p[0]++] & 0xff;
            raw |= (long) (v & 0x7f) << (7 * i);
            if ((v & 0x80) == 0) {
                break;
            }
        }
        if (maxBytes == 5) {
            int r = (int) raw;
            return (r >>> 1) ^ -(r & 1);
        }
        return (raw >>> 1) ^ -(raw & 1);
    }

    static String slowBytes(byte[] b, int[] p) {
        long len = slowVarint(b, p, 5);
        if (len < 0) {
            return "null";
        }
        if (len > b.length - p[0]) {
            throw new IllegalStateException("overrun");
        }
        String s = Arrays.toString(Arrays.copyOfRange(b, p[0], p[0] + (int) len));
        p[0] += (int) len;
        return s;
    }

    static Walk fast(byte[] file) {
        List<Entry> entries = new ArrayList<>();
        try (BatchReader r = new BatchReader(ByteSource.wrap(ByteBuffer.wrap(file), "t.log"))) {
            while (true) {
                long pos = -1;
                try {
                    if (!r.next()) {
                        return new Walk(entries, r.tail().isClean() ? "end" : "tail");
                    }
                    Batch b = r.batch();
                    pos = b.position();
                    List<String> records = new ArrayList<>();
                    if (b.magic() == 2 && b.compression() == CompressionType.NONE) {
                        RecordIterator it = b.records();
                        while (it.next()) {
                            RecordView rv = (RecordView) it.record();
                            StringBuilder h = new StringBuilder();
                            HeaderIterator hi = rv.headers();
                            while (hi.next()) {
                                h.append(str(hi.buffer(), hi.keyOffset(), hi.keyLength())).append('=')
                                        .append(str(hi.buffer(), hi.valueOffset(), hi.valueLength())).append(';');
                            }
                            records.add(rv.offsetDelta() + "/" + str(rv.buffer(), rv.keyOffset(), rv.keyLength()) + "/"
                                    + str(rv.buffer(), rv.valueOffset(), rv.valueLength()) + "/" + h);
                        }
                    } else if (b.magic() == 2 && b.compression() == null) {
                        records = null;
                    }
                    long first = b.magic() == 2 ? b.baseOffset() : b.lastOffset();
                    entries.add(new Entry(b.position(), b.sizeInBytes(), b.magic(), first, records == null ? List.of() : records));
                } catch (FormatException e) {
                    if (System.getProperty("twin.debug") != null) {
                        e.printStackTrace();
                    }
                    return new Walk(entries, "error@" + (pos >= 0 ? pos : e.position()));
                }
            }
        }
    }

    static String str(ByteBuffer b, int off, int len) {
        return len < 0 ? "null" : Arrays.toString(KafkaOracle.slice(b, off, len));
    }

    @TestFactory
    Stream<DynamicTest> fastWalkerAgreesWithSlowTwin() {
        return Tries.of(31337, 1500, gen -> {
            Random rnd = gen.random();
            byte[] file = RandomSegments.segmentBytes(rnd, 5);
            // plain codecs only, so that the twin can read the records; keep legacy wrappers opaque
            mutate(rnd, file);
            Minimiser.check(file, BatchWalkerTwinTest::fastAgreesWithSlow);
        });
    }

    static void fastAgreesWithSlow(byte[] file) {
        Walk slow = slow(file);
        Walk fast = fast(file);
        if (slow.end.startsWith("error") || fast.end.startsWith("error")) {
            assertThat(fast.end).isEqualTo(slow.end);
            int n = Math.min(slow.entries.size(), fast.entries.size());
            assertThat(fast.entries.subList(0, n)).isEqualTo(slow.entries.subList(0, n));
        } else {
            assertThat(fast).isEqualTo(slow);
        }
    }

    /** Some of the time: a truncation, a zero tail, a flipped byte, or a rewritten size or count. */
    static void mutate(Random rnd, byte[] file) {
        switch (rnd.nextInt(6)) {
            case 0 -> { }
            case 1 -> file[rnd.nextInt(file.length)] ^= (byte) (1 << rnd.nextInt(8));
            case 2 -> Arrays.fill(file, rnd.nextInt(file.length), file.length, (byte) 0);
            case 3 -> ByteBuffer.wrap(file).putInt(8, rnd.nextInt(200));
            // a v2 batch's record count (at 57), or the last int of a file too short to hold one
            case 4 -> ByteBuffer.wrap(file).putInt(Math.min(57, file.length - 4), rnd.nextInt(10) - 2);
            default -> file[rnd.nextInt(file.length)] = (byte) rnd.nextInt(256);
        }
    }
}
