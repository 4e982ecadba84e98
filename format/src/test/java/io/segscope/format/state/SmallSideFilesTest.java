package io.segscope.format.state;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.KafkaUuid;
import io.segscope.testkit.Gen;
import io.segscope.testkit.Tries;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.properties.MetaPropertiesVersion;
import org.apache.kafka.metadata.properties.PropertiesUtils;
import org.apache.kafka.storage.internals.checkpoint.CleanShutdownFileHandler;
import org.apache.kafka.storage.internals.checkpoint.PartitionMetadataFile;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** partition.metadata, meta.properties and .kafka_cleanshutdown against Kafka 4.4.0's readers and writers. */
class SmallSideFilesTest {
    @TempDir
    Path tmp;

    private static ByteSource text(String s, String name) {
        return ByteSource.wrap(ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8)), name);
    }

    private Path partitionDir() throws Exception {
        return Files.createDirectories(tmp.resolve("d" + System.nanoTime()).resolve("orders-0"));
    }

    // ---- partition.metadata ----------------------------------------------------------------

    @Test
    void partitionMetadataWrittenByKafka() throws Exception {
        Path file = partitionDir().resolve(PartitionMetadata.FILE_NAME);
        Uuid id = Uuid.randomUuid();
        PartitionMetadataFile kafka = new PartitionMetadataFile(file.toFile(), new LogDirFailureChannel(1));
        kafka.record(id);
        kafka.maybeFlush();
        assertThat(Files.size(file)).isEqualTo(43);  // 11 + 10 + 22, no final newline
        assertThat(KafkaStateOracle.assertPartitionMetadataMatchesKafka(file)).isEqualTo(1);
        PartitionMetadata m = PartitionMetadata.read(text(Files.readString(file), "pm"));
        assertThat(m.version()).isZero();
        assertThat(m.topicId().toString()).isEqualTo(id.toString());
        assertThat(KafkaUuid.parse(id.toString())).isEqualTo(new KafkaUuid(id.getMostSignificantBits(), id.getLeastSignificantBits()));
    }

    @Test
    void partitionMetadataErrors() throws Exception {
        String good = Uuid.randomUuid().toString();
        String[][] cases = {
                {"version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA", "UUID_FORMAT", "11"},     // all zero
                {"version: 0\ntopic_id: not-a-uuid", "UUID_FORMAT", "11"},
                {"version: 0\ntopic_id: " + good + "AAAA", "UUID_FORMAT", "11"},
                {"version: -1\ntopic_id: " + good, "CHECKPOINT_VERSION", "0"},
                {"version:0\ntopic_id: " + good, "CHECKPOINT_FORMAT", "0"},
                {"version: x\ntopic_id: " + good, "CHECKPOINT_FORMAT", "0"},
                {"version: 0\n", "CHECKPOINT_FORMAT", "10"},
                {"", "CHECKPOINT_FORMAT", "0"},
                {"version: 0\ntopic_id: a: b", "CHECKPOINT_FORMAT", "11"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> PartitionMetadata.read(text(c[0], "pm"))).as(c[0]).isInstanceOfSatisfying(FormatException.class, e -> {
                assertThat(e.violation()).isEqualTo(Violation.valueOf(c[1]));
                assertThat(e.position()).isEqualTo(Long.parseLong(c[2]));
            });
            Path f = Files.writeString(partitionDir().resolve(PartitionMetadata.FILE_NAME), c[0]);
            assertThat(KafkaStateOracle.assertPartitionMetadataMatchesKafka(f)).as(c[0]).isEqualTo(-1);
        }
        // Kafka checks neither the key names nor the version's upper bound, and ignores later lines.
        String lax = "v: 7\r\nid:\t" + good + "\nwhatever\n";
        assertThat(PartitionMetadata.read(text(lax, "pm")).version()).isEqualTo(7);
        assertThat(KafkaStateOracle.assertPartitionMetadataMatchesKafka(
                Files.writeString(partitionDir().resolve(PartitionMetadata.FILE_NAME), lax))).isEqualTo(1);
    }

    /** Lines of key, separator and value near partition.metadata's format, joined by one kind of line end. */
    static String partitionMetadataText(Gen gen) {
        List<String> lines = gen.list(0, 3, g -> g.choose("version", "topic_id", "", "x")
                + g.choose(": ", ": ", ":", ":\t", ":  ", " : ", ": : ")
                + g.choose("0", "1", "-1", "2147483648", "x", new Uuid(g.anyLong(), g.anyLong()).toString(),
                        "AAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAAQ", "AAAAAAAAAAAAAAAAAAAAAQ==", "AAAAAAAAAAAAAAAAAAAAA",
                        "a+b/AAAAAAAAAAAAAAAAAA", ""));
        String nl = gen.choose("\n", "\r\n", "\r");
        boolean last = gen.bool();
        String s = String.join(nl, lines);
        return last && !lines.isEmpty() ? s + nl : s;
    }

    @TestFactory
    Stream<DynamicTest> partitionMetadataReadsLikeKafka() {
        return Tries.of(1618, 300, gen -> partitionMetadataReadsLikeKafka(partitionMetadataText(gen)));
    }

    private static void partitionMetadataReadsLikeKafka(String content) throws Exception {
        Path dir = Files.createTempDirectory("segscope-pm");
        try {
            Path p = Files.createDirectories(dir.resolve("t-0"));
            KafkaStateOracle.assertPartitionMetadataMatchesKafka(Files.writeString(p.resolve("partition.metadata"), content));
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
            }
        }
    }

    // ---- meta.properties --------------------------------------------------------------------

    @Test
    void metaPropertiesV1WrittenByKafka() throws Exception {
        Uuid dir = Uuid.randomUuid();
        org.apache.kafka.metadata.properties.MetaProperties mp = new org.apache.kafka.metadata.properties.MetaProperties.Builder()
                .setVersion(MetaPropertiesVersion.V1).setClusterId("MkU3OEVBNTcwNTJENDM2Qg").setNodeId(1)
                .setDirectoryId(dir).build();
        Path file = tmp.resolve(MetaProperties.FILE_NAME);
        PropertiesUtils.writePropertiesFile(mp.toProperties(), file.toString(), false);
        assertThat(KafkaStateOracle.assertMetaPropertiesMatchesKafka(file)).isEqualTo(1);
        MetaProperties m = MetaProperties.read(text(Files.readString(file), "meta.properties"));
        assertThat(m.version()).isEqualTo(1);
        assertThat(m.nodeId()).hasValue(1);
        assertThat(m.clusterId()).hasValue("MkU3OEVBNTcwNTJENDM2Qg");
        assertThat(m.directoryId().map(KafkaUuid::toString)).hasValue(dir.toString());
        assertThat(m.properties()).containsKeys("version", "node.id", "cluster.id", "directory.id");
    }

    @Test
    void metaPropertiesV0WrittenByKafka() throws Exception {
        Path file = tmp.resolve(MetaProperties.FILE_NAME);
        Properties p = new org.apache.kafka.metadata.properties.MetaProperties.Builder()
                .setVersion(MetaPropertiesVersion.V0).setClusterId("abc").setNodeId(3).build().toProperties();
        PropertiesUtils.writePropertiesFile(p, file.toString(), false);
        assertThat(KafkaStateOracle.assertMetaPropertiesMatchesKafka(file)).isEqualTo(1);
        MetaProperties m = MetaProperties.read(text(Files.readString(file), "meta.properties"));
        assertThat(m.version()).isZero();
        assertThat(m.nodeId()).hasValue(3);
        assertThat(m.properties()).containsKey("broker.id");
    }

    @Test
    void metaPropertiesErrors() throws Exception {
        String dir = Uuid.randomUuid().toString();
        String[][] cases = {
                {"version=2\nnode.id=1\ncluster.id=c\n", "PROPERTIES_VERSION"},
                {"version=one\n", "PROPERTIES_VERSION"},
                {"version=1\ncluster.id=c\n", "PROPERTIES_FORMAT"},
                {"version=1\nnode.id=x\ncluster.id=c\n", "PROPERTIES_FORMAT"},
                {"version=1\nnode.id=1\n", "PROPERTIES_FORMAT"},
                {"version=0\nbroker.id=1 \n", "PROPERTIES_FORMAT"},
                {"version=1\nnode.id=1\ncluster.id=c\ndirectory.id=nope\n", "UUID_FORMAT"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> MetaProperties.read(text(c[0], "meta.properties"))).as(c[0])
                    .isInstanceOfSatisfying(FormatException.class, e -> assertThat(e.violation()).isEqualTo(Violation.valueOf(c[1])));
            Path f = Files.writeString(tmp.resolve("m" + System.nanoTime() + ".properties"), c[0]);
            assertThat(KafkaStateOracle.assertMetaPropertiesMatchesKafka(f)).as(c[0]).isEqualTo(-1);
        }
        String[] accepted = {"", "#only a comment\n", "version = 1 \nnode.id=7\ncluster.id=\n", "cluster.id=x\n",
                "version=0\nbroker.id=5\ndirectory.id=" + dir + "\n", "version:1\nnode.id:2\ncluster.id:c\n"};
        for (String a : accepted) {
            Path f = Files.writeString(tmp.resolve("a" + System.nanoTime() + ".properties"), a);
            assertThat(KafkaStateOracle.assertMetaPropertiesMatchesKafka(f)).as(a).isEqualTo(1);
        }
    }

    // ---- .kafka_cleanshutdown ---------------------------------------------------------------

    @Test
    void cleanShutdownWrittenByKafka() throws Exception {
        new CleanShutdownFileHandler(tmp.toString()).write(1_234_567L);
        Path file = tmp.resolve(CleanShutdown.FILE_NAME);
        assertThat(Files.readString(file)).isEqualTo("{\"version\":0,\"brokerEpoch\":1234567}");
        assertThat(KafkaStateOracle.assertCleanShutdownMatchesKafka(file)).isEqualTo(1);
        assertThat(CleanShutdown.read(text(Files.readString(file), "c"))).isEqualTo(new CleanShutdown(0, 1_234_567L));
    }

    @Test
    void cleanShutdownVariants() throws Exception {
        String[] accepted = {"{\"brokerEpoch\":5}", "{\"version\":0,\"brokerEpoch\":-1,\"extra\":[1,{\"a\":2}]}",
                " {\"brokerEpoch\" : 9223372036854775807 } ", "{\"version\":3,\"brokerEpoch\":4}"};
        for (String a : accepted) {
            Files.writeString(tmp.resolve(CleanShutdown.FILE_NAME), a);
            assertThat(KafkaStateOracle.assertCleanShutdownMatchesKafka(tmp.resolve(CleanShutdown.FILE_NAME))).as(a).isEqualTo(1);
        }
        // empty, as brokers before 3.7 leave it: Kafka reads no broker epoch, and the file still marks a clean shutdown
        Files.writeString(tmp.resolve(CleanShutdown.FILE_NAME), "");
        assertThat(new org.apache.kafka.storage.internals.checkpoint.CleanShutdownFileHandler(tmp.toString()).read()).isEmpty();
        assertThat(CleanShutdown.read(text("", "c"))).isEqualTo(new CleanShutdown(0, CleanShutdown.NO_BROKER_EPOCH));
        String[] refused = {"{}", "{\"version\":0}", "{\"version\":0,\"brokerEpoch\":null}", "[1]", "{\"brokerEpoch\":1",
                "{\"brokerEpoch\":99999999999999999999}"};
        for (String r : refused) {
            Files.writeString(tmp.resolve(CleanShutdown.FILE_NAME), r);
            assertThat(KafkaStateOracle.assertCleanShutdownMatchesKafka(tmp.resolve(CleanShutdown.FILE_NAME))).as(r).isEqualTo(-1);
            assertThatThrownBy(() -> CleanShutdown.read(text(r, "c"))).as(r).isInstanceOfSatisfying(FormatException.class,
                    e -> assertThat(e.violation()).isEqualTo(Violation.JSON_FORMAT));
        }
    }
}
