package io.segscope.inspector.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.segscope.inspector.JsonLines;
import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What logs of other Kafka releases showed: every KRaft run (committed, and those named by
 * {@code -Dsegscope.extraCorpus}, e.g. runs of 3.3.2 to 4.3.0 generated with
 * {@code -Pgenerate-corpus -Dcorpus.runs=3.6.2-plain -Dcorpus.out=/tmp/versions}) against what its
 * broker's Admin API reported, compat's verdict against the release that wrote the run, and the
 * quirks of brokers before 3.8 rebuilt with Kafka 4.4.0's record classes (testdata/corpus/README.md,
 * "Other Kafka releases").
 */
class ReleaseRunsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The killed run's snapshot was taken while its producers and groups went on. */
    private static final String KILLED = "kraft-4.4.0-killed-mid-write";

    /** Every run with an admin.json of groups and a run.json naming its Kafka release. */
    static List<Path> kraftRuns() {
        return Corpus.runs().stream()
                .filter(r -> r.getFileName().toString().startsWith("kraft-") && !r.getFileName().toString().equals(KILLED))
                .filter(r -> Files.isRegularFile(r.resolve("admin.json")) && Files.isRegularFile(r.resolve("run.json")))
                .toList();
    }

    private static String name(Path run) {
        return Corpus.isExtra(run) ? run.toString() : run.getFileName().toString();
    }

    @TestFactory
    Stream<DynamicTest> groupsAreWhatTheAdminApiListed() {
        List<Path> runs = kraftRuns();
        assertThat(runs).hasSizeGreaterThanOrEqualTo(4);
        return runs.stream().map(run -> DynamicTest.dynamicTest(name(run), () -> {
            JsonNode admin = JSON.readTree(run.resolve("admin.json").toFile());
            Map<String, String> expected = new TreeMap<>();
            for (JsonNode g : admin.get("groups")) {
                // a broker before 3.8 (ListGroups v4) names no type: every group is classic
                String type = g.get("type").isNull() ? "Classic" : g.get("type").asText();
                int members = 0;
                for (String d : List.of("describeClassicGroups", "describeConsumerGroups", "describeShareGroups", "describeStreamsGroups")) {
                    members += g.path(d).path("members").size();
                }
                expected.put(g.get("groupId").asText(), type + " " + g.get("state").asText() + " " + members);
            }
            Run r = Run.of("groups", "--format", "jsonl", run.resolve("logdir").toString());
            assertThat(r.exit()).as(r.err()).isZero();
            Map<String, String> printed = new TreeMap<>();
            for (Map<String, Object> n : JsonLines.parse(r.out())) {
                printed.put((String) n.get("group"), n.get("type") + " " + n.get("state") + " " + n.get("memberCount"));
            }
            assertThat(printed).isEqualTo(expected);
        }));
    }

    /** offsets: group, topic, partition, offset, leader epoch and metadata as listConsumerGroupOffsets gave them. */
    @TestFactory
    Stream<DynamicTest> offsetsAreWhatTheAdminApiListed() {
        return kraftRuns().stream().map(run -> DynamicTest.dynamicTest(name(run), () -> {
            JsonNode admin = JSON.readTree(run.resolve("admin.json").toFile());
            Map<String, String> expected = new TreeMap<>();
            for (JsonNode g : admin.get("groups")) {
                for (JsonNode o : g.path("offsets")) {
                    expected.put(g.get("groupId").asText() + "\u0000" + o.get("topic").asText() + "\u0000" + o.get("partition").asInt(),
                            o.get("offset").asLong() + " " + (o.get("leaderEpoch").isNull() ? "-1" : o.get("leaderEpoch").asText())
                                    + " " + o.get("metadata").asText());
                }
            }
            Run r = Run.of("offsets", "--format", "jsonl", run.resolve("logdir").toString());
            assertThat(r.exit()).as(r.err()).isZero();
            Map<String, String> printed = new TreeMap<>();
            for (Map<String, Object> n : JsonLines.parse(r.out())) {
                Object epoch = n.get("leaderEpoch");
                printed.put(n.get("group") + "\u0000" + n.get("topic") + "\u0000" + n.get("partition"),
                        n.get("offset") + " " + (epoch == null ? "-1" : epoch) + " " + n.get("metadata"));
            }
            assertThat(printed).hasSizeGreaterThan(10).isEqualTo(expected);
        }));
    }

    /** A log written by Kafka X loads in X: compat's oldest loading line is at most X's. */
    @TestFactory
    Stream<DynamicTest> compatSaysTheWritingReleaseLoadsItsLogs() {
        List<Path> runs = Corpus.runs().stream().filter(r -> Files.isRegularFile(r.resolve("run.json"))
                && Files.isDirectory(r.resolve("logdir"))).toList();
        return runs.stream().map(run -> DynamicTest.dynamicTest(name(run), () -> {
            String version = JSON.readTree(run.resolve("run.json").toFile()).get("kafkaVersion").asText();
            Run r = Run.of("compat", "--format", "jsonl", "--target", version, run.resolve("logdir").toString());
            assertThat(r.exit()).as(r.out() + r.err()).isZero();
            Map<String, Object> summary = JsonLines.parse(r.out()).get(0);
            assertThat(summary).containsEntry("targetLoads", true);
            assertThat(line((String) summary.get("oldestLoading"))).isLessThanOrEqualTo(line(version));
        }));
    }

    /**
     * A KRaft log whose finalized metadata.version is its release's latest production level loads in
     * no older line: compat's oldest loading line is the writing release's own (e.g. 4.1 for a 4.1.1
     * run at 4.1-IV1, level 27, which 4.0 does not know). Runs without a metadata log (ZooKeeper mode)
     * name no metadata.version: the legacy runs and the ZooKeeper-mode broker's log dir.
     */
    @TestFactory
    Stream<DynamicTest> theLatestProductionMetadataVersionNeedsItsOwnRelease() {
        List<Path> runs = Stream.concat(Corpus.runs().stream(), Corpus.zookeeperRuns().stream())
                .filter(r -> Files.isDirectory(r.resolve("logdir"))).toList();
        assertThat(runs).anyMatch(r -> r.getFileName().toString().startsWith("legacy-"))
                .anyMatch(r -> r.getFileName().toString().equals("kafka-3.9.1-zk"));
        return runs.stream().map(run -> DynamicTest.dynamicTest(name(run), () -> {
            Run r = Run.of("compat", "--format", "jsonl", run.resolve("logdir").toString());
            assertThat(r.exit()).as(r.out() + r.err()).isZero();
            Map<String, Object> summary = JsonLines.parse(r.out()).get(0);
            boolean kraft = Files.isDirectory(run.resolve("logdir").resolve("__cluster_metadata-0"));
            if (!kraft) {
                assertThat(summary).doesNotContainKeys("metadataVersion", "metadataVersionLevel");
                return;
            }
            String version = JSON.readTree(run.resolve("run.json").toFile()).get("kafkaVersion").asText();
            io.segscope.format.compat.FeatureSupport own = io.segscope.format.compat.KafkaReleases.line(version).feature("metadata.version");
            Object level = summary.get("metadataVersionLevel");
            assertThat(level).as("metadata.version of %s", run).isNotNull();
            if (((Long) level).intValue() == own.production()) {
                String[] v = version.split("\\.");
                assertThat(summary).containsEntry("oldestLoading", v[0] + "." + v[1]);
            }
        }));
    }

    private static int line(String version) {
        String[] v = version.split("\\.");
        return Integer.parseInt(v[0]) * 1000 + Integer.parseInt(v[1]);
    }

    // ------------------------------------------------------------- quirks of brokers before 3.8

    /**
     * The old group coordinator (3.3.2's, seen in KRaft mode) deletes a group that never joined
     * (generation 0) with offset tombstones only: no group tombstone follows, and the group is gone.
     */
    @Test
    void aSimpleGroupDeletedByOffsetTombstonesIsGone(@TempDir Path dir) throws IOException {
        Path partition = Files.createDirectories(dir.resolve("__consumer_offsets-0"));
        MemoryRecordsBuilder b = builder(0L);
        append(b, 1000, commitKey("doomed,\"é\"", 0), commitValue(14, 1000));
        append(b, 1000, commitKey("doomed,\"é\"", 1), commitValue(20, 1000));
        append(b, 1000, commitKey("kept", 0), commitValue(7, 1000));
        // deleteConsumerGroups: one tombstone per offset, no GroupMetadata tombstone
        b.append(2000, MessageUtil.toCoordinatorTypePrefixedBytes(commitKey("doomed,\"é\"", 0)), null);
        b.append(2000, MessageUtil.toCoordinatorTypePrefixedBytes(commitKey("doomed,\"é\"", 1)), null);
        // deleteConsumerGroupOffsets of a simple group's only partition: gone as well
        append(b, 3000, commitKey("emptied", 0), commitValue(3, 3000));
        b.append(3000, MessageUtil.toCoordinatorTypePrefixedBytes(commitKey("emptied", 0)), null);
        Files.write(partition.resolve("00000000000000000000.log"), bytes(b));

        Run groups = Run.of("groups", "--format", "jsonl", partition.toString());
        assertThat(groups.exit()).as(groups.err()).isZero();
        assertThat(JsonLines.parse(groups.out())).extracting(m -> m.get("group")).containsExactly("kept");
        Run history = Run.of("history", "--format", "jsonl", "--group", "doomed,\"é\"", partition.toString());
        assertThat(history.exit()).as(history.err()).isZero();
        assertThat(history.out().lines().filter(l -> l.contains("\"event\":\"offset-tombstone\""))).hasSize(2);
    }

    /**
     * Brokers before 3.8 (KAFKA-16310) put in the time index the offset of a batch's first record
     * with the largest timestamp, not the batch's last offset: not damage. A wrong timestamp is.
     */
    @Test
    void aTimeIndexEntryInsideItsBatchIsNotDamage(@TempDir Path dir) throws IOException {
        Path partition = Files.createDirectories(dir.resolve("orders-0"));
        MemoryRecordsBuilder b = builder(0L);
        for (int i = 0; i < 3; i++) {
            b.append(new SimpleRecord(5000L, ("k" + i).getBytes(), ("v" + i).getBytes()));
        }
        MemoryRecordsBuilder b2 = builder(3L);
        for (int i = 0; i < 3; i++) {
            b2.append(new SimpleRecord(6000L + (i == 1 ? 1 : 0), ("k" + i).getBytes(), ("v" + i).getBytes()));
        }
        ByteBuffer log = ByteBuffer.allocate(8192);
        log.put(b.build().buffer()).put(b2.build().buffer()).flip();
        byte[] logBytes = new byte[log.remaining()];
        log.get(logBytes);
        Files.write(partition.resolve("00000000000000000000.log"), logBytes);
        Files.write(partition.resolve("00000000000000000000.index"), new byte[0]);
        // 3.3.2: offset 0 (first record of 0..2, all at 5000), offset 4 (the record at 6001 in 3..5)
        Files.write(partition.resolve("00000000000000000000.timeindex"), timeIndex(5000L, 0, 6001L, 4));
        Files.writeString(dir.resolve(".kafka_cleanshutdown"), "");

        Run ok = Run.of("verify", "--min-severity", "warning", dir.toString());
        assertThat(ok.out()).isEmpty();
        assertThat(ok.exit()).as(ok.err()).isZero();

        Files.write(partition.resolve("00000000000000000000.timeindex"), timeIndex(5000L, 0, 6000L, 4));
        Run bad = Run.of("verify", "--min-severity", "warning", dir.toString());
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.out()).contains("index-mismatch").contains("timestamp 6000 at offset 4 but the batch 3..5 holding it has maxTimestamp 6001");
    }

    /** Brokers before 3.7 (KIP-966; seen on 3.6.2) leave an empty .kafka_cleanshutdown: a clean shutdown. */
    @Test
    void anEmptyCleanShutdownMarkerIsClean(@TempDir Path dir) throws IOException {
        Path logDir = Files.createDirectories(dir.resolve("logdir"));
        Path src = Corpus.synthetic().resolve("logdir");
        try (Stream<Path> s = Files.list(src)) {
            for (Path p : s.filter(Files::isDirectory).limit(2).toList()) {
                Path to = Files.createDirectories(logDir.resolve(p.getFileName()));
                try (Stream<Path> files = Files.list(p)) {
                    for (Path f : files.toList()) {
                        Files.copy(f, to.resolve(f.getFileName()));
                    }
                }
            }
        }
        Files.write(logDir.resolve(".kafka_cleanshutdown"), new byte[0]);
        Run verify = Run.of("verify", "--format", "jsonl", logDir.toString());
        assertThat(JsonLines.parse(verify.out())).allMatch(f -> f.get("severity").equals("info"));
        assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
        Run tx = Run.of("transactions", logDir.toString());
        assertThat(tx.err()).doesNotContain("json-format");
        assertThat(tx.exit()).as(tx.err()).isZero();
    }

    private static byte[] timeIndex(long ts0, int rel0, long ts1, int rel1) {
        ByteBuffer t = ByteBuffer.allocate(24).order(ByteOrder.BIG_ENDIAN);
        t.putLong(ts0).putInt(rel0).putLong(ts1).putInt(rel1);
        return t.array();
    }

    private static MemoryRecordsBuilder builder(long baseOffset) {
        return new MemoryRecordsBuilder(ByteBuffer.allocate(1 << 16), RecordBatch.CURRENT_MAGIC_VALUE,
                Compression.NONE, TimestampType.CREATE_TIME, baseOffset, 1000L, RecordBatch.NO_PRODUCER_ID,
                RecordBatch.NO_PRODUCER_EPOCH, RecordBatch.NO_SEQUENCE, false, false, 0, 1 << 16);
    }

    private static byte[] bytes(MemoryRecordsBuilder b) {
        ByteBuffer buf = b.build().buffer();
        byte[] out = new byte[buf.remaining()];
        buf.get(out);
        return out;
    }

    private static OffsetCommitKey commitKey(String group, int partition) {
        return new OffsetCommitKey().setGroup(group).setTopic("orders").setPartition(partition);
    }

    private static OffsetCommitValue commitValue(long offset, long time) {
        return new OffsetCommitValue().setOffset(offset).setLeaderEpoch(-1).setMetadata("").setCommitTimestamp(time);
    }

    private static void append(MemoryRecordsBuilder b, long ts, ApiMessage key, ApiMessage value) {
        b.append(ts, MessageUtil.toCoordinatorTypePrefixedBytes(key), MessageUtil.toVersionPrefixedBytes((short) 3, value));
    }
}
