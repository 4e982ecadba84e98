package io.segscope.inspector.cmd;

import io.segscope.inspector.JsonLines;
import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code segscope compat}: the summary, the verdict per line, {@code --target} and its exit codes. */
class CompatCommandTest {
    private static final String PLAIN = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir").toString();

    @Test
    void summaryAndVerdicts() {
        Run r = Run.of("compat", PLAIN);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("These logs load in Kafka 4.4 and later.\nKafka 4.3 cannot: metadata.version 4.4-IV2 (level 33)"
                + " is unknown to 4.3: Kafka 4.3 knows metadata.version up to 4.4-IV0 (level 31) and supports up to 4.3-IV0 (level 30),"
                + " and its controllers and brokers refuse a finalized level above it.\n"
                + "__cluster_metadata: metadata.version 4.4-IV2 (level 33); finalized eligible.leader.replicas.version 1, group.version 1,"
                + " share.version 1, streams.version 1, transaction.version 2.\n");
        assertThat(r.out()).contains("__consumer_offsets: OffsetCommitValue v4 since 2026-11-30T04:03:33.378Z in 23 partition(s)");
        assertThat(r.out()).containsPattern("\\n4\\.4 +4\\.4\\.0 +yes +0 +0 ");
        assertThat(r.out()).containsPattern("\\n0\\.10\\.0 +0\\.10\\.0\\.1 +no ");
    }

    @Test
    void targetSaysWhetherADowngradeIsSafe() {
        Run ok = Run.of("compat", "--target", "4.4.0", PLAIN);
        assertThat(ok.exit()).isZero();
        assertThat(ok.out()).contains("Kafka 4.4 (--target) loads these logs.");
        Run no = Run.of("compat", "--target", "3.9.1", PLAIN);
        assertThat(no.exit()).isEqualTo(1);
        assertThat(no.out()).contains("Downgrade to Kafka 3.9 (--target) is unsafe: ").contains("RegisterBrokerRecord v4")
                .contains("metadata.version 4.4-IV2 (level 33) is unknown to 3.9");
        Run mv = Run.of("compat", "--target", "4.3.0", PLAIN);
        assertThat(mv.exit()).isEqualTo(1);
        assertThat(mv.out()).contains("Downgrade to Kafka 4.3 (--target) is unsafe: metadata.version 4.4-IV2 (level 33) is unknown to 4.3");
        Run legacy = Run.of("compat", "--target", "2.3", Corpus.corpus().resolve("legacy-3.9.1-ibp2.8-lz4/logdir").toString());
        assertThat(legacy.exit()).isZero();
        Run older = Run.of("compat", "--target", "2.2.1", Corpus.corpus().resolve("legacy-3.9.1-ibp2.8-lz4/logdir").toString());
        assertThat(older.exit()).isEqualTo(1);
        assertThat(older.out()).contains("GroupMetadata v3");
    }

    @Test
    void jsonl() {
        Run r = Run.of("compat", "--format", "jsonl", "--target", "3.9", PLAIN);
        assertThat(r.exit()).isEqualTo(1);
        List<Map<String, Object>> lines = JsonLines.parse(r.out());
        assertThat(lines.get(0)).containsEntry("line", "summary").containsEntry("oldestLoading", "4.4")
                .containsEntry("target", "3.9").containsEntry("targetLoads", false)
                .containsEntry("metadataVersion", "4.4-IV2").containsEntry("metadataVersionLevel", 33L)
                .containsEntry("finalizedFeatures", Map.of("eligible.leader.replicas.version", 1L, "group.version", 1L,
                        "metadata.version", 33L, "share.version", 1L, "streams.version", 1L, "transaction.version", 2L));
        assertThat(lines).filteredOn(m -> "verdict".equals(m.get("line"))).hasSize(30);
        Map<String, Object> offsets = lines.stream().filter(m -> "topic".equals(m.get("line")) && "__consumer_offsets".equals(m.get("topic")))
                .findFirst().orElseThrow();
        assertThat(offsets.get("batches")).isEqualTo(464L);
        assertThat(offsets.get("records")).isEqualTo(1634L);
        assertThat(offsets.get("recordsWithHeaders")).isNull();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> versions = (List<Map<String, Object>>) offsets.get("recordVersions");
        Map<String, Object> v4 = versions.stream().filter(v -> Long.valueOf(1).equals(v.get("type")) && Long.valueOf(4).equals(v.get("version")))
                .findFirst().orElseThrow();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> tags = (List<Map<String, Object>>) v4.get("taggedFields");
        assertThat(tags).hasSize(1);
        assertThat(tags.get(0)).containsEntry("tag", 0L).containsEntry("field", "topicId").containsEntry("records", 1517L)
                .containsEntry("struct", null);
        Map<String, Object> v39 = lines.stream().filter(m -> "3.9".equals(m.get("kafka"))).findFirst().orElseThrow();
        @SuppressWarnings("unchecked")
        Map<String, Object> access = (Map<String, Object>) v39.get("access");
        assertThat(access.get("consumers")).isEqualTo("no: Kafka 3.9 brokers do not load these logs");
        assertThat(access.get("clientsOn4x")).isEqualTo("yes: at or above KIP-896's 2.1 baseline");
        assertThat(lines).filteredOn(m -> "thirdParty".equals(m.get("line"))).extracting(m -> m.get("project") + " " + m.get("reference"))
                .containsExactly("linkedin/Burrow #560", "linkedin/Burrow PR #851", "redpanda-data/kminion #314", "twmb/franz-go #1105",
                        "quantifind/KafkaOffsetMonitor #106");
    }

    @Test
    void taggedFieldsColumnAndDeep() {
        Run r = Run.of("compat", PLAIN);
        assertThat(r.out()).containsPattern("__consumer_offsets +1 +OffsetCommit +v4 +1517 +23 .* yes +topicId\\(1517\\)\\n");
        assertThat(r.out()).contains("Offsets with Kafka 4.4: consumers yes; clients of 4.4 on a 4.x broker yes (at or above KIP-896's 2.1 baseline);"
                + " its formatters yes.");
        assertThat(r.out()).containsPattern("\\nevents-log-append-time +2 +2 .* +2 +-\\n");
        Run deep = Run.of("compat", "--deep", PLAIN);
        assertThat(deep.exit()).isZero();
        assertThat(deep.out()).containsPattern("\\nevents-log-append-time +2 +2 .* +2 +\\d+\\n");
    }

    @Test
    void badValues() {
        assertThat(Run.of("compat", "--target", "9.9", PLAIN).exit()).isEqualTo(2);
        assertThat(Run.of("compat", "--target", "abc", PLAIN).exit()).isEqualTo(2);
        assertThat(Run.of("compat", "/nonexistent/segscope").exit()).isEqualTo(3);
    }

    @Test
    void damageIsToldAndIsNoCleanBill() {
        // damaged bytes skipped, a batch whose records do not parse, an OffsetCommitValue that does not
        // parse: the verdict covers only what was read, said on stderr, exit 1 (even where --target loads)
        java.nio.file.Path corrupt = Corpus.root().resolve("testdata/corrupt");
        for (String[] c : List.of(new String[]{"bad-magic", "position 3064: invalid-magic"},
                new String[]{"mid-segment-damage", "position 667: decompression-failed"},
                new String[]{"records-count-crc-valid", "position 3229: invalid-record-count"},
                new String[]{"malformed-offset-commit-value", "position 2258: invalid-coordinator-value"})) {
            Run r = Run.of("compat", "--target", "4.4", corpus(corrupt, c[0]));
            assertThat(r.exit()).as(c[0] + ": " + r.err()).isEqualTo(1);
            assertThat(r.err()).as(c[0]).contains(c[1]).contains("compat: 1 partition(s) damaged: the verdict covers only what could be read");
            assertThat(r.out()).as(c[0]).contains("Kafka 4.4 (--target) loads these logs");
        }
        // a torn tail (what a crash leaves, recovery truncates) and a clean log are no damage
        for (String clean : List.of(corpus(corrupt, "truncated-mid-batch"), corpus(corrupt, "zero-filled-tail"),
                Corpus.corpus().resolve("kraft-4.4.0-crashed/logdir").toString(), PLAIN)) {
            Run r = Run.of("compat", clean);
            assertThat(r.exit()).as(clean + ": " + r.err()).isZero();
            assertThat(r.err()).as(clean).doesNotContain("damaged");
        }
    }

    private static String corpus(java.nio.file.Path corrupt, String name) {
        return corrupt.resolve(name).toString();
    }

    @Test
    void noPartitionNoVerdict(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) {
        // a dir holding no Kafka data: no "loads in Kafka 0.10.0 and later", and --target is no safe downgrade
        for (String[] args : List.of(new String[]{"compat", tmp.toString()}, new String[]{"compat", "--target", "3.9", tmp.toString()},
                new String[]{"compat", "--format", "jsonl", tmp.toString()})) {
            Run r = Run.of(args);
            assertThat(r.exit()).as(r.err()).isEqualTo(3);
            assertThat(r.out()).isEmpty();
            assertThat(r.err()).contains("compat: no partition found under the PATHs: nothing to judge");
        }
    }
}
