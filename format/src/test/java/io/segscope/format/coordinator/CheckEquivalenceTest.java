package io.segscope.format.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.testdata.Corpus;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;

/**
 * {@link CoordinatorRecordDecoder#check} (the format inventory's path: key and value checked, not
 * built) says what {@link CoordinatorRecordDecoder#decode} says of the same bytes, and hears the same
 * tagged fields in the same order: on every record of the three coordinator topics of the 4.4.0
 * corpus runs, and on mutations of each from a seeded generator (bytes overwritten, cut, inserted,
 * the value version changed).
 */
class CheckEquivalenceTest {
    private static final long SEED = 0x19c0ffeeL;

    private record Heard(String struct, int tag, Field field) {
    }

    @Test
    void checkFailsExactlyWhereDecodeFailsAndHearsTheSameTags() throws IOException {
        Random random = new Random(SEED);
        int records = 0;
        int cases = 0;
        int failing = 0;
        int withTags = 0;
        for (String run : List.of("kraft-4.4.0-plain", "kraft-4.4.0-compressed")) {
            Path logdir = Corpus.corpus().resolve(run).resolve("logdir");
            List<Path> dirs;
            try (Stream<Path> s = Files.list(logdir)) {
                dirs = s.filter(p -> Files.isDirectory(p) && p.getFileName().toString().contains("-")
                        && CoordinatorTopic.forTopicName(topic(p)) != null).sorted().toList();
            }
            for (Path dir : dirs) {
                CoordinatorRecordDecoder decoder = CoordinatorRecordDecoder.forTopic(CoordinatorTopic.forTopicName(topic(dir)));
                for (Path log : Corpus.filesEndingWith(dir, ".log")) {
                    try (FileRecords file = FileRecords.open(new File(log.toString()), false)) {
                        for (RecordBatch batch : file.batches()) {
                            if (batch.isControlBatch()) {
                                continue;
                            }
                            for (Record r : batch) {
                                byte[] key = bytes(r.key());
                                byte[] value = r.hasValue() ? bytes(r.value()) : null;
                                records++;
                                withTags += same(decoder, key, value) ? 1 : 0;
                                cases++;
                                if (value == null) {
                                    continue;
                                }
                                for (int m = 0; m < 12; m++) {
                                    byte[] mutated = mutate(value, random);
                                    failing += decoder.decode(key, mutated) instanceof Unknown ? 1 : 0;
                                    same(decoder, key, mutated);
                                    cases++;
                                }
                            }
                        }
                    }
                }
            }
        }
        assertThat(records).isGreaterThan(1500);
        assertThat(withTags).isGreaterThan(1500);   // OffsetCommit v4's topicId, TransactionLog v1's tags, ...
        assertThat(failing).as("mutations that do not decode").isGreaterThan(cases / 10);
        assertThat(cases - records - failing).as("mutations that still decode").isGreaterThan(cases / 10);
    }

    private static String topic(Path partitionDir) {
        String name = partitionDir.getFileName().toString();
        return name.substring(0, name.lastIndexOf('-'));
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    private static byte[] mutate(byte[] value, Random random) {
        byte[] v = value.clone();
        switch (random.nextInt(5)) {
            case 0 -> v[random.nextInt(v.length)] = (byte) random.nextInt(256);
            case 1 -> v = java.util.Arrays.copyOf(v, random.nextInt(v.length + 1));
            case 2 -> {
                int at = random.nextInt(v.length + 1);
                byte[] w = new byte[v.length + 1];
                System.arraycopy(v, 0, w, 0, at);
                w[at] = (byte) random.nextInt(256);
                System.arraycopy(v, at, w, at + 1, v.length - at);
                v = w;
            }
            case 3 -> {
                if (v.length >= 2) {
                    v[1] = (byte) random.nextInt(6);   // another value version
                }
            }
            default -> {
                // the last byte (often a tagged-field count of 0) set to a small count
                v[v.length - 1] = (byte) random.nextInt(4);
            }
        }
        return v;
    }

    /** Compares the two paths; true when the record holds tagged fields. */
    private static boolean same(CoordinatorRecordDecoder decoder, byte[] key, byte[] value) {
        ByteBuffer k = ByteBuffer.wrap(key);
        ByteBuffer v = value == null ? null : ByteBuffer.wrap(value);
        int vl = value == null ? -1 : value.length;
        List<Heard> readTags = new ArrayList<>();
        List<Heard> checkTags = new ArrayList<>();
        CoordinatorResult read = decoder.decode(k, 0, key.length, v, 0, vl, (s, tag, f) -> readTags.add(new Heard(s.name(), tag, f)));
        CoordinatorResult checked = decoder.check(k, 0, key.length, v, 0, vl, (s, tag, f) -> checkTags.add(new Heard(s.name(), tag, f)));
        assertThat(checkTags).isEqualTo(readTags);
        if (read instanceof Unknown u) {
            CheckValueTest.sameUnknown(u, checked);
        } else {
            Decoded d = (Decoded) read;
            assertThat(checked).isInstanceOf(Decoded.class);
            Decoded c = (Decoded) checked;
            assertThat(c.valueVersion()).isEqualTo(d.valueVersion());
            assertThat(c.valueTrailingBytes()).isEqualTo(d.valueTrailingBytes());
            assertThat(c.valueVersion() < 0).as("a checked record is a tombstone by its version").isEqualTo(d.isTombstone());
            if (!d.isTombstone()) {
                assertThat(c.value()).isNull();
                assertThat(d.value().totalUnknownTaggedFields())
                        .isEqualTo(readTags.stream().filter(h -> h.field() == null).count());
            }
        }
        return !readTags.isEmpty();
    }
}
