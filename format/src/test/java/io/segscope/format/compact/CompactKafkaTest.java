package io.segscope.format.compact;

import io.segscope.testkit.Gen;
import io.segscope.testkit.Tries;
import org.apache.kafka.storage.internals.log.CleanerStats;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random partitions ({@link RandomPartition}) compacted by segscope and by Kafka 4.4.0's cleaner
 * ({@link KafkaCleanerOracle}) with the same random settings and clock: the same passes and end
 * offsets, the same {@code CleanerStats} figures, and the same {@code .log}, {@code .index},
 * {@code .timeindex} and {@code .txnindex} of every segment, byte for byte.
 */
class CompactKafkaTest {
    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> generatedPartitionsAsKafkaCleansThem() {
        return Tries.of(0xC0A1E5CEL, 40, gen -> {
            try {
                Path in = RandomPartition.write(gen, tmp.resolve(gen.seed() + "/in"), "topic");
                CompactSettings s = settings(gen);
                Path work = tmp.resolve(gen.seed() + "");
                try (KafkaCleanerOracle.Session kafka = KafkaCleanerOracle.open(in, work.resolve("kafka/topic-0"), s)) {
                    CompactResult first = sameAsKafka(in, s, work.resolve("ours1"), kafka);
                    // cleaned again (the whole log dirty again) once the delete horizons set have passed
                    CompactSettings later = s.withNow(s.now() + s.deleteRetentionMs() + 1);
                    sameAsKafka(first.partitionDir().orElseThrow(), later, work.resolve("ours2"), kafka);
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    /**
     * A partition whose {@code .txnindex} files are gone (copied without them, or not written by a
     * broker): segscope rebuilds the aborted transactions from the markers as Kafka's recovery
     * rebuilds the indexes, so the aborted data is still removed, byte for byte as Kafka does.
     */
    @TestFactory
    Stream<DynamicTest> withoutTxnIndexFiles() {
        return Tries.of(0x7A1D3E5L, 25, gen -> {
            try {
                Path in = RandomPartition.write(gen, tmp.resolve(gen.seed() + "/in"), "topic");
                try (Stream<Path> files = Files.list(in)) {
                    for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".txnindex")).toList()) {
                        Files.delete(f);
                    }
                }
                sameAsKafka(in, settings(gen), tmp.resolve(gen.seed() + ""));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    static CompactSettings settings(Gen gen) {
        return CompactSettings.defaults(RandomPartition.NOW)
                .withDeleteRetentionMs(gen.choose(0L, 1_000L, 86_400_000L))
                .withCleanUpTo(gen.oneIn(4) ? -1L : gen.oneIn(6) ? gen.intBetween(0, 400) : Long.MAX_VALUE)
                .withFirstDirtyOffset(gen.oneIn(6) ? gen.intBetween(0, 400) : -1L)
                .withSegmentBytes(gen.choose(CompactSettings.DEFAULT_SEGMENT_BYTES, 3_000, 20_000))
                .withMaxIndexBytes(gen.choose(CompactSettings.DEFAULT_MAX_INDEX_BYTES, 1024, 2400))
                .withIndexIntervalBytes(gen.choose(4096, 100, 0))
                .withDedupeBufferBytes(gen.choose(CompactSettings.DEFAULT_DEDUPE_BUFFER_BYTES, 24L * 12, 24L * 3, 24L * 40))
                .withProducerIdExpirationMs(gen.choose(3_600_000L, 86_400_000L))
                .withMinCompactionLagMs(gen.oneIn(5) ? 3_600_000L : 0L)
                .withHighWatermark(gen.oneIn(5) ? gen.intBetween(0, 400) : -1L);
    }

    /** Compacts {@code in} into {@code outDir} and a copy with Kafka under {@code work}; compares everything. */
    static CompactResult sameAsKafka(Path in, CompactSettings s, Path work) throws Exception {
        try (KafkaCleanerOracle.Session kafka = KafkaCleanerOracle.open(in, work.resolve("kafka").resolve(in.getFileName()), s)) {
            return sameAsKafka(in, s, work.resolve("ours"), kafka);
        }
    }

    /** Compacts {@code in} into {@code outDir}, cleans Kafka's open copy with the same settings; compares everything. */
    static CompactResult sameAsKafka(Path in, CompactSettings s, Path outDir, KafkaCleanerOracle.Session session) throws Exception {
        Map<String, byte[]> before = contents(in);
        CompactResult ours = Compactor.compact(in, s, outDir);
        Path kafkaDir = session.dir();
        KafkaCleanerOracle.Result kafka = session.clean(s);
        assertThat(contents(in)).as("the input is never modified").containsExactlyInAnyOrderEntriesOf(before);

        String what = in + " with " + s;
        CompactStats stats = ours.stats();
        assertThat(stats.rounds().stream().map(CompactStats.Round::endOffset).toList())
                .as("passes and their end offsets: " + what).isEqualTo(kafka.endOffsets());
        for (int i = 0; i < kafka.stats().size(); i++) {
            CleanerStats k = kafka.stats().get(i);
            CompactStats.Round r = stats.rounds().get(i);
            assertThat(new long[] {r.mapMessagesRead(), r.mapBytesRead(), r.messagesRead(), r.bytesRead(),
                    r.messagesWritten(), r.bytesWritten(), r.invalidMessagesRead()})
                    .as("pass " + i + " stats (map messages, map bytes, read, bytes read, written, bytes written, invalid): " + what)
                    .containsExactly(k.mapMessagesRead(), KafkaCleanerOracle.mapBytesRead(k), k.messagesRead(), k.bytesRead(),
                            k.messagesWritten(), k.bytesWritten(), k.invalidMessagesRead());
            assertThat(r.bufferUtilization()).isEqualTo(k.bufferUtilization());
        }

        Path ourDir = ours.partitionDir().orElseThrow();
        TreeMap<Long, Path> mine = segmentLogs(ourDir);
        TreeMap<Long, Path> theirs = segmentLogs(kafkaDir);
        long logEnd = stats.logEndOffset();
        // Kafka's roll leaves an empty active segment at the log end: not a segment of the input
        if (theirs.containsKey(logEnd) && Files.size(theirs.get(logEnd)) == 0 && !mine.containsKey(logEnd)) {
            theirs.remove(logEnd);
        }
        assertThat(mine.keySet()).as("segments: " + what).containsExactlyElementsOf(theirs.keySet());
        for (long base : mine.keySet()) {
            boolean cleaned = base < stats.cleanerCheckpoint();
            String name = String.format("%020d", base);
            if (!cleaned) {
                // copied as it is; Kafka's recovery of its copy may have cut a torn tail
                byte[] kb = Files.readAllBytes(kafkaDir.resolve(name + ".log"));
                byte[] ob = Files.readAllBytes(ourDir.resolve(name + ".log"));
                assertThat(Arrays.equals(kb, 0, kb.length, ob, 0, Math.min(kb.length, ob.length)) && kb.length <= ob.length)
                        .as(name + ".log (not cleaned) is Kafka's, maybe with a torn tail: " + what).isTrue();
                continue;
            }
            for (String ext : List.of(".log", ".index", ".timeindex", ".txnindex")) {
                Path k = kafkaDir.resolve(name + ext);
                Path o = ourDir.resolve(name + ext);
                assertThat(Files.exists(o)).as(name + ext + " exists: " + what).isEqualTo(Files.exists(k));
                if (Files.exists(k)) {
                    byte[] kb = Files.readAllBytes(k);
                    byte[] ob = Files.readAllBytes(o);
                    if (!Arrays.equals(kb, ob)) {
                        throw new AssertionError(name + ext + " differs: Kafka " + kb.length + " bytes, segscope " + ob.length
                                + ", first difference at " + Arrays.mismatch(kb, ob) + "; " + what);
                    }
                }
            }
        }
        return ours;
    }

    static TreeMap<Long, Path> segmentLogs(Path dir) throws Exception {
        TreeMap<Long, Path> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                String n = p.getFileName().toString();
                if (n.matches("\\d{20}\\.log")) {
                    out.put(Long.parseLong(n.substring(0, 20)), p);
                }
            }
        }
        return out;
    }

    static Map<String, byte[]> contents(Path dir) throws Exception {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                if (Files.isRegularFile(p)) {
                    out.put(p.getFileName().toString() + "@" + Files.getLastModifiedTime(p).toMillis(), Files.readAllBytes(p));
                }
            }
        }
        return out;
    }
}
