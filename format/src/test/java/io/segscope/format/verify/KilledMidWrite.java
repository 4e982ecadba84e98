package io.segscope.format.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.segscope.testdata.Corpus;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.apache.kafka.storage.internals.log.UnifiedLog;
import org.apache.kafka.storage.log.metrics.BrokerTopicStats;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The corpus run {@code kraft-4.4.0-killed-mid-write}: a broker SIGKILLed during a burst of large
 * batches, and partition dirs copied file by file while it wrote (testdata/corpus/README.md). What
 * the generator recorded in its {@code run.json} about the copy, and Kafka's own recovery of a
 * partition dir, for the tests of every module (inspector takes this class from the format test-jar).
 */
public final class KilledMidWrite {
    public static final String NAME = "kraft-4.4.0-killed-mid-write";
    public static final String COPY_DIR = "copied-while-writing";

    private KilledMidWrite() {
    }

    public static Path run() {
        return Corpus.corpus().resolve(NAME);
    }

    public static Path logDir() {
        return run().resolve("logdir");
    }

    /** The partition dirs copied while the broker wrote. */
    public static Path copied() {
        return run().resolve(COPY_DIR);
    }

    public static JsonNode runJson() {
        try {
            return new ObjectMapper().readTree(run().resolve("run.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** run.json → workload.midWrite. */
    public static JsonNode midWrite() {
        return runJson().get("workload").get("midWrite");
    }

    /** The {@code __consumer_offsets} partition every group of the burst commits to. */
    public static String offsetsDir() {
        return "__consumer_offsets-" + midWrite().get("offsetsPartition").asInt();
    }

    /**
     * The copied segment that ends inside a batch, as the generator found it right after copying:
     * the file, its size, where its last whole batch ends ({@code tornAt}), and the torn batch's
     * baseOffset and declared size (batchLength + 12) from the part of its header that was copied.
     */
    public record TornCopy(Path log, long size, long tornAt, long tornBaseOffset, long tornBatchSize,
                           long lastWholeOffset) {
        /** The torn batch's last offset: its baseOffset plus the lastOffsetDelta of the copied header. */
        public long tornLastOffset() throws IOException {
            ByteBuffer b = ByteBuffer.allocate(4);
            try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ)) {
                ch.read(b, tornAt + 23); // docs/format.md 1.2: lastOffsetDelta at byte 23 of the batch
            }
            return tornBaseOffset + b.getInt(0);
        }
    }

    public static TornCopy tornCopy() {
        for (Iterator<Map.Entry<String, JsonNode>> it = midWrite().get("copy").get("burst-0").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode tail = e.getValue().get("tail");
            if (tail != null && tail.get("torn").asBoolean()) {
                return new TornCopy(copied().resolve("burst-0").resolve(e.getKey()), tail.get("size").asLong(),
                        tail.get("tornAt").asLong(), tail.get("tornBaseOffset").asLong(),
                        tail.get("tornBatchSizeWithHeader").asLong(), tail.get("lastWholeBatchLastOffset").asLong());
            }
        }
        throw new IllegalStateException("run.json records no torn copy of burst-0");
    }

    /** Copies the files of partition dir {@code source} into {@code target} (created), unchanged. */
    public static Path copyPartition(Path source, Path target) throws IOException {
        Files.createDirectories(target);
        try (Stream<Path> s = Files.list(source)) {
            for (Path f : s.toList()) {
                Files.copy(f, target.resolve(f.getFileName()));
            }
        }
        return target;
    }

    /** What Kafka's load of a partition dir left: its log end offset and the active segment's size. */
    public record Recovered(long logStartOffset, long logEndOffset, long activeSegmentBase, long activeSegmentSize,
                            int segments) {
    }

    /**
     * Opens partition dir {@code dir} (a copy: Kafka rewrites it) with Kafka 4.4.0's {@code UnifiedLog}
     * as a broker does after an unclean shutdown (recovery point 0: every segment recovered, each
     * batch checked, a torn tail truncated, indexes rebuilt) and closes it.
     */
    public static Recovered recover(Path dir) throws IOException {
        KafkaScheduler scheduler = new KafkaScheduler(1);
        scheduler.startup();
        try {
            UnifiedLog log = UnifiedLog.create(dir.toFile(), new LogConfig(Map.of("file.delete.delay.ms", "3600000")),
                    0L, 0L, scheduler, new BrokerTopicStats(), Time.SYSTEM, 60_000,
                    new ProducerStateManagerConfig(86_400_000, false), 600_000, new LogDirFailureChannel(1), false,
                    Optional.empty());
            try {
                return new Recovered(log.logStartOffset(), log.logEndOffset(), log.activeSegment().baseOffset(),
                        log.activeSegment().size(), log.numberOfSegments());
            } finally {
                log.close();
            }
        } finally {
            try {
                scheduler.shutdown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
