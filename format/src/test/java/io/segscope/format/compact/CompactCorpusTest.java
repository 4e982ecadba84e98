package io.segscope.format.compact;

import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Every partition of every corpus run (real brokers: {@code __consumer_offsets},
 * {@code __transaction_state}, {@code __share_group_state}, the compacted topic, transactional and
 * plain topics of every codec, legacy magic 0 and 1 message sets from the 3.9.1 runs; the KRaft
 * metadata log excepted, which Kafka never cleans) compacted by segscope and by Kafka 4.4.0's cleaner
 * with the same settings: byte-identical files and the same stats ({@link CompactKafkaTest}). The
 * settings vary with the partition: every segment cleaned or only up to the active one, a dedupe
 * buffer small enough for several passes, delete retention 0 (tombstones and empty markers go in a
 * later pass of the same run) or Kafka's default.
 */
class CompactCorpusTest {
    /** After every corpus run: producers of the runs are expired (a day idle) at this time. */
    static final long NOW = 1_800_000_000_000L;

    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> everyCorpusPartitionAsKafkaCleansIt() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> runs = Files.list(Corpus.corpus())) {
            for (Path run : runs.filter(r -> Files.isDirectory(r.resolve("logdir"))).sorted().toList()) {
                try (Stream<Path> parts = Files.list(run.resolve("logdir"))) {
                    for (Path p : parts.filter(Files::isDirectory).sorted().toList()) {
                        String name = p.getFileName().toString();
                        if (name.startsWith("__cluster_metadata")) {
                            continue;
                        }
                        String id = run.getFileName() + "/" + name;
                        tests.add(DynamicTest.dynamicTest(id, () -> check(p, id)));
                    }
                }
            }
        }
        return tests.stream();
    }

    /**
     * The same, every segment read through a window (as segments over 256 MiB are, so that a huge
     * segment being cleaned does not count whole in the resident set) instead of mapped.
     */
    @TestFactory
    Stream<DynamicTest> everyCorpusPartitionReadThroughAWindow() throws IOException {
        return everyCorpusPartitionAsKafkaCleansIt().map(t -> DynamicTest.dynamicTest(t.getDisplayName(), () -> {
            String before = System.getProperty(io.segscope.format.io.MappedSource.WINDOWED_ABOVE_PROPERTY);
            System.setProperty(io.segscope.format.io.MappedSource.WINDOWED_ABOVE_PROPERTY, "0");
            try {
                t.getExecutable().execute();
            } finally {
                if (before == null) {
                    System.clearProperty(io.segscope.format.io.MappedSource.WINDOWED_ABOVE_PROPERTY);
                } else {
                    System.setProperty(io.segscope.format.io.MappedSource.WINDOWED_ABOVE_PROPERTY, before);
                }
            }
        }));
    }

    private void check(Path partition, String id) throws Exception {
        int h = Math.floorMod(id.hashCode(), 8);
        CompactSettings s = CompactSettings.defaults(NOW)
                .withCleanUpTo(h == 7 ? -1L : Long.MAX_VALUE)
                .withDedupeBufferBytes(h % 3 == 0 ? 24L * 40 : CompactSettings.DEFAULT_DEDUPE_BUFFER_BYTES)
                .withDeleteRetentionMs(h % 2 == 0 ? 0L : CompactSettings.DEFAULT_DELETE_RETENTION_MS)
                .withSegmentBytes(h == 5 ? 4096 : CompactSettings.DEFAULT_SEGMENT_BYTES);
        Path work = tmp.resolve(id.replace('/', '_'));
        try {
            CompactKafkaTest.sameAsKafka(partition, s, work);
        } finally {
            deleteQuietly(work);
        }
    }

    private static void deleteQuietly(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
