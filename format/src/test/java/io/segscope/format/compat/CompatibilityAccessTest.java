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

    /**
     * 3.3.2's offsets formatter ({@code kafka.coordinator.group.GroupMetadataManager$OffsetsMessageFormatter},
     * run in a class loader of its own with its clients jar and a Scala 2.13 runtime) prints an
     * OffsetCommitValue v3 and throws on the corpus's OffsetCommitValue v4 ("Unknown offset message
     * version: 4"), which ends the console consumer: 3.3's TOOLS answer on the 4.4.0 run is no.
     */
    @Test
    void kafka332sOffsetsFormatterStopsOnTheCorpusV4() throws Throwable {
        java.nio.file.Path releases = java.nio.file.Path.of("target", "kafka-releases");
        java.net.URL[] urls = {releases.resolve("kafka_2.13-3.3.2.jar").toUri().toURL(),
            releases.resolve("kafka-clients-3.3.2.jar").toUri().toURL(), releases.resolve("scala-library-2.13.15.jar").toUri().toURL()};
        try (java.net.URLClassLoader kafka332 = new java.net.URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
            Class<?> formatterClass = kafka332.loadClass("kafka.coordinator.group.GroupMetadataManager$OffsetsMessageFormatter");
            Object formatter = formatterClass.getConstructor().newInstance();
            Class<?> recordClass = kafka332.loadClass("org.apache.kafka.clients.consumer.ConsumerRecord");
            java.lang.reflect.Constructor<?> newRecord = recordClass.getConstructor(String.class, int.class, long.class, Object.class,
                    Object.class);
            java.lang.reflect.Method writeTo = formatterClass.getMethod("writeTo", recordClass, PrintStream.class);
            byte[] key = MessageUtil.toVersionPrefixedBytes((short) 1, new OffsetCommitKey().setGroup("g").setTopic("t").setPartition(0));
            byte[] v3 = MessageUtil.toVersionPrefixedBytes((short) 3, new OffsetCommitValue().setOffset(42).setCommitTimestamp(1000));
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
            writeTo.invoke(formatter, newRecord.newInstance("__consumer_offsets", 0, 7L, key, v3), out);
            assertThat(bytes.toString(StandardCharsets.UTF_8)).startsWith("[g,t,0]::OffsetAndMetadata(offset=42,");

            byte[][] corpusV4 = firstOffsetCommitV4();
            assertThatThrownBy(() -> {
                try {
                    writeTo.invoke(formatter, newRecord.newInstance("__consumer_offsets", 0, 8L, corpusV4[0], corpusV4[1]), out);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                }
            }).isInstanceOf(IllegalStateException.class).hasMessage("Unknown offset message version: 4");
        }
        List<Compatibility.Verdict> verdicts = Compatibility.judge(run("kraft-4.4.0-plain"));
        assertThat(verdict(verdicts, "3.3").access().tools()).startsWith("no: Kafka 3.3's offsets and transaction log formatters do not know")
                .contains("OffsetCommit v4");
    }

    /** The key and value of the first OffsetCommit v4 record of the 4.4.0 run. */
    private static byte[][] firstOffsetCommitV4() throws java.io.IOException {
        for (PartitionDir p : LogDir.open(Corpus.corpus().resolve("kraft-4.4.0-plain").resolve("logdir")).partitions()) {
            if (!p.topic().equals("__consumer_offsets")) {
                continue;
            }
            for (io.segscope.format.logdir.LogFile f : FormatInventory.files(p)) {
                try (org.apache.kafka.common.record.internal.FileRecords file =
                             org.apache.kafka.common.record.internal.FileRecords.open(new java.io.File(f.path()), false)) {
                    for (org.apache.kafka.common.record.internal.RecordBatch b : file.batches()) {
                        for (org.apache.kafka.common.record.internal.Record r : b) {
                            if (!b.isControlBatch() && r.hasValue() && r.key().getShort(0) == 1 && r.value().getShort(0) == 4) {
                                byte[] k = new byte[r.keySize()];
                                r.key().get(k);
                                byte[] v = new byte[r.valueSize()];
                                r.value().get(v);
                                return new byte[][] {k, v};
                            }
                        }
                    }
                }
            }
        }
        throw new AssertionError("no OffsetCommitValue v4 in the 4.4.0 run");
    }
}
