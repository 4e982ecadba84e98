package io.segscope.format.index;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.testkit.Gen;
import io.segscope.testkit.Tries;
import org.apache.kafka.storage.internals.log.TimeIndex;
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
import static org.assertj.core.api.Assertions.tuple;

/** {@link TimeIndexReader} against Kafka 4.4.0's {@code TimeIndex} on the same files. */
class TimeIndexReaderTest {
    static final long BASE = 1_000L;
    static final long T0 = 1_764_460_800_000L;

    @TempDir
    Path tmp;

    /**
     * An active segment's time index: preallocated, written, never trimmed (a SIGKILLed broker).
     * Reopened, Kafka's sanityCheck fails on it (the zero tail's timestamp 0 is below the first
     * timestamp: KAFKA-10207); segscope reads the real entries and finds nothing wrong.
     */
    @Test
    void preallocatedTimeIndexOfACrashedSegment() throws Exception {
        File file = tmp.resolve("00000000000000001000.timeindex").toFile();
        TimeIndex kafka = new TimeIndex(file, BASE, 1200);
        for (int i = 0; i < 30; i++) {
            kafka.maybeAppend(T0 + 1000L * i, BASE + 7L * i);
        }
        kafka.flush();
        try (ByteSource src = MappedSource.open(file.toPath(), file.getName())) {
            TimeIndexReader r = new TimeIndexReader().wrap(src, BASE);
            assertThat(r.entries()).isEqualTo(kafka.entries()).isEqualTo(30);
            assertThat(r.slots()).isEqualTo(100);
            assertThat(r.isPreallocated()).isTrue();
            org.apache.kafka.storage.internals.log.TimestampOffset last = kafka.lastEntry();
            assertThat(r.lastEntry()).isEqualTo(new TimestampOffset(last.timestamp(), last.offset()));
            for (long t = T0 - 2000; t < T0 + 32_000; t += 250) {
                org.apache.kafka.storage.internals.log.TimestampOffset k = kafka.lookup(t);
                assertThat(r.lookup(t)).isEqualTo(new TimestampOffset(k.timestamp(), k.offset()));
            }
            assertThat(r.sanityCheck()).isEmpty();
            assertThat(r.kafkaSanityCheck()).get()
                    .extracting(FormatException::violation, FormatException::position, FormatException::field)
                    .containsExactly(Violation.INDEX_ORDER, 99L * 12, "timestamp");
        }
        kafka.close();
        assertThat(KafkaIndexOracle.assertTimeIndexMatchesKafka(file.toPath(), BASE)).isEqualTo(30);
    }

    @Test
    void trimmedTimeIndexMatchesKafka() throws Exception {
        File file = tmp.resolve("00000000000000001000.timeindex").toFile();
        TimeIndex kafka = new TimeIndex(file, BASE, 1200);
        for (int i = 0; i < 40; i++) {
            kafka.maybeAppend(T0 + 10L * i * i, BASE + 3L * i);
        }
        kafka.trimToValidSize();
        kafka.close();
        long[] targets = new long[300];
        for (int i = 0; i < targets.length; i++) {
            targets[i] = T0 - 50 + 60L * i;
        }
        assertThat(KafkaIndexOracle.assertTimeIndexMatchesKafka(file.toPath(), BASE, targets)).isEqualTo(40);
    }

    @Test
    void neverWrittenTimeIndexIsEmpty() throws Exception {
        File file = tmp.resolve("00000000000000001000.timeindex").toFile();
        new TimeIndex(file, BASE, 1200).close();
        try (ByteSource src = MappedSource.open(file.toPath(), file.getName())) {
            TimeIndexReader r = new TimeIndexReader().wrap(src, BASE);
            assertThat(r.entries()).isZero();
            assertThat(r.slots()).isEqualTo(100);
            assertThat(r.lookup(T0)).isEqualTo(new TimestampOffset(-1, BASE));
            assertThat(r.lastEntry()).isEqualTo(new TimestampOffset(-1, BASE));
        }
        KafkaIndexOracle.assertTimeIndexMatchesKafka(file.toPath(), BASE);
    }

    @Test
    void timestampsOrOffsetsGoingBack() {
        ByteBuffer b = ByteBuffer.allocate(12 * 4);
        b.putLong(0, T0).putInt(8, 1);
        b.putLong(12, T0 + 5).putInt(20, 4);
        b.putLong(24, T0 + 5).putInt(32, 6);   // same timestamp: Kafka never appends that
        b.putLong(36, T0 + 9).putInt(44, 2);   // offset goes back
        TimeIndexReader r = new TimeIndexReader().wrap(IndexFiles.heap(b, "b.timeindex"), BASE);
        assertThat(r.sanityCheck()).extracting(FormatException::violation, FormatException::position, FormatException::field)
                .containsExactly(tuple(Violation.INDEX_ORDER, 24L, "timestamp"),
                        tuple(Violation.INDEX_ORDER, 44L, "relativeOffset"));
        KafkaIndexOracle.assertTimeIndexMatchesKafka(IndexFiles.write(tmp.resolve("b.timeindex"), b), BASE, T0, T0 + 5, T0 + 7, T0 + 100);
    }

    @Test
    void lastTimestampBelowFirstAndSizeNotAMultiple() {
        ByteBuffer b = ByteBuffer.allocate(12 * 2 + 7);
        b.putLong(0, T0).putInt(8, 1);
        b.putLong(12, T0 - 1).putInt(20, 2);
        TimeIndexReader r = new TimeIndexReader().wrap(IndexFiles.heap(b, "c.timeindex"), BASE);
        assertThat(r.sanityCheck()).extracting(FormatException::violation, FormatException::position)
                .containsExactly(tuple(Violation.INDEX_SIZE, 24L), tuple(Violation.INDEX_ORDER, 12L));
        assertThat(r.kafkaSanityCheck()).get().extracting(FormatException::violation).isEqualTo(Violation.INDEX_ORDER);
        KafkaIndexOracle.assertTimeIndexMatchesKafka(IndexFiles.write(tmp.resolve("c.timeindex"), b), BASE);
    }

    @Test
    void offsetBelowBase() {
        ByteBuffer b = ByteBuffer.allocate(12);
        b.putLong(0, T0).putInt(8, -1);
        TimeIndexReader r = new TimeIndexReader().wrap(IndexFiles.heap(b, "d.timeindex"), BASE);
        assertThat(r.sanityCheck()).singleElement().extracting(FormatException::violation, FormatException::position)
                .containsExactly(Violation.INDEX_OFFSET_RANGE, 8L);
        KafkaIndexOracle.assertTimeIndexMatchesKafka(IndexFiles.write(tmp.resolve("d.timeindex"), b), BASE);
    }

    // ---- properties -------------------------------------------------------------------------

    /** (timestamp step > 0, offset step >= 0) pairs, up to past the 682-entry warm section. */
    static List<int[]> steps(Gen gen) {
        Function<Gen, int[]> step = g -> new int[] {g.intBetween(1, 100_000), g.intBetween(0, 300)};
        return gen.bool() ? gen.list(0, 60, step) : gen.list(700, 1000, step);
    }

    static List<Long> targets(Gen gen) {
        return gen.list(1, 40, g -> g.longBetween(0, 200_000_000));
    }

    /**
     * Random sequences appended with Kafka's {@code TimeIndex.maybeAppend} (which drops a
     * timestamp that does not grow): entries and lookups equal Kafka's live index with the zero
     * tail present, and Kafka's reopened index after trimming.
     */
    @TestFactory
    Stream<DynamicTest> lookupsMatchKafka() {
        return Tries.of(5150, 120, gen -> lookupsMatchKafka(steps(gen), targets(gen)));
    }

    private static void lookupsMatchKafka(List<int[]> steps, List<Long> targets) throws Exception {
        Path dir = IndexFiles.tempDir();
        try {
            File file = dir.resolve("00000000000000001000.timeindex").toFile();
            TimeIndex kafka = new TimeIndex(file, BASE, 12 * (steps.size() + 33));
            long ts = T0;
            long offset = BASE;
            for (int[] s : steps) {
                ts += s[0];
                offset += s[1];
                kafka.maybeAppend(ts, offset);
            }
            kafka.flush();
            long span = ts - T0 + 10;
            long[] t = targets.stream().mapToLong(x -> T0 - 5 + Math.floorMod(x, span)).toArray();
            try (ByteSource src = MappedSource.open(file.toPath(), file.getName())) {
                TimeIndexReader r = new TimeIndexReader().wrap(src, BASE);
                assertThat(r.entries()).isEqualTo(kafka.entries()).isEqualTo(steps.size());
                for (long x : t) {
                    org.apache.kafka.storage.internals.log.TimestampOffset k = kafka.lookup(x);
                    assertThat(r.lookup(x)).isEqualTo(new TimestampOffset(k.timestamp(), k.offset()));
                }
                assertThat(r.sanityCheck()).isEmpty();
            }
            kafka.trimToValidSize();
            kafka.close();
            KafkaIndexOracle.assertTimeIndexMatchesKafka(file.toPath(), BASE, t);
        } finally {
            IndexFiles.delete(dir);
        }
    }

    /** Arbitrary non-zero slots written raw: Kafka's search and segscope's land on the same slot. */
    @TestFactory
    Stream<DynamicTest> searchOnDisorderedEntriesLandsWhereKafkaDoes() {
        return Tries.of(97, 150, gen -> searchOnDisorderedEntriesLandsWhereKafkaDoes(raw(gen), targets(gen)));
    }

    private static void searchOnDisorderedEntriesLandsWhereKafkaDoes(List<long[]> raw, List<Long> targets) {
        Path dir = IndexFiles.tempDir();
        try {
            ByteBuffer b = ByteBuffer.allocate(raw.size() * 12);
            for (int i = 0; i < raw.size(); i++) {
                b.putLong(i * 12, raw.get(i)[0]).putInt(i * 12 + 8, (int) raw.get(i)[1]);
            }
            long[] t = targets.stream().mapToLong(x -> Math.floorMod(x, 3000L) - 100).toArray();
            int n = KafkaIndexOracle.assertTimeIndexMatchesKafka(IndexFiles.write(dir.resolve("r.timeindex"), b), BASE, t);
            assertThat(n).isEqualTo(raw.size());
        } finally {
            IndexFiles.delete(dir);
        }
    }

    static List<long[]> raw(Gen gen) {
        Function<Gen, long[]> e = g -> new long[] {g.longBetween(1, 2800), g.intBetween(-50, 500)};
        return gen.bool() ? gen.list(0, 40, e) : gen.list(690, 720, e);
    }
}
