package io.segscope.jmh.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.io.KafkaUuid;
import io.segscope.format.replay.AsOf;
import io.segscope.format.replay.CommittedOffset;
import io.segscope.format.replay.KafkaShards;
import io.segscope.format.replay.OffsetsReplay;
import io.segscope.format.replay.ReplayResult;
import io.segscope.inspector.Segscope;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.coordinator.group.GroupCoordinatorShard;
import org.apache.kafka.coordinator.group.OffsetAndMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The generator's expected offsets ({@link ExpectedOffsets}, its own model, never read back from the
 * bytes) are what segscope's replay, {@code segscope offsets --format csv} and Kafka 4.4.0's own
 * group coordinator load ({@link KafkaShards#load}) hold for the partition it wrote: every committed
 * and pending offset with every field, in each codec, on small partitions that have everything the
 * realistic preset has (v3 and v4 values with and without topic ids, transactions closed by COMMIT
 * and ABORT, tombstones of expiration sweeps and group deletions, metadata up to 200 chars,
 * Kafka-written indexes), and the rules that make replay surprising all exercised. The defaults still
 * write the bytes they wrote before the realistic options existed.
 */
class OffsetsSegmentGeneratorTest {
    @TempDir
    Path tmp;

    /** A 2 MiB partition (a third of it before the 3.x-to-4.4 upgrade) of 120 busy groups in 1 MiB segments. */
    static GeneratorOptions small(Path out, String codec) {
        return GeneratorOptions.parse(new String[] {"--out", out.toString(), "--seed", "6", "--compression", codec,
            "--size-mib", "2", "--segment-mib", "1", "--groups", "120", "--topics", "40", "--max-group-topics", "2",
            "--commit-records", "1-20", "--txn-percent", "20", "--expire-percent", "8", "--v3-percent", "30",
            "--topic-id-percent", "50", "--metadata-max-chars", "200", "--indexes"});
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void expectedOffsetsAreWhatSegscopeAndKafkaLoad(String codec) throws Exception {
        OffsetsSegmentGenerator.Result r = OffsetsSegmentGenerator.generate(small(tmp, codec));
        ExpectedOffsets expected = r.expected();
        GeneratorFacts f = r.facts();

        // the partition has what the model must get right
        assertThat(f.segments).isGreaterThanOrEqualTo(2);
        assertThat(f.v3Values).isPositive();
        assertThat(f.v4WithTopicId).isPositive();
        assertThat(f.v4WithoutTopicId).isPositive();
        assertThat(f.commitMarkers).isPositive();
        assertThat(f.abortMarkers).isPositive();
        assertThat(f.expirationSweeps).isPositive();
        assertThat(f.groupDeletions).isPositive();
        assertThat(f.metadataMaxChars).isEqualTo(200);
        assertThat(f.metadataNonAscii).isPositive();
        assertThat(expected.materialized).isPositive();
        assertThat(expected.skippedByLaterCommit).as("COMMIT after a later plain commit").isPositive();
        assertThat(expected.cancelledByTombstone).as("tombstone of a pending offset").isPositive();
        assertThat(expected.aborted).isPositive();
        assertThat(expected.pendingCount()).as("transactions left open").isPositive();
        assertThat(expected.committedCount()).isGreaterThan(1000);

        List<String> committed = rows(expected.committed(), false);
        List<String> pending = rows(expected.pending(), true);

        ReplayResult segscope = OffsetsReplay.replay(OffsetsReplay.logFiles(r.partitionDir()), AsOf.END);
        assertThat(segscope.problems()).isEmpty();
        assertThat(segscopeRows(segscope.offsets(), false)).containsExactlyElementsOf(committed);
        assertThat(segscopeRows(segscope.pendingOffsets(), true)).containsExactlyElementsOf(pending);

        // Kafka keeps no producer id with an offset: pending ones are listed by producer
        GroupCoordinatorShard kafka = KafkaShards.load(new KafkaShards.Clock(new long[] {0}), logs(r.partitionDir()));
        assertThat(kafkaRows(kafka, false)).containsExactlyElementsOf(committed);
        assertThat(kafkaRows(kafka, true)).containsExactlyElementsOf(rows(expected.pending(), false));

        assertThat(offsetsCsv(r.partitionDir())).isEqualTo(Files.readString(tmp.resolve("expected-offsets.csv")));
        assertThat(Files.readString(tmp.resolve("generator.facts"))).isEqualTo(r.factsText());
    }

    /**
     * Kafka's recovery wrote every segment's indexes and changed no {@code .log} byte; the
     * {@code .txnindex} files hold one aborted transaction per ABORT marker, the leader epoch
     * checkpoint the upgrade's new epoch; timestamps never go back.
     */
    @Test
    void indexesAsABrokerLeavesThem() throws Exception {
        Path with = tmp.resolve("with");
        Path without = tmp.resolve("without");
        OffsetsSegmentGenerator.Result r = OffsetsSegmentGenerator.generate(small(with, "lz4"));
        GeneratorOptions plain = small(without, "lz4");
        plain.indexes = false;
        OffsetsSegmentGenerator.generate(plain);

        List<Path> logs = logs(r.partitionDir());
        assertThat(logs).hasSize(r.facts().segments);
        long aborted = 0;
        for (Path log : logs) {
            String base = log.getFileName().toString().replace(".log", "");
            assertThat(Files.readAllBytes(log)).isEqualTo(Files.readAllBytes(without.resolve(r.partitionDir()
                    .getFileName()).resolve(log.getFileName())));
            for (String index : List.of(".index", ".timeindex")) {
                assertThat(log.resolveSibling(base + index)).exists();
                if (Files.size(log) > 2 * 4096) { // an entry every index.interval.bytes
                    assertThat(log.resolveSibling(base + index)).isNotEmptyFile();
                }
            }
            Path txn = log.resolveSibling(base + ".txnindex");
            aborted += Files.exists(txn) ? Files.size(txn) / 34 : 0;
        }
        assertThat(aborted).isEqualTo(r.facts().abortMarkers);
        List<String> epochs = Files.readAllLines(r.partitionDir().resolve("leader-epoch-checkpoint"));
        assertThat(epochs).hasSize(4).startsWith("0", "2", "7 0");
        assertThat(epochs.get(3)).startsWith("8 ");

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Segscope.newCommandLine(new PrintWriter(out), new PrintWriter(err))
                .execute("verify", r.partitionDir().toString());
        assertThat(exit).as(out + "" + err).isZero();
        assertThat(out + "" + err).contains("0 errors, 0 warnings, 0 infos");

        long last = Long.MIN_VALUE;
        for (Path log : logs) {
            try (FileRecords file = FileRecords.open(log.toFile(), false)) {
                for (RecordBatch batch : file.batches()) {
                    for (Record rec : batch) {
                        assertThat(rec.timestamp()).isGreaterThanOrEqualTo(last);
                        last = rec.timestamp();
                    }
                    assertThat(batch.maxTimestamp()).isEqualTo(last);
                }
            }
        }
        assertThat(last).isEqualTo(r.facts().lastTimestamp);
    }

    /** SHA-256 of the .log files of commit 6bd2821's generator, before the realistic options existed. */
    @ParameterizedTest
    @ValueSource(strings = {
        "--size-mib 1|38e14a0ce8f6aa0f0ae14d43110ff233a52d95960306153aca064de5feba8717",
        "--size-mib 1 --compression zstd|2540e87a46b26716095f79626c8a4511cba161603d1e984c485ffc50cdc25ded",
        "--size-mib 2 --segment-mib 1 --groups 200 --txn-percent 10 --expire-percent 8 --max-group-topics 1"
                + " --compression lz4|589f58a05719b1359a53e104561715a6f54516bccfba93f5e7161ce1aeeb7b03"})
    void defaultsWriteTheOriginalBytes(String argsAndSha) throws Exception {
        String[] parts = argsAndSha.split("\\|");
        List<String> args = new ArrayList<>(List.of("--out", tmp.toString()));
        args.addAll(List.of(parts[0].split(" ")));
        OffsetsSegmentGenerator.Result r = OffsetsSegmentGenerator.generate(GeneratorOptions.parse(args.toArray(String[]::new)));
        MessageDigest sha = sha256();
        for (Path log : logs(r.partitionDir())) {
            sha.update(Files.readAllBytes(log));
        }
        assertThat(HexFormat.of().formatHex(sha.digest())).isEqualTo(parts[1]);
        try (Stream<Path> files = Files.list(r.partitionDir())) {
            assertThat(files.map(p -> p.getFileName().toString())).allMatch(n -> n.endsWith(".log"));
        }
    }

    @Test
    void presetOptionsCanBeOverridden() {
        GeneratorOptions o = GeneratorOptions.parse(new String[] {"--size-mib", "3", "--out", "x", "--preset", "realistic",
            "--no-indexes"});
        assertThat(o.sizeMib).isEqualTo(3);
        assertThat(o.indexes).isFalse();
        assertThat(o.groups).isEqualTo(10_000);
        assertThat(o.maxSegments).isEqualTo(3);
        assertThat(o.metadataMaxChars).isEqualTo(200);
    }

    // ---------------------------------------------------------------- the three views as comparable rows

    /**
     * group|topic|partition: offset, leader epoch, metadata, commit time, topic id ("-": none), record
     * offset and, for pending offsets, the producer.
     */
    private static String row(String group, String topic, int partition, long offset, int epoch, String metadata,
                              long commitTimestamp, Uuid topicId, long recordOffset, String producer) {
        return group + "|" + topic + "|" + partition + ": " + offset + " e" + epoch + " md[" + metadata + "] ts"
                + commitTimestamp + " id " + (topicId.equals(Uuid.ZERO_UUID) ? "-" : topicId) + " rec " + recordOffset
                + producer;
    }

    private static List<String> rows(List<Map.Entry<ExpectedOffsets.Key, ExpectedOffsets.Offset>> entries, boolean producer) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<ExpectedOffsets.Key, ExpectedOffsets.Offset> e : entries) {
            ExpectedOffsets.Key k = e.getKey();
            ExpectedOffsets.Offset o = e.getValue();
            out.add(row(k.group(), k.topic(), k.partition(), o.offset(), o.leaderEpoch(), o.metadata(), o.commitTimestamp(),
                    o.topicId(), o.recordOffset(), producer ? " p" + o.producerId() : ""));
        }
        return out;
    }

    private static List<String> segscopeRows(List<CommittedOffset> offsets, boolean producer) {
        List<String> out = new ArrayList<>();
        for (CommittedOffset o : offsets) {
            assertThat(o.expireTimestamp()).isEqualTo(-1);
            KafkaUuid id = o.topicId();
            Uuid topicId = id == null ? Uuid.ZERO_UUID : new Uuid(id.mostSignificantBits(), id.leastSignificantBits());
            out.add(row(o.group(), o.topic(), o.partition(), o.offset(), o.leaderEpoch(), o.metadata(), o.commitTimestamp(),
                    topicId, o.source().logOffset(), producer ? " p" + o.producerId() : ""));
        }
        return out;
    }

    /**
     * The committed (or pending) offsets of Kafka's shard, read from its {@code OffsetMetadataManager}
     * by reflection as the format module's oracle tests do, in {@link ExpectedOffsets#ORDER}
     * (pending: by producer first).
     */
    private static List<String> kafkaRows(GroupCoordinatorShard shard, boolean pending) throws ReflectiveOperationException {
        Object om = field(GroupCoordinatorShard.class, "offsetMetadataManager").get(shard);
        List<Map.Entry<Long, Object>> sources = new ArrayList<>();
        if (pending) {
            Map<?, ?> byProducer = (Map<?, ?>) field(om.getClass(), "pendingTransactionalOffsets").get(om);
            for (Map.Entry<?, ?> e : byProducer.entrySet()) {
                sources.add(Map.entry((Long) e.getKey(), e.getValue()));
            }
        } else {
            sources.add(Map.entry(-1L, field(om.getClass(), "offsets").get(om)));
        }
        sources.sort(Map.Entry.comparingByKey());
        List<String> out = new ArrayList<>();
        for (Map.Entry<Long, Object> source : sources) {
            List<Map.Entry<ExpectedOffsets.Key, OffsetAndMetadata>> entries = new ArrayList<>();
            Map<?, ?> byGroup = (Map<?, ?>) field(source.getValue().getClass(), "offsetsByGroup").get(source.getValue());
            for (Map.Entry<?, ?> g : byGroup.entrySet()) {
                for (Map.Entry<?, ?> t : ((Map<?, ?>) g.getValue()).entrySet()) {
                    for (Map.Entry<?, ?> p : ((Map<?, ?>) t.getValue()).entrySet()) {
                        entries.add(Map.entry(new ExpectedOffsets.Key((String) g.getKey(), (String) t.getKey(),
                                (Integer) p.getKey()), (OffsetAndMetadata) p.getValue()));
                    }
                }
            }
            entries.sort(Map.Entry.comparingByKey(ExpectedOffsets.ORDER));
            for (Map.Entry<ExpectedOffsets.Key, OffsetAndMetadata> e : entries) {
                OffsetAndMetadata o = e.getValue();
                assertThat(o.expireTimestampMs).isEmpty();
                ExpectedOffsets.Key k = e.getKey();
                out.add(row(k.group(), k.topic(), k.partition(), o.committedOffset, o.leaderEpoch.orElse(-1), o.metadata,
                        o.commitTimestampMs, o.topicId, o.recordOffset, ""));
            }
        }
        return out;
    }

    /** What {@code segscope offsets --format csv DIR} prints. */
    private static String offsetsCsv(Path dir) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Segscope.newCommandLine(new PrintWriter(out), new PrintWriter(err))
                .execute("offsets", "--format", "csv", dir.toString());
        assertThat(exit).as(err.toString()).isZero();
        return out.toString();
    }

    private static List<Path> logs(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("\\d{20}\\.log")).sorted().toList();
        }
    }

    private static Field field(Class<?> c, String name) throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    private static MessageDigest sha256() throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("SHA-256");
    }
}
