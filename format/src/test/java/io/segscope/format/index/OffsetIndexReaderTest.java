package io.segscope.format.index;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.testkit.Gen;
import io.segscope.testkit.Tries;
import org.apache.kafka.storage.internals.log.OffsetIndex;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/** {@link OffsetIndexReader} against Kafka 4.4.0's {@code OffsetIndex} on the same files. */
class OffsetIndexReaderTest {
    static final long BASE = 368_769L;

    @TempDir
    Path tmp;

    /** An active segment's index: Kafka preallocates it and appends; the file keeps a zero tail. */
    @Test
    void preallocatedIndexOfAnActiveSegmentMatchesKafka() throws Exception {
        File file = tmp.resolve("00000000000000368769.index").toFile();
        OffsetIndex kafka = new OffsetIndex(file, BASE, 1024);
        for (int i = 1; i <= 20; i++) {
            kafka.append(BASE + 21L * i, 4096 * i + 17);
        }
        kafka.flush();
        try (ByteSource src = MappedSource.open(file.toPath(), file.getName())) {
            OffsetIndexReader r = new OffsetIndexReader().wrap(src, BASE);
            assertThat(r.sizeInBytes()).isEqualTo(1024);
            assertThat(r.entries()).isEqualTo(kafka.entries()).isEqualTo(20);
            assertThat(r.slots()).isEqualTo(128);
            assertThat(r.zeroTailSlots()).isEqualTo(108);
            assertThat(r.isPreallocated()).isTrue();
            assertThat(r.lastOffset()).isEqualTo(kafka.lastOffset());
            for (int i = 0; i < r.entries(); i++) {
                assertThat(r.offset(i)).isEqualTo(kafka.entry(i).offset());
                assertThat(r.position(i)).isEqualTo(kafka.entry(i).position());
            }
            // Kafka's in-memory index knows its real entry count; segscope finds it from the bytes.
            for (long t = BASE - 2; t <= BASE + 21 * 21 + 2; t++) {
                org.apache.kafka.storage.internals.log.OffsetPosition k = kafka.lookup(t);
                assertThat(r.lookup(t)).isEqualTo(new OffsetPosition(k.offset(), k.position()));
            }
            assertThat(r.sanityCheck()).isEmpty();
        }
        kafka.close();
        // Reopened by Kafka, the zero tail counts as 108 more entries of (base, 0).
        assertThat(KafkaIndexOracle.assertOffsetIndexMatchesKafka(file.toPath(), BASE)).isEqualTo(20);
    }

    /** After a roll or clean shutdown Kafka trims the file; then every count agrees. */
    @Test
    void trimmedIndexMatchesKafkaIncludingLookups() throws Exception {
        File file = tmp.resolve("00000000000000368769.index").toFile();
        OffsetIndex kafka = new OffsetIndex(file, BASE, 4096);
        for (int i = 1; i <= 50; i++) {
            kafka.append(BASE + 3L * i, 100 * i);
        }
        kafka.trimToValidSize();
        kafka.close();
        long[] targets = new long[200];
        for (int i = 0; i < targets.length; i++) {
            targets[i] = BASE - 5 + i;
        }
        assertThat(KafkaIndexOracle.assertOffsetIndexMatchesKafka(file.toPath(), BASE, targets)).isEqualTo(50);
        try (ByteSource src = MappedSource.open(file.toPath(), file.getName())) {
            OffsetIndexReader r = new OffsetIndexReader().wrap(src, BASE);
            assertThat(r.isPreallocated()).isFalse();
            assertThat(r.slots()).isEqualTo(r.entries()).isEqualTo(50);
        }
    }

    /**
     * An index created and never written (a crashed segment holding one batch): Kafka reopens it
     * as 128 entries of (base, 0), which is how DumpLogSegments misreads slot 0 (docs/format.md
     * 1.8); segscope sees no entries and answers every lookup with (base, 0).
     */
    @Test
    void entirelyZeroIndexHasNoEntries() throws Exception {
        File file = tmp.resolve("00000000000000368769.index").toFile();
        new OffsetIndex(file, BASE, 1024).close();
        try (ByteSource src = MappedSource.open(file.toPath(), file.getName())) {
            OffsetIndexReader r = new OffsetIndexReader().wrap(src, BASE);
            assertThat(r.entries()).isZero();
            assertThat(r.slots()).isEqualTo(128);
            assertThat(r.lookup(BASE + 1000)).isEqualTo(new OffsetPosition(BASE, 0));
            assertThat(r.lookupSlot(BASE + 1000)).isEqualTo(-1);
            assertThat(r.sanityCheck()).isEmpty();
            assertThat(r.kafkaSanityCheck()).isEmpty();
        }
        OffsetIndex reopened = new OffsetIndex(file, BASE, -1, false);
        assertThat(reopened.entries()).isEqualTo(128);
        assertThat(reopened.entry(0).offset()).isEqualTo(BASE);
        reopened.close();
        KafkaIndexOracle.assertOffsetIndexMatchesKafka(file.toPath(), BASE);
    }

    @Test
    void lengthNotAMultipleOfEight() {
        ByteBuffer b = ByteBuffer.allocate(8 * 3 + 5);
        for (int i = 0; i < 3; i++) {
            b.putInt(i * 8, i + 1).putInt(i * 8 + 4, 100 * (i + 1));
        }
        OffsetIndexReader r = new OffsetIndexReader().wrap(IndexFiles.heap(b, "x.index"), BASE);
        assertThat(r.entries()).isEqualTo(3);
        assertThat(r.partialBytes()).isEqualTo(5);
        List<FormatException> f = r.sanityCheck();
        assertThat(f).hasSize(1);
        assertThat(f.get(0).violation()).isEqualTo(Violation.INDEX_SIZE);
        assertThat(f.get(0).position()).isEqualTo(24);
        assertThat(f.get(0).file()).isEqualTo("x.index");
        assertThat(f.get(0).field()).isEqualTo("length");
        assertThatThrownBy(r::ensureValid).isInstanceOf(FormatException.class)
                .extracting(e -> ((FormatException) e).violation()).isEqualTo(Violation.INDEX_SIZE);
        // Kafka agrees that the file is corrupt.
        KafkaIndexOracle.assertOffsetIndexMatchesKafka(IndexFiles.write(tmp.resolve("x.index"), b), BASE);
        assertThat(r.kafkaSanityCheck()).get().extracting(FormatException::violation).isEqualTo(Violation.INDEX_SIZE);
    }

    @Test
    void outOfOrderOffsetsAndPositions() {
        ByteBuffer b = ByteBuffer.allocate(24);
        b.putInt(0, 10).putInt(4, 100);
        b.putInt(8, 5).putInt(12, 200);     // offset goes back
        b.putInt(16, 20).putInt(20, 150);   // position goes back
        OffsetIndexReader r = new OffsetIndexReader().wrap(IndexFiles.heap(b, "o.index"), BASE);
        List<FormatException> f = r.sanityCheck();
        assertThat(f).extracting(FormatException::violation, FormatException::position, FormatException::field)
                .containsExactly(tuple(Violation.INDEX_ORDER, 8L, "relativeOffset"),
                        tuple(Violation.INDEX_ORDER, 20L, "position"));
        // Kafka's own sanityCheck does not look at order: it accepts this file.
        KafkaIndexOracle.assertOffsetIndexMatchesKafka(IndexFiles.write(tmp.resolve("o.index"), b), BASE,
                BASE, BASE + 5, BASE + 10, BASE + 20, BASE + 30);
        assertThat(r.kafkaSanityCheck()).isEmpty();
    }

    @Test
    void offsetBelowBase() {
        ByteBuffer b = ByteBuffer.allocate(16);
        b.putInt(0, 3).putInt(4, 100);
        b.putInt(8, -7).putInt(12, 200);
        OffsetIndexReader r = new OffsetIndexReader().wrap(IndexFiles.heap(b, "n.index"), BASE);
        assertThat(r.sanityCheck()).extracting(FormatException::violation, FormatException::position)
                .contains(tuple(Violation.INDEX_OFFSET_RANGE, 8L));
        assertThat(r.kafkaSanityCheck()).get().extracting(FormatException::violation, FormatException::position)
                .containsExactly(Violation.INDEX_OFFSET_RANGE, 8L);
        KafkaIndexOracle.assertOffsetIndexMatchesKafka(IndexFiles.write(tmp.resolve("n.index"), b), BASE);
    }

    @Test
    void nonZeroBytesAfterTheZeroTailStart() {
        ByteBuffer b = ByteBuffer.allocate(8 * 6);
        b.putInt(0, 3).putInt(4, 100);
        b.putInt(32, 9).putInt(36, 900);    // slot 4, after the zero slot 1
        OffsetIndexReader r = new OffsetIndexReader().wrap(IndexFiles.heap(b, "t.index"), BASE);
        assertThat(r.entries()).isEqualTo(1);
        assertThat(r.zeroTailSlots()).isEqualTo(5);
        assertThat(r.sanityCheck()).singleElement().satisfies(e -> {
            assertThat(e.violation()).isEqualTo(Violation.INDEX_TAIL_NOT_ZERO);
            assertThat(e.position()).isEqualTo(32);
            assertThat(e.baseOffset()).isEqualTo(BASE);
        });
    }

    @Test
    void emptyFile() {
        OffsetIndexReader r = new OffsetIndexReader().wrap(IndexFiles.heap(ByteBuffer.allocate(0), "e.index"), BASE);
        assertThat(r.entries()).isZero();
        assertThat(r.slots()).isZero();
        assertThat(r.isPreallocated()).isFalse();
        assertThat(r.lookup(BASE + 5)).isEqualTo(new OffsetPosition(BASE, 0));
        assertThat(r.sanityCheck()).isEmpty();
    }

    // ---- properties -------------------------------------------------------------------------

    /** Strictly increasing (relative offset, position) pairs as Kafka appends them, up to past the warm section. */
    static int[][] wellOrdered(Gen gen) {
        Function<Gen, int[]> step = g -> new int[] {g.intBetween(1, 500), g.intBetween(1, 50_000)};
        List<int[]> steps = gen.bool() ? gen.list(0, 60, step) : gen.list(1000, 1600, step);
        int[][] out = new int[steps.size()][];
        int rel = 0;
        int pos = 0;
        for (int i = 0; i < out.length; i++) {
            rel += steps.get(i)[0];
            pos += steps.get(i)[1];
            out[i] = new int[] {rel, pos};
        }
        return out;
    }

    /**
     * Random entry sequences appended with Kafka's {@code OffsetIndex} into a preallocated file:
     * segscope's entries and lookups equal Kafka's live index (before trimming, zero tail present)
     * and Kafka's reopened index (after trimming).
     */
    @TestFactory
    Stream<DynamicTest> lookupsMatchKafka() {
        return Tries.of(20261130, 120, gen -> lookupsMatchKafka(wellOrdered(gen), targets(gen)));
    }

    private static void lookupsMatchKafka(int[][] entries, List<Long> targets) throws Exception {
        Path dir = IndexFiles.tempDir();
        try {
            File file = dir.resolve("00000000000000368769.index").toFile();
            OffsetIndex kafka = new OffsetIndex(file, BASE, 8 * (entries.length + 64));
            for (int[] e : entries) {
                kafka.append(BASE + e[0], e[1]);
            }
            kafka.flush();
            long last = entries.length == 0 ? BASE : BASE + entries[entries.length - 1][0];
            try (ByteSource src = MappedSource.open(file.toPath(), file.getName())) {
                OffsetIndexReader r = new OffsetIndexReader().wrap(src, BASE);
                assertThat(r.entries()).isEqualTo(entries.length);
                assertThat(r.zeroTailSlots()).isEqualTo(64);
                for (long t : targets) {
                    long target = BASE - 3 + Math.floorMod(t, last - BASE + 6);
                    org.apache.kafka.storage.internals.log.OffsetPosition k = kafka.lookup(target);
                    assertThat(r.lookup(target)).isEqualTo(new OffsetPosition(k.offset(), k.position()));
                }
                for (int[] e : entries) {  // every entry is found by its own offset
                    assertThat(r.lookup(BASE + e[0])).isEqualTo(new OffsetPosition(BASE + e[0], e[1]));
                }
                assertThat(r.sanityCheck()).isEmpty();
            }
            kafka.trimToValidSize();
            kafka.close();
            long[] ts = targets.stream().mapToLong(t -> BASE - 3 + Math.floorMod(t, last - BASE + 6)).toArray();
            KafkaIndexOracle.assertOffsetIndexMatchesKafka(file.toPath(), BASE, ts);
        } finally {
            IndexFiles.delete(dir);
        }
    }

    static List<Long> targets(Gen gen) {
        return gen.list(1, 40, g -> g.longBetween(0, 1_000_000));
    }

    /**
     * Arbitrary (disordered, even negative) non-zero entries written raw: Kafka reopens every slot
     * as an entry and searches them with its warm-section binary search; segscope lands on the
     * same slot for every target, and agrees on Kafka's sanity verdict.
     */
    @TestFactory
    Stream<DynamicTest> searchOnDisorderedEntriesLandsWhereKafkaDoes() {
        return Tries.of(4417, 150, gen -> searchOnDisorderedEntriesLandsWhereKafkaDoes(rawEntries(gen), targets(gen)));
    }

    private static void searchOnDisorderedEntriesLandsWhereKafkaDoes(List<Long> raw, List<Long> targets) {
        Path dir = IndexFiles.tempDir();
        try {
            ByteBuffer b = ByteBuffer.allocate(raw.size() * 8);
            for (int i = 0; i < raw.size(); i++) {
                b.putLong(i * 8, raw.get(i));
            }
            long[] ts = targets.stream().mapToLong(t -> BASE - 500 + Math.floorMod(t, 3000)).toArray();
            int n = KafkaIndexOracle.assertOffsetIndexMatchesKafka(IndexFiles.write(dir.resolve("r.index"), b), BASE, ts);
            assertThat(n).isEqualTo(raw.size());
        } finally {
            IndexFiles.delete(dir);
        }
    }

    static List<Long> rawEntries(Gen gen) {
        Function<Gen, Long> entry = g -> ((long) g.intBetween(-200, 2500) << 32) | g.intBetween(1, 1 << 20);
        return gen.bool() ? gen.list(0, 40, entry) : gen.list(1030, 1100, entry);
    }
}
