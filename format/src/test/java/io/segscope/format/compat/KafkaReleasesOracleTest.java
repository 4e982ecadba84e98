package io.segscope.format.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.segscope.testdata.Corpus;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.metadata.MetadataRecordType;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.common.runtime.Deserializer;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupRegularExpressionKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupRegularExpressionValue;
import org.apache.kafka.coordinator.group.generated.CoordinatorRecordType;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.apache.kafka.coordinator.transaction.TransactionLog;
import org.apache.kafka.coordinator.transaction.generated.TransactionLogValue;
import org.apache.kafka.metadata.MetadataRecordSerde;
import org.apache.kafka.server.common.serialization.MetadataParseException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks verdict facts of {@link KafkaReleases} against Kafka's own classes: 4.4.0's on the class
 * path (record types, versions, and what its serdes do with an unknown type or version), and older
 * releases' jars (copied to {@code target/kafka-releases} by the build, each loaded in a class loader
 * of its own, as they clash with 4.4.0) on a real 4.4.0 record from the corpus.
 */
class KafkaReleasesOracleTest {
    private static final Path RELEASES = Path.of("target", "kafka-releases");
    private static URLClassLoader kafka332;
    private static URLClassLoader kafka392;

    @BeforeAll
    static void loadOlderReleases() throws IOException {
        kafka332 = loader("kafka_2.13-3.3.2.jar", "kafka-clients-3.3.2.jar");
        kafka392 = loader("kafka-group-coordinator-3.9.2.jar", "kafka-server-common-3.9.2.jar", "kafka-clients-3.9.2.jar");
    }

    @AfterAll
    static void close() throws IOException {
        kafka332.close();
        kafka392.close();
    }

    @Test
    void consumerOffsetsTypesAndVersionsAreKafka440s() {
        LogKnowledge table = KafkaReleases.line("4.4").log(StateLog.CONSUMER_OFFSETS);
        Set<Integer> kafka = new TreeSet<>();
        for (CoordinatorRecordType t : CoordinatorRecordType.values()) {
            kafka.add((int) t.id());
            KnownRecord r = table.record(t.id());
            assertThat(r).as("type %d", t.id()).isNotNull();
            assertThat(r.valueVersions().lowest()).isEqualTo(t.newRecordValue().lowestSupportedVersion());
            assertThat(r.highestValueVersion()).as(r.name()).isEqualTo(t.newRecordValue().highestSupportedVersion());
        }
        assertThat(table.records().keySet()).isEqualTo(kafka);
    }

    @Test
    void shareAndTransactionVersionsAreKafka440s() {
        ReleaseFormats r = KafkaReleases.line("4.4.0");
        Set<Integer> kafka = new TreeSet<>();
        for (org.apache.kafka.coordinator.share.generated.CoordinatorRecordType t
                : org.apache.kafka.coordinator.share.generated.CoordinatorRecordType.values()) {
            kafka.add((int) t.id());
            assertThat(r.log(StateLog.SHARE_GROUP_STATE).record(t.id()).highestValueVersion())
                    .isEqualTo(t.newRecordValue().highestSupportedVersion());
        }
        assertThat(r.log(StateLog.SHARE_GROUP_STATE).records().keySet()).isEqualTo(kafka);
        assertThat(r.log(StateLog.TRANSACTION_STATE).record(0).highestValueVersion())
                .isEqualTo(TransactionLogValue.HIGHEST_SUPPORTED_VERSION);
    }

    @Test
    void metadataTypesAndVersionsAreKafka440s() {
        LogKnowledge table = KafkaReleases.line("4.4").log(StateLog.CLUSTER_METADATA);
        Set<Integer> kafka = new TreeSet<>();
        for (MetadataRecordType t : MetadataRecordType.values()) {
            kafka.add((int) t.id());
            assertThat(table.record(t.id()).highestValueVersion()).as(t.name()).isEqualTo(t.highestSupportedVersion());
        }
        assertThat(table.records().keySet()).isEqualTo(kafka);
    }

    /** 4.4.0's CoordinatorLoaderImpl catches UnknownRecordTypeException (skips) and fails on anything else. */
    @Test
    void kafka440SkipsAnUnknownGroupRecordTypeAndFailsOnATooNewVersion() {
        LogKnowledge table = KafkaReleases.line("4.4").log(StateLog.CONSUMER_OFFSETS);
        GroupCoordinatorRecordSerde serde = new GroupCoordinatorRecordSerde();
        assertThatThrownBy(() -> serde.deserialize(versionOnly(99), versionOnly(0)))
                .isInstanceOf(Deserializer.UnknownRecordTypeException.class);
        assertThat(table.outcome(99, 0)).isEqualTo(LoadOutcome.SKIPS);

        ByteBuffer key = ByteBuffer.wrap(MessageUtil.toVersionPrefixedBytes((short) 1,
                new org.apache.kafka.coordinator.group.generated.OffsetCommitKey().setGroup("g").setTopic("t")));
        assertThatThrownBy(() -> serde.deserialize(key, versionOnly(5)))
                .isInstanceOf(Deserializer.UnknownRecordVersionException.class);
        assertThat(table.outcome(1, 5)).isEqualTo(LoadOutcome.FAILS);
        assertThat(table.outcome(1, 4)).isNull();
    }

    /** 4.4.0's TransactionStateManager warns and goes on for both (TransactionLog.read's results). */
    @Test
    void kafka440SkipsUnknownTransactionLogVersions() {
        LogKnowledge table = KafkaReleases.line("4.4").log(StateLog.TRANSACTION_STATE);
        assertThat(TransactionLog.read(versionOnly(9), versionOnly(0))).isInstanceOf(TransactionLog.UnknownKeyVersion.class);
        assertThat(TransactionLog.read(ByteBuffer.wrap(TransactionLog.keyToBytes("t")), versionOnly(9)))
                .isInstanceOf(TransactionLog.UnknownValueVersion.class);
        assertThat(table.unknownType()).isEqualTo(LoadOutcome.SKIPS);
        assertThat(table.unknownVersion()).isEqualTo(LoadOutcome.SKIPS);
        assertThat(KafkaReleases.line("4.2").log(StateLog.TRANSACTION_STATE).unknownVersion()).isEqualTo(LoadOutcome.FAILS);
    }

    /** A metadata record frame is: frame version 1, apiKey, version (unsigned varints), then the record. */
    @Test
    void kafka440FailsOnAnUnknownMetadataRecordTypeOrVersion() {
        LogKnowledge table = KafkaReleases.line("4.4").log(StateLog.CLUSTER_METADATA);
        byte[] unknownType = {1, 99, 0};
        byte[] topicRecordV9 = {1, 2, 9, 0, 0};
        for (byte[] frame : List.of(unknownType, topicRecordV9)) {
            assertThatThrownBy(() -> MetadataRecordSerde.INSTANCE.read(new ByteBufferAccessor(ByteBuffer.wrap(frame)), frame.length))
                    .isInstanceOf(MetadataParseException.class);
        }
        assertThat(table.outcome(99, 0)).isEqualTo(LoadOutcome.FAILS);
        assertThat(table.outcome(2, 9)).isEqualTo(LoadOutcome.FAILS);
    }

    /**
     * A real OffsetCommitValue v4 (flexible, with the topicId tag) written by a 4.4.0 broker: 4.4.0 and
     * 3.9.2 read it (3.9 keeps topicId as an unknown tagged field), 3.3.2 cannot (its OffsetCommitValue
     * reads 0-3, and its GroupMetadataManager throws "Unknown offset message version" on 4, which stops the load).
     */
    @Test
    void anOffsetCommitValueV4FromTheCorpusReadsIn39AndFailsIn33() throws Throwable {
        Record record = firstOffsetCommit(4);
        assertThat(new GroupCoordinatorRecordSerde().deserialize(record.key(), record.value()).value().message())
                .isInstanceOf(OffsetCommitValue.class);
        assertThat(KafkaReleases.line("4.4").log(StateLog.CONSUMER_OFFSETS).outcome(1, 4)).isNull();

        Object serde39 = kafka392.loadClass("org.apache.kafka.coordinator.group.CoordinatorRecordSerde").getConstructor().newInstance();
        Object read39 = deserialize(serde39, record.key(), record.value());
        Object value39 = read39.getClass().getMethod("value").invoke(read39);
        assertThat(value39.getClass().getMethod("version").invoke(value39)).isEqualTo((short) 4);
        assertThat(KafkaReleases.line("3.9").log(StateLog.CONSUMER_OFFSETS).outcome(1, 4)).isNull();

        Class<?> value33 = kafka332.loadClass("kafka.internals.generated.OffsetCommitValue");
        assertThat(value33.getField("HIGHEST_SUPPORTED_VERSION").getShort(null)).isEqualTo((short) 3);
        ByteBuffer body = record.value().position(2);
        Object accessor = kafka332.loadClass("org.apache.kafka.common.protocol.ByteBufferAccessor")
                .getConstructor(ByteBuffer.class).newInstance(body);
        Constructor<?> read = value33.getConstructor(kafka332.loadClass("org.apache.kafka.common.protocol.Readable"), short.class);
        // 3.3.2's GroupMetadataManager.readOffsetMessageValue rejects a version above this class's
        // HIGHEST_SUPPORTED_VERSION before reading ("Unknown offset message version: 4", decompiled
        // GroupMetadataManager$ of kafka_2.13-3.3.2; the class itself needs Scala and the broker's
        // dependencies to load). Its generated reader, given version 4 anyway, reads the v3 layout and
        // runs off the value's bytes.
        assertThatThrownBy(() -> newInstance(read, accessor, (short) 4)).isInstanceOf(RuntimeException.class)
                .hasMessageContaining("byte(s) available");
        LogKnowledge table33 = KafkaReleases.line("3.3").log(StateLog.CONSUMER_OFFSETS);
        assertThat(table33.record(1).highestValueVersion()).isEqualTo(3);
        assertThat(table33.outcome(1, 4)).isEqualTo(LoadOutcome.FAILS);
    }

    /**
     * A ConsumerGroupRegularExpression record (type 16, 4.0 and later) as 4.4.0 writes it: 3.9.2's serde
     * throws UnknownRecordTypeException, which its loader skips; the table says 3.9 does not know type 16.
     */
    @Test
    void aTypeNewerThan39IsSkippedBy39() throws Exception {
        CoordinatorRecord written = CoordinatorRecord.record(new ConsumerGroupRegularExpressionKey().setGroupId("g").setRegularExpression("t.*"),
                new org.apache.kafka.server.common.ApiMessageAndVersion(new ConsumerGroupRegularExpressionValue().setTopics(List.of("t1")), (short) 0));
        GroupCoordinatorRecordSerde serde = new GroupCoordinatorRecordSerde();
        ByteBuffer key = ByteBuffer.wrap(serde.serializeKey(written));
        ByteBuffer value = ByteBuffer.wrap(serde.serializeValue(written));
        assertThat(key.getShort(0)).isEqualTo((short) 16);
        assertThat(serde.deserialize(key.duplicate(), value.duplicate()).key()).isInstanceOf(ConsumerGroupRegularExpressionKey.class);

        Object serde39 = kafka392.loadClass("org.apache.kafka.coordinator.group.CoordinatorRecordSerde").getConstructor().newInstance();
        Class<?> unknownType39 = kafka392.loadClass("org.apache.kafka.coordinator.group.runtime.CoordinatorLoader$UnknownRecordTypeException");
        assertThatThrownBy(() -> deserialize(serde39, key.duplicate(), value.duplicate())).isInstanceOf(unknownType39);
        LogKnowledge table39 = KafkaReleases.line("3.9").log(StateLog.CONSUMER_OFFSETS);
        assertThat(table39.record(16)).isNull();
        assertThat(table39.unknownType()).isEqualTo(LoadOutcome.SKIPS);
    }

    private static Object deserialize(Object serde, ByteBuffer key, ByteBuffer value) throws Throwable {
        Method m = serde.getClass().getMethod("deserialize", ByteBuffer.class, ByteBuffer.class);
        try {
            return m.invoke(serde, key, value);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static Object newInstance(Constructor<?> c, Object... args) throws Throwable {
        try {
            return c.newInstance(args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static ByteBuffer versionOnly(int version) {
        return ByteBuffer.allocate(2).putShort(0, (short) version);
    }

    /** The first OffsetCommit record (key type 1) with this value version in the 4.4.0 corpus. */
    private static Record firstOffsetCommit(int valueVersion) throws IOException {
        Path logdir = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
        List<Path> segments = new ArrayList<>();
        try (var dirs = Files.list(logdir)) {
            for (Path d : dirs.filter(p -> p.getFileName().toString().startsWith("__consumer_offsets-")).sorted().toList()) {
                segments.addAll(Corpus.filesEndingWith(d, ".log"));
            }
        }
        for (Path log : segments) {
            try (FileRecords file = FileRecords.open(log.toFile(), false)) {
                for (FileChannelRecordBatch batch : file.batches()) {
                    for (Record r : batch) {
                        if (!batch.isControlBatch() && r.hasValue() && r.key().getShort(0) == 1 && r.value().getShort(0) == valueVersion) {
                            return r;
                        }
                    }
                }
            }
        }
        throw new AssertionError("no OffsetCommitValue v" + valueVersion + " in " + logdir);
    }

    /**
     * metadata.version by line (KafkaReleases' feature table) against 4.4.0's MetadataVersion: every
     * level's name, and 4.4's latest production and testing levels.
     */
    @Test
    void metadataVersionNamesAndLevelsAreKafka440s() {
        int named = 0;
        for (org.apache.kafka.server.common.MetadataVersion mv : org.apache.kafka.server.common.MetadataVersion.values()) {
            assertThat(KafkaReleases.metadataVersion(mv.featureLevel())).as("level %d", mv.featureLevel()).isEqualTo(mv.toString());
            named++;
        }
        assertThat(named).isEqualTo(28);   // 3.3-IV3 (7) to 4.5-IV0 (34)
        assertThat(KafkaReleases.metadataVersion(35)).isNull();
        FeatureSupport f = KafkaReleases.line("4.4").feature("metadata.version");
        assertThat(f.production()).isEqualTo(org.apache.kafka.server.common.MetadataVersion.latestProduction().featureLevel()).isEqualTo((short) 33);
        assertThat(f.known()).isEqualTo(org.apache.kafka.server.common.MetadataVersion.latestTesting().featureLevel()).isEqualTo((short) 34);
    }

    /** The other features of 4.4 (Feature.PRODUCTION_FEATURES of 4.4.0) with their latest production and testing levels. */
    @Test
    void otherFeaturesOf44AreKafka440s() {
        ReleaseFormats r = KafkaReleases.line("4.4");
        Set<String> kafka = new TreeSet<>();
        for (org.apache.kafka.server.common.Feature feature : org.apache.kafka.server.common.Feature.PRODUCTION_FEATURES) {
            kafka.add(feature.featureName());
            FeatureSupport f = r.feature(feature.featureName());
            assertThat(f).as(feature.featureName()).isNotNull();
            assertThat(f.production()).as(feature.featureName()).isEqualTo(feature.latestProduction());
            assertThat(f.known()).as(feature.featureName()).isEqualTo(feature.latestTesting());
        }
        kafka.add("metadata.version");
        assertThat(r.features().keySet()).isEqualTo(kafka);
    }

    /** 3.9 against kafka-server-common-3.9.2: MetadataVersion's levels and Features.PRODUCTION_FEATURES. */
    @Test
    void featuresOf39AreKafka392s() throws ReflectiveOperationException {
        ReleaseFormats r = KafkaReleases.line("3.9");
        Class<?> mv = kafka392.loadClass("org.apache.kafka.server.common.MetadataVersion");
        Method level = mv.getMethod("featureLevel");
        FeatureSupport f = r.feature("metadata.version");
        assertThat(level.invoke(mv.getMethod("latestProduction").invoke(null))).isEqualTo(f.production()).isEqualTo((short) 21);
        assertThat(level.invoke(mv.getMethod("latestTesting").invoke(null))).isEqualTo(f.known()).isEqualTo((short) 23);
        Class<?> features = kafka392.loadClass("org.apache.kafka.server.common.Features");
        Set<String> kafka = new TreeSet<>(List.of("metadata.version"));
        for (Object feature : (List<?>) features.getField("PRODUCTION_FEATURES").get(null)) {
            String name = (String) features.getMethod("featureName").invoke(feature);
            kafka.add(name);
            assertThat(r.feature(name)).as(name).isNotNull();
            assertThat(features.getMethod("latestProduction").invoke(feature)).as(name).isEqualTo(r.feature(name).production());
            assertThat(features.getMethod("latestTesting").invoke(feature)).as(name).isEqualTo(r.feature(name).known());
        }
        assertThat(r.features().keySet()).isEqualTo(kafka);
    }

    /** 3.3 against kafka-server-common-3.3.2: metadata.version 3.3-IV3 (level 7) is its latest, with no unstable levels. */
    @Test
    void metadataVersionOf33IsKafka332s() throws Exception {
        try (URLClassLoader kafka = loader("kafka-server-common-3.3.2.jar", "kafka-clients-3.3.2.jar")) {
            Class<?> mv = kafka.loadClass("org.apache.kafka.server.common.MetadataVersion");
            Object latest = mv.getMethod("latest").invoke(null);
            assertThat(latest.toString()).isEqualTo("3.3-IV3");
            assertThat(mv.getMethod("featureLevel").invoke(latest)).isEqualTo((short) 7);
            assertThat(java.util.Arrays.stream(mv.getMethods()).map(Method::getName)).doesNotContain("latestTesting", "latestProduction");
        }
        FeatureSupport f = KafkaReleases.line("3.3").feature("metadata.version");
        assertThat(f.production()).isEqualTo((short) 7);
        assertThat(f.known()).isEqualTo((short) 7);
        assertThat(KafkaReleases.line("3.2").features()).isEmpty();
    }

    private static URLClassLoader loader(String... jars) throws IOException {
        URL[] urls = new URL[jars.length];
        for (int i = 0; i < jars.length; i++) {
            Path jar = RELEASES.resolve(jars[i]);
            assertThat(jar).as("copied by the build (format/pom.xml, kafka-releases)").exists();
            urls[i] = jar.toUri().toURL();
        }
        return new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
    }
}
