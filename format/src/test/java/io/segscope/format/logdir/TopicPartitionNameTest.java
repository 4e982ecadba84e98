package io.segscope.format.logdir;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.testkit.Gen;
import io.segscope.testkit.Tries;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.storage.internals.log.LocalLog;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link TopicPartitionName} against Kafka 4.4.0's {@code LocalLog.parseTopicPartitionName}. */
class TopicPartitionNameTest {
    private static final String UID = "0123456789abcdef0123456789abcdef";

    /** Kafka's answer, or empty when it throws. */
    static Optional<TopicPartition> kafka(String dirName) {
        try {
            return Optional.of(LocalLog.parseTopicPartitionName(new File("/logs", dirName)));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    static void assertSameAsKafka(String dirName) {
        Optional<TopicPartition> k = kafka(dirName);
        Optional<TopicPartitionName> mine = TopicPartitionName.tryParse(dirName);
        assertThat(mine.isPresent()).as("'%s' parses exactly when Kafka parses it", dirName).isEqualTo(k.isPresent());
        if (k.isPresent()) {
            assertThat(mine.get().topic()).as(dirName).isEqualTo(k.get().topic());
            assertThat(mine.get().partition()).as(dirName).isEqualTo(k.get().partition());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"my-topic-name-12", "orders-v2-0", "__cluster_metadata-0", "__consumer_offsets-49",
            "weird_topic-name.1-3", "t-0." + UID + "-delete", "t-0." + UID + "-future", "t-0." + UID + "-stray",
            "my.dotted.topic-7." + UID + "-delete", "t-0.x-delete", "topic", "topic-", "-1", "t-x", "t-0-delete",
            "t-0.-delete", "t-0" + UID + "-delete", "a b-0", "a b-0." + UID + "-delete", "t-+1", "t--1", "t-2147483648",
            "t-00012", "t-1.5", "t-0.a.b-delete", "-delete", "x-delete", "t-1.2-stray", "t-0." + UID + "-deleted"})
    void sameAsKafka(String dirName) {
        assertSameAsKafka(dirName);
    }

    @Test
    void docExamples() {
        assertThat(TopicPartitionName.parse("my-topic-name-12"))
                .isEqualTo(new TopicPartitionName("my-topic-name", 12, DirStatus.LIVE, null));
        assertThat(TopicPartitionName.parse("t-0." + UID + "-delete"))
                .isEqualTo(new TopicPartitionName("t", 0, DirStatus.DELETE, UID));
        assertThat(TopicPartitionName.parse("orders-v2-3." + UID + "-future").status()).isEqualTo(DirStatus.FUTURE);
        assertThat(TopicPartitionName.parse("orders-v2-3." + UID + "-stray").status()).isEqualTo(DirStatus.STRAY);
        TopicPartitionName meta = TopicPartitionName.parse("__cluster_metadata-0");
        assertThat(meta.isMetadataLog()).isTrue();
        assertThat(meta.topicPartition()).isEqualTo("__cluster_metadata-0");
        assertThatThrownBy(() -> TopicPartitionName.parse("lost+found")).isInstanceOfSatisfying(FormatException.class,
                e -> assertThat(e.violation()).isEqualTo(Violation.NAME_FORMAT));
    }

    /** Names Kafka itself builds for deletion, futures and strays parse back to the same partition. */
    @Test
    void namesKafkaBuilds() {
        for (String topic : new String[] {"t", "orders-v2", "weird_topic-name.1", "x".repeat(249)}) {
            TopicPartition tp = new TopicPartition(topic, 17);
            for (String name : new String[] {LocalLog.logDirName(tp), LocalLog.logDeleteDirName(tp),
                    LocalLog.logFutureDirName(tp), LocalLog.logStrayDirName(tp)}) {
                assertSameAsKafka(name);
                TopicPartitionName n = TopicPartitionName.parse(name);
                assertThat(n.partition()).isEqualTo(17);
                if (n.status() != DirStatus.LIVE) {
                    assertThat(n.uniqueId()).hasSize(32).matches("[0-9a-f]+");
                }
                // -delete and -stray names are capped at 255 characters by truncating the topic.
                assertThat(topic).startsWith(n.topic());
            }
        }
        TopicPartition longOne = new TopicPartition("y".repeat(249), 3);
        assertThat(TopicPartitionName.parse(LocalLog.logDeleteDirName(longOne)).topic()).hasSizeLessThan(249);
    }

    /** Up to eight pieces of names (separators, numbers, a unique id) and a suffix, real or nearly so. */
    static String dirName(Gen gen) {
        String body = String.join("", gen.list(0, 8, g -> g.choose("a", "t", "orders", "-", "-", ".", "0", "1", "12", "+",
                " ", "_", "2147483647", "2147483648", UID, "x", "\t")));
        return body + gen.choose("", "", "-delete", "-future", "-stray", "-deleted", "delete");
    }

    @TestFactory
    Stream<DynamicTest> randomNamesParseLikeKafka() {
        return Tries.of(65535, 2000, gen -> assertSameAsKafka(dirName(gen)));
    }
}
