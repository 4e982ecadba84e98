package io.segscope.format.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.record.ReaderOptions;
import io.segscope.testdata.Corpus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.apache.kafka.tools.consumer.OffsetsMessageFormatter;
import org.junit.jupiter.api.Test;

/**
 * Who reads the committed offsets per release line ({@link Compatibility.Access}), on the corpus,
 * and the facts behind it checked on Kafka 4.4.0's own classes: its oldest Fetch version (KIP-896)
 * and what its offsets formatter ({@code kafka-console-consumer --formatter
 * org.apache.kafka.tools.consumer.OffsetsMessageFormatter}) does with a corpus record, a value
 * version it does not know and a record type it does not know.
 */
class CompatibilityAccessTest {

    private static Map<String, Compatibility.TopicFormats> run(String name) {
        List<FormatInventory.Counts> counts = new ArrayList<>();
        for (PartitionDir p : LogDir.open(Corpus.corpus().resolve(name).resolve("logdir")).partitions()) {
            counts.add(FormatInventory.of(p, ReaderOptions.defaults()));
        }
        return Compatibility.byTopic(counts);
    }

    private static Compatibility.Verdict verdict(List<Compatibility.Verdict> verdicts, String line) {
        return verdicts.stream().filter(v -> v.line().equals(line)).findFirst().orElseThrow();
    }

    /** KIP-896: 4.x serves no Fetch older than v4 (0.11's), so a 0.10 consumer cannot fetch at all. */
    @Test
    void kafka440ServesNoFetchOlderThanV4() {
        assertThat(ApiKeys.FETCH.oldestVersion()).isEqualTo((short) 4);
        assertThat(Compatibility.clientsOn4x("0.10.2")).startsWith("no: ");
        assertThat(Compatibility.clientsOn4x("0.11.0")).startsWith("unsupported: ");
        assertThat(Compatibility.clientsOn4x("2.0")).startsWith("unsupported: ");
        assertThat(Compatibility.clientsOn4x("2.1")).startsWith("yes: ");
        assertThat(Compatibility.clientsOn4x("3.9")).isEqualTo("yes: at or above KIP-896's 2.1 baseline");
    }

    @Test
    void theKraft440RunIsReadByItsOwnLineOnly() {
        List<Compatibility.Verdict> verdicts = Compatibility.judge(run("kraft-4.4.0-plain"));
        Compatibility.Access a44 = verdict(verdicts, "4.4").access();
        assertThat(a44).isEqualTo(new Compatibility.Access("yes", "yes: at or above KIP-896's 2.1 baseline", "yes"));
        Compatibility.Access a39 = verdict(verdicts, "3.9").access();
        assertThat(a39.consumers()).isEqualTo("no: Kafka 3.9 brokers do not load these logs");
        assertThat(a39.tools()).startsWith("no: Kafka 3.9's offsets and transaction log formatters do not know ShareGroupTargetAssignmentMetadata v0");
        assertThat(Compatibility.Access.word(verdict(verdicts, "0.10.0").access().clientsOn4x())).isEqualTo("no");
    }

    /** IBP 2.8 writes OffsetCommitValue v3 and GroupMetadataValue v3: 2.1 and 2.2 skip nothing of the offsets. */
    @Test
    void theIbp28RunsOffsetsPerLine() {
        Map<String, Compatibility.TopicFormats> topics = run("legacy-3.9.1-ibp2.8-lz4");
        List<Compatibility.Verdict> verdicts = Compatibility.judge(topics);
        assertThat(verdict(verdicts, "2.2").access().consumers()).isEqualTo("no: Kafka 2.2 brokers do not load these logs");
        assertThat(verdict(verdicts, "2.2").access().tools())
                .isEqualTo("no: Kafka 2.2's offsets and transaction log formatters do not know GroupMetadata v3");
        assertThat(verdict(verdicts, "2.3").access().consumers()).isEqualTo("yes");
        assertThat(verdict(verdicts, "2.0").access().tools()).contains("OffsetCommit v3", "GroupMetadata v3");
        // the records themselves hold nothing a 4.x broker refuses (moving a ZooKeeper-mode cluster to 4.x is another matter)
        assertThat(verdict(verdicts, "4.4").loads()).isTrue();
        assertThat(ThirdPartyDecoders.concerning(topics)).extracting(r -> r.project() + " " + r.reference()).containsExactly(
                "linkedin/Burrow #470", "linkedin/Burrow #560", "Yelp/kafka-utils PR #236", "quantifind/KafkaOffsetMonitor #106");
    }

    /** The reports name only what their trackers say: a type and value version of a coordinator record. */
    @Test
    void everyThirdPartyReportNamesARecordVersionKafkaWrites() {
        for (ThirdPartyDecoders.Report r : ThirdPartyDecoders.all()) {
            KnownRecord known = KafkaReleases.line("4.4").log(r.log()).record(r.type());
            assertThat(known).as(r.reference()).isNotNull();
            assertThat(r.version() < 0 || known.valueVersions().contains(r.version())).as(r.reference()).isTrue();
            assertThat(r.url()).startsWith("https://github.com/");
        }
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset, byte[] key, byte[] value) {
        return new ConsumerRecord<>("__consumer_offsets", 0, offset, key, value);
    }

    /**
     * 4.4.0's offsets formatter prints an OffsetCommitValue v4 with its topicId, skips a record type
     * it does not know (it catches UnknownRecordTypeException), and stops at a value version it does
     * not know: the exception names the offset and ends the console consumer.
     */
    @Test
    void kafka440sOffsetsFormatterStopsOnAnUnknownValueVersion() {
        byte[] key = MessageUtil.toVersionPrefixedBytes((short) 1, new OffsetCommitKey().setGroup("g").setTopic("t").setPartition(0));
        byte[] v4 = MessageUtil.toVersionPrefixedBytes((short) 4, new OffsetCommitValue().setOffset(42)
                .setTopicId(org.apache.kafka.common.Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAQ")));
        OffsetsMessageFormatter formatter = new OffsetsMessageFormatter();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        formatter.writeTo(record(7, key, v4), out);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("\"version\":4", "\"offset\":42", "\"topicId\":\"AAAAAAAAAAAAAAAAAAAAAQ\"");

        bytes.reset();
        byte[] unknownType = ByteBuffer.allocate(2).putShort((short) 999).array();
        formatter.writeTo(record(8, unknownType, new byte[] {0, 0}), out);
        assertThat(bytes.size()).isZero();

        byte[] v99 = ByteBuffer.allocate(2).putShort((short) 99).array();
        assertThatThrownBy(() -> formatter.writeTo(record(9, key, v99), out)).isInstanceOf(RuntimeException.class)
                .hasMessageStartingWith("Could not read record at offset 9 due to: ");
    }
}
