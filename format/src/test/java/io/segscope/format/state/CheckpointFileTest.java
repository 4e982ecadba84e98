package io.segscope.format.state;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.testkit.Gen;
import io.segscope.testkit.Tries;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.storage.internals.checkpoint.LeaderEpochCheckpointFile;
import org.apache.kafka.storage.internals.checkpoint.OffsetCheckpointFile;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Offset checkpoints and leader-epoch-checkpoint against Kafka 4.4.0's {@code CheckpointFile} readers and writers. */
class CheckpointFileTest {
    @TempDir
    Path tmp;

    private static ByteSource text(String s, String name) {
        return ByteSource.wrap(ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8)), name);
    }

    private Path file(String name, String content) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("d" + System.nanoTime()).resolve("p-0"));
        return Files.writeString(dir.resolve(name), content);
    }

    @Test
    void offsetCheckpointWrittenByKafka() throws Exception {
        Path file = tmp.resolve(OffsetCheckpoint.RECOVERY_POINT);
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        offsets.put(new TopicPartition("weird_topic-name.1", 0), 101L);
        offsets.put(new TopicPartition("__consumer_offsets", 49), 0L);
        offsets.put(new TopicPartition("orders-v2", 12), 368_769L);
        new OffsetCheckpointFile(file.toFile(), new LogDirFailureChannel(1)).write(offsets);
        assertThat(Files.exists(tmp.resolve(OffsetCheckpoint.RECOVERY_POINT + ".tmp"))).isFalse();
        assertThat(KafkaStateOracle.assertOffsetCheckpointMatchesKafka(file)).isEqualTo(3);
        List<TopicPartitionOffset> entries = OffsetCheckpoint.read(text(Files.readString(file), "r"));
        assertThat(entries).extracting(TopicPartitionOffset::topic).contains("weird_topic-name.1", "orders-v2");
        assertThat(entries.get(0).position()).isEqualTo(4);  // "0\n3\n" then the first entry
    }

    @Test
    void leaderEpochCheckpointWrittenByKafka() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("orders-0"));
        Path file = dir.resolve(LeaderEpochCheckpoint.FILE_NAME);
        new LeaderEpochCheckpointFile(file.toFile(), new LogDirFailureChannel(1)).write(List.of(
                new org.apache.kafka.storage.internals.log.EpochEntry(0, 0),
                new org.apache.kafka.storage.internals.log.EpochEntry(3, 1200),
                new org.apache.kafka.storage.internals.log.EpochEntry(7, 98_000)));
        assertThat(KafkaStateOracle.assertLeaderEpochCheckpointMatchesKafka(file)).isEqualTo(3);
        assertThat(LeaderEpochCheckpoint.read(text(Files.readString(file), "l")))
                .containsExactly(new EpochEntry(0, 0, 4), new EpochEntry(3, 1200, 8), new EpochEntry(7, 98_000, 15));
    }

    /** A real 4.4.0 leader-epoch-checkpoint is 8 bytes: "0", "1", "0 0". */
    @Test
    void realBrokerLeaderEpochFile() throws Exception {
        assertThat(KafkaStateOracle.assertLeaderEpochCheckpointMatchesKafka(file("leader-epoch-checkpoint", "0\n1\n0 0\n"))).isEqualTo(1);
    }

    @Test
    void emptyFileAndVersionOnlyHaveNoEntries() throws Exception {
        assertThat(OffsetCheckpoint.read(text("", "e"))).isEmpty();
        assertThat(OffsetCheckpoint.read(text("0\n", "e"))).isEmpty();
        assertThat(OffsetCheckpoint.read(text("0", "e"))).isEmpty();
        assertThat(KafkaStateOracle.assertOffsetCheckpointMatchesKafka(file("a", ""))).isZero();
        assertThat(KafkaStateOracle.assertOffsetCheckpointMatchesKafka(file("b", "0\n"))).isZero();
    }

    @Test
    void badVersion() throws Exception {
        assertThatThrownBy(() -> OffsetCheckpoint.read(text("1\n0\n", "v"))).isInstanceOfSatisfying(FormatException.class, e -> {
            assertThat(e.violation()).isEqualTo(Violation.CHECKPOINT_VERSION);
            assertThat(e.position()).isZero();
            assertThat(e.actual()).isEqualTo("1");
        });
        assertThatThrownBy(() -> OffsetCheckpoint.read(text("0 \n0\n", "v"))).isInstanceOfSatisfying(FormatException.class, e -> {
            assertThat(e.violation()).isEqualTo(Violation.CHECKPOINT_FORMAT);
            assertThat(e.field()).isEqualTo("version");
        });
        assertThat(KafkaStateOracle.assertOffsetCheckpointMatchesKafka(file("v", "1\n0\n"))).isEqualTo(-1);
        assertThat(KafkaStateOracle.assertOffsetCheckpointMatchesKafka(file("w", "0 \n0\n"))).isEqualTo(-1);
    }

    @Test
    void countDisagreesWithEntries() throws Exception {
        assertThatThrownBy(() -> OffsetCheckpoint.read(text("0\n3\na 0 1\nb 0 2\n", "c"))).isInstanceOfSatisfying(FormatException.class, e -> {
            assertThat(e.violation()).isEqualTo(Violation.CHECKPOINT_COUNT);
            assertThat(e.position()).isEqualTo(2);  // the count line
            assertThat(e.actual()).isEqualTo("2 entries");
        });
        assertThatThrownBy(() -> OffsetCheckpoint.read(text("0\n1\na 0 1\nb 0 2\n", "c"))).isInstanceOfSatisfying(FormatException.class, e -> {
            assertThat(e.violation()).isEqualTo(Violation.CHECKPOINT_COUNT);
            assertThat(e.position()).isEqualTo(10);  // the first surplus entry
        });
        assertThatThrownBy(() -> OffsetCheckpoint.read(text("0\n-1\n", "c"))).isInstanceOfSatisfying(FormatException.class, e -> {
            assertThat(e.violation()).isEqualTo(Violation.CHECKPOINT_COUNT);
            assertThat(e.position()).isEqualTo(2);
        });
        assertThat(KafkaStateOracle.assertOffsetCheckpointMatchesKafka(file("x", "0\n3\na 0 1\nb 0 2\n"))).isEqualTo(-1);
        assertThat(KafkaStateOracle.assertOffsetCheckpointMatchesKafka(file("y", "0\n1\na 0 1\nb 0 2\n"))).isEqualTo(-1);
        assertThat(KafkaStateOracle.assertOffsetCheckpointMatchesKafka(file("z", "0\n-1\n"))).isEqualTo(-1);
    }

    @Test
    void malformedEntryLines() throws Exception {
        for (String bad : new String[] {"a 0", "a 0 1 2", " a 0 1", "a x 1", "a 0 1.5", ""}) {
            String content = "0\n2\nok 0 1\n" + bad + "\n";
            assertThatThrownBy(() -> OffsetCheckpoint.read(text(content, "m"))).as(bad).isInstanceOfSatisfying(FormatException.class, e -> {
                assertThat(e.violation()).isEqualTo(Violation.CHECKPOINT_FORMAT);
                assertThat(e.position()).isEqualTo(11);
            });
            assertThat(KafkaStateOracle.assertOffsetCheckpointMatchesKafka(file("m", content))).as(bad).isEqualTo(-1);
        }
        // Tabs, several spaces, trailing spaces and CRLF are all fine for Kafka's \s+ split.
        String ok = "0\r\n3\r\na\t0   1  \r\nb 1 2\rc 2 3";
        assertThat(OffsetCheckpoint.read(text(ok, "ok"))).extracting(TopicPartitionOffset::offset).containsExactly(1L, 2L, 3L);
        assertThat(KafkaStateOracle.assertOffsetCheckpointMatchesKafka(file("ok", ok))).isEqualTo(3);
    }

    @Test
    void notUtf8() throws Exception {
        byte[] bytes = {'0', '\n', '1', '\n', 't', (byte) 0xC3, ' ', '0', ' ', '1', '\n'};
        assertThatThrownBy(() -> OffsetCheckpoint.read(ByteSource.wrap(ByteBuffer.wrap(bytes), "u")))
                .isInstanceOfSatisfying(FormatException.class, e -> {
                    assertThat(e.violation()).isEqualTo(Violation.CHECKPOINT_FORMAT);
                    assertThat(e.position()).isEqualTo(4);
                });
        Path f = file("u", "");
        Files.write(f, bytes);
        assertThat(KafkaStateOracle.assertOffsetCheckpointMatchesKafka(f)).isEqualTo(-1);
    }

    /** Duplicate partitions: Kafka's map keeps the last line; segscope lists both and maps like Kafka. */
    @Test
    void duplicatePartitionsLastWins() throws Exception {
        String content = "0\n2\na 0 1\na 0 7\n";
        assertThat(OffsetCheckpoint.toMap(OffsetCheckpoint.read(text(content, "d")))).containsEntry("a-0", 7L).hasSize(1);
        assertThat(KafkaStateOracle.assertOffsetCheckpointMatchesKafka(file("d", content))).isEqualTo(2);
    }

    // ---- differential fuzzing against Kafka's reader -----------------------------------------

    private static final String[] SEPARATORS = {" ", " ", " ", "  ", "\t", " \t ", "\u000B", "\f"};
    private static final String[] TOKENS = {"t", "orders-v2", "weird_topic-name.1", "0", "1", "-1", "+3", "12",
            "9223372036854775807", "9223372036854775808", "2147483648", "x", "1.0", "ü"};

    /** An entry line: up to four tokens, separated (and sometimes preceded) by whitespace of several kinds. */
    static String checkpointLine(Gen gen) {
        List<String> ts = gen.list(0, 4, g -> g.choose(TOKENS));
        List<String> ss = gen.list(ts.size() + 1, ts.size() + 1, g -> g.choose(SEPARATORS));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ts.size(); i++) {
            if (i > 0 || ss.get(0).length() > 1) {
                sb.append(i == 0 ? ss.get(0) : ss.get(i));
            }
            sb.append(ts.get(i));
        }
        return sb.toString();
    }

    /** A text near the checkpoint format: empty, version only, or version, count and lines, with or without the last newline. */
    static String checkpointText(Gen gen) {
        String v = gen.choose("0", "0", "0", "1", "-0", "+0", "00", " 0", "0 ", "x", "", "2147483648");
        String c = gen.choose("0", "1", "2", "3", "4", "-1", "+2", " 2", "2 ", "a", "");
        List<String> lines = gen.list(0, 5, CheckpointFileTest::checkpointLine);
        String nl = gen.choose("\n", "\n", "\n", "\r\n", "\r");
        int shape = gen.intBetween(0, 3);
        StringBuilder sb = new StringBuilder();
        if (shape == 0) {
            return "";
        }
        sb.append(v).append(nl);
        if (shape == 1) {
            return sb.toString();
        }
        sb.append(c).append(nl);
        for (String l : lines) {
            sb.append(l).append(nl);
        }
        return shape == 3 && sb.length() > 0 ? sb.substring(0, sb.length() - nl.length()) : sb.toString();
    }

    /** Random texts near the format: segscope refuses exactly the files Kafka refuses, and reads the rest alike. */
    @TestFactory
    Stream<DynamicTest> offsetCheckpointsReadLikeKafka() {
        return Tries.of(271828, 400, gen -> offsetCheckpointsReadLikeKafka(checkpointText(gen)));
    }

    private static void offsetCheckpointsReadLikeKafka(String content) throws Exception {
        Path dir = Files.createTempDirectory("segscope-ckpt");
        try {
            Path f = Files.writeString(dir.resolve("replication-offset-checkpoint"), content);
            KafkaStateOracle.assertOffsetCheckpointMatchesKafka(f);
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> leaderEpochCheckpointsReadLikeKafka() {
        return Tries.of(314159, 300, gen -> leaderEpochCheckpointsReadLikeKafka(checkpointText(gen)));
    }

    private static void leaderEpochCheckpointsReadLikeKafka(String content) throws Exception {
        Path dir = Files.createTempDirectory("segscope-ckpt");
        try {
            Path p = Files.createDirectories(dir.resolve("t-0"));
            Path f = Files.writeString(p.resolve("leader-epoch-checkpoint"), content);
            KafkaStateOracle.assertLeaderEpochCheckpointMatchesKafka(f);
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
