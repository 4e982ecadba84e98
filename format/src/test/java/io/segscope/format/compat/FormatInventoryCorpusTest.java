package io.segscope.format.compat;

import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.Segment;
import io.segscope.format.logdir.SnapshotFile;
import io.segscope.format.record.ReaderOptions;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The format inventory of every topic of the 4.4.0 corpus runs equals the figures the corpus README
 * counted in Kafka's own DumpLogSegments output ("What each run holds"): batches, records, codecs,
 * transactional batches, marker types, delete-horizon batches, coordinator key types and value
 * versions with their counts, tombstones.
 */
class FormatInventoryCorpusTest {

    /** The README's table rows of one run: topic → cells. */
    private static Map<String, String[]> table(String run) throws IOException {
        List<String> lines = Files.readAllLines(Corpus.corpus().resolve("README.md"));
        Map<String, String[]> out = new TreeMap<>();
        int i = lines.indexOf(lines.stream().filter(l -> l.startsWith("**`" + run + "`**")).findFirst().orElseThrow());
        for (int j = i + 1; j < lines.size(); j++) {
            String l = lines.get(j);
            if (l.startsWith("| topic") || l.startsWith("|---") || l.isBlank()) {
                if (!out.isEmpty() && l.isBlank()) {
                    break;
                }
                continue;
            }
            if (!l.startsWith("| ")) {
                break;
            }
            String[] cells = l.substring(2, l.length() - 2).split(" \\| ", -1);
            out.put(cells[0], cells);
        }
        return out;
    }

    private static List<LogFile> files(PartitionDir p) {
        List<LogFile> out = new ArrayList<>();
        for (Segment s : p.segments().segments()) {
            s.log().ifPresent(l -> out.add(LogFile.classify(l, Optional.of(p.name()))));
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> everyTopicEqualsTheDumps() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (String run : List.of("kraft-4.4.0-plain", "kraft-4.4.0-compressed", "kraft-4.4.0-crashed", "kraft-3.9.1-plain")) {
            Map<String, String[]> expected = table(run);
            assertThat(expected).hasSizeGreaterThan(8);
            LogDir dir = LogDir.open(Corpus.corpus().resolve(run).resolve("logdir"));
            Map<String, List<FormatInventory.Counts>> byTopic = new TreeMap<>();
            for (PartitionDir p : dir.partitions()) {
                byTopic.computeIfAbsent(p.topic(), k -> new ArrayList<>())
                        .add(FormatInventory.of(p.topic(), p.partition(), files(p), ReaderOptions.defaults()));
            }
            for (Map.Entry<String, String[]> e : expected.entrySet()) {
                tests.add(DynamicTest.dynamicTest(run + " " + e.getKey(), () -> check(e.getValue(), byTopic.get(e.getKey()))));
            }
        }
        return tests.stream();
    }

    private static void check(String[] row, List<FormatInventory.Counts> parts) {
        assertThat(parts).isNotNull();
        long batches = 0;
        long records = 0;
        long txn = 0;
        long horizon = 0;
        TreeSet<String> codecs = new TreeSet<>();
        TreeSet<String> markers = new TreeSet<>();
        Map<Integer, Long> types = new TreeMap<>();
        Map<Integer, Long> versions = new TreeMap<>();
        long tombstones = 0;
        for (FormatInventory.Counts c : parts) {
            batches += c.batches();
            records += c.records();
            txn += c.transactionalBatches();
            horizon += c.deleteHorizonBatches();
            c.codecs().keySet().forEach(k -> codecs.add(k.substring(k.indexOf('/') + 1)));
            c.controlTypes().keySet().stream().filter(t -> t.equals("ABORT") || t.equals("COMMIT")).forEach(markers::add);
            for (FormatInventory.RecordVersion v : c.recordVersions().values()) {
                types.merge((int) v.type(), v.count(), Long::sum);
                if (v.version() < 0) {
                    tombstones += v.count();
                } else {
                    versions.merge((int) v.version(), v.count(), Long::sum);
                }
            }
        }
        String topic = row[0];
        assertThat(batches).as(topic + " batches").isEqualTo(Long.parseLong(row[3]));
        assertThat(records).as(topic + " records").isEqualTo(Long.parseLong(row[4]));
        assertThat(String.join(",", codecs)).as(topic + " codecs").isEqualTo(row[5]);
        assertThat(txn).as(topic + " transactional batches").isEqualTo(Long.parseLong(row[6]));
        assertThat(String.join(",", markers)).as(topic + " markers").isEqualTo(row[7]);
        assertThat(horizon).as(topic + " delete-horizon batches").isEqualTo(Long.parseLong(row[8]));
        if (!topic.equals("__cluster_metadata")) {
            StringBuilder t = new StringBuilder();
            types.forEach((k, v) -> t.append(t.isEmpty() ? "" : " ").append(k).append('(').append(v).append(')'));
            StringBuilder vs = new StringBuilder();
            versions.forEach((k, v) -> vs.append(vs.isEmpty() ? "" : " ").append('v').append(k).append('(').append(v).append(')'));
            assertThat(t.toString()).as(topic + " key types").isEqualTo(row[11]);
            assertThat(vs.toString()).as(topic + " value versions").isEqualTo(row[12]);
            assertThat(tombstones).as(topic + " tombstones").isEqualTo(Long.parseLong(row[13]));
        }
    }

    /**
     * The KRaft metadata log is read with its latest KRaft snapshot before its segments: the records
     * of the log and those of the snapshot (which the log's dumps above do not count).
     */
    @TestFactory
    Stream<DynamicTest> metadataLogWithItsSnapshot() {
        return Stream.of("kraft-4.4.0-plain", "kraft-4.4.0-compressed", "kraft-3.9.1-plain").map(run -> DynamicTest.dynamicTest(run, () -> {
            PartitionDir p = LogDir.open(Corpus.corpus().resolve(run).resolve("logdir")).partitions().stream()
                    .filter(d -> d.name().isMetadataLog()).findFirst().orElseThrow();
            List<LogFile> files = FormatInventory.files(p);
            assertThat(files.get(0).kind()).isEqualTo(FileKind.KRAFT_SNAPSHOT);
            FormatInventory.Counts logOnly = FormatInventory.of(p.topic(), p.partition(), files(p), ReaderOptions.defaults());
            FormatInventory.Counts all = FormatInventory.of(p, ReaderOptions.defaults());
            assertThat(all.records()).isGreaterThan(logOnly.records());
            assertThat(all.recordVersions().keySet()).containsAll(logOnly.recordVersions().keySet());
            long snapshotRecords = 0;
            for (FormatInventory.RecordVersion v : all.recordVersions().values()) {
                FormatInventory.RecordVersion l = logOnly.recordVersions().get(v.type() + "/" + v.version());
                snapshotRecords += v.count() - (l == null ? 0 : l.count());
            }
            assertThat(snapshotRecords).as("records the snapshot adds").isPositive();
        }));
    }

    /**
     * The metadata log's finalized features equal those Kafka 4.4.0's MetadataRecordSerde reads from
     * the same files (the latest snapshot, then the segments): the last FeatureLevelRecord of each
     * feature, a level 0 removing one other than metadata.version.
     */
    @TestFactory
    Stream<DynamicTest> finalizedFeaturesAreWhatKafkaReads() {
        Map<String, Integer> metadataVersion = Map.of("kraft-4.4.0-plain", 33, "kraft-4.4.0-compressed", 33,
                "kraft-4.4.0-crashed", 33, "kraft-3.9.1-plain", 21);
        return metadataVersion.keySet().stream().sorted().map(run -> DynamicTest.dynamicTest(run, () -> {
            PartitionDir p = LogDir.open(Corpus.corpus().resolve(run).resolve("logdir")).partitions().stream()
                    .filter(d -> d.name().isMetadataLog()).findFirst().orElseThrow();
            Map<String, Short> kafka = new TreeMap<>();
            int records = 0;
            for (LogFile f : FormatInventory.files(p)) {
                try (org.apache.kafka.common.record.internal.FileRecords file =
                             org.apache.kafka.common.record.internal.FileRecords.open(java.nio.file.Path.of(f.path()).toFile(), false)) {
                    for (var batch : file.batches()) {
                        if (batch.isControlBatch()) {
                            continue;
                        }
                        for (org.apache.kafka.common.record.internal.Record r : batch) {
                            java.nio.ByteBuffer v = r.value();
                            var m = org.apache.kafka.metadata.MetadataRecordSerde.INSTANCE
                                    .read(new org.apache.kafka.common.protocol.ByteBufferAccessor(v), v.remaining()).message();
                            if (m instanceof org.apache.kafka.common.metadata.FeatureLevelRecord fl) {
                                records++;
                                if (fl.featureLevel() == 0 && !fl.name().equals("metadata.version")) {
                                    kafka.remove(fl.name());
                                } else {
                                    kafka.put(fl.name(), fl.featureLevel());
                                }
                            }
                        }
                    }
                }
            }
            assertThat(records).isPositive();
            Map<String, Short> ours = FormatInventory.of(p, ReaderOptions.defaults()).finalizedFeatures();
            assertThat(ours).isEqualTo(kafka);
            assertThat(ours.get("metadata.version")).isEqualTo(metadataVersion.get(run).shortValue());
        }));
    }

    /**
     * The legacy runs (corpus/LEGACY.md, "Runs and what is in them"): the message format of every
     * batch, and the OffsetCommitValue and GroupMetadataValue versions with their counts.
     */
    @TestFactory
    Stream<DynamicTest> legacyRunsEqualLegacyMd() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (String l : Files.readAllLines(Corpus.corpus().resolve("LEGACY.md"))) {
            if (!l.startsWith("| `legacy-")) {
                continue;
            }
            String[] c = l.substring(2, l.length() - 2).split(" \\| ", -1);
            String run = c[0].replace("`", "");
            tests.add(DynamicTest.dynamicTest(run, () -> {
                LogDir dir = LogDir.open(Corpus.corpus().resolve(run).resolve("logdir"));
                long[] magic = new long[3];
                Map<Integer, Map<Integer, Long>> versions = new TreeMap<>();
                for (PartitionDir p : dir.partitions()) {
                    FormatInventory.Counts counts = FormatInventory.of(p.topic(), p.partition(), files(p), ReaderOptions.defaults());
                    for (int m = 0; m < 3; m++) {
                        magic[m] += counts.batchesByMagic()[m];
                    }
                    for (FormatInventory.RecordVersion v : counts.recordVersions().values()) {
                        if (v.version() >= 0) {
                            versions.computeIfAbsent((int) v.type(), k -> new TreeMap<>()).merge((int) v.version(), v.count(), Long::sum);
                        }
                    }
                }
                int expectedMagic = Integer.parseInt(c[4]);
                for (int m = 0; m < 3; m++) {
                    assertThat(magic[m]).as(run + " batches of magic " + m).isEqualTo(m == expectedMagic ? magic[m] : 0);
                }
                assertThat(magic[expectedMagic]).isPositive();
                assertThat(text(versions.get(1))).as(run + " OffsetCommitValue").isEqualTo(c[6]);
                // "v3 (7, one with `groupInstanceId`)": the version and count before the remark
                assertThat(c[7].replaceAll(", [^)]*\\)$", ")")).as(run + " GroupMetadataValue").isEqualTo(text(versions.get(2)));
            }));
        }
        assertThat(tests).hasSize(4);
        return tests.stream();
    }

    /** {@code v1 (146)}, as LEGACY.md writes a version and its count. */
    private static String text(Map<Integer, Long> versions) {
        StringBuilder sb = new StringBuilder();
        versions.forEach((v, n) -> sb.append(sb.isEmpty() ? "" : ", ").append('v').append(v).append(" (").append(n).append(')'));
        return sb.toString();
    }
}
