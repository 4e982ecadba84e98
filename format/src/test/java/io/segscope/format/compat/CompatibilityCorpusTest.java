package io.segscope.format.compat;

import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.record.ReaderOptions;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The verdicts on the corpus runs, checked against the release history (docs/format.md 1.6, 1.7,
 * 2.2, 2.5): which release line is the oldest that loads each run, and why the one before it does not.
 */
class CompatibilityCorpusTest {

    static Map<String, Compatibility.TopicFormats> topics(Path logDir) {
        List<FormatInventory.Counts> counts = new ArrayList<>();
        for (PartitionDir p : LogDir.open(logDir).partitions()) {
            counts.add(FormatInventory.of(p, ReaderOptions.defaults()));
        }
        return Compatibility.byTopic(counts);
    }

    private static List<Compatibility.Verdict> verdicts(String run) {
        return Compatibility.judge(topics(Corpus.corpus().resolve(run).resolve("logdir")));
    }

    private static Compatibility.Verdict of(List<Compatibility.Verdict> vs, String line) {
        return vs.stream().filter(v -> v.line().equals(line)).findFirst().orElseThrow();
    }

    /**
     * The oldest line that loads each run and the line before it, from the release history: magic 0
     * and OffsetCommitValue v1 in 0.10.0; GroupMetadataValue v1 (KIP-62) from 0.10.1; OffsetCommitValue
     * v2 (KIP-211) from 2.1; GroupMetadataValue v3 (KIP-345 static membership) from 2.3; the KRaft
     * runs by their metadata log's finalized metadata.version (3.9-IV0, level 21, is 3.9's latest
     * production level; 4.4-IV2, level 33, is unknown to 4.3, which knows up to 4.4-IV0, level 31).
     */
    @Test
    void oldestReleaseOfEveryRun() {
        Map<String, String[]> expected = Map.of(
                "legacy-3.9.1-ibp0.10.0-none", new String[] {"0.10.0", null},
                "legacy-3.9.1-ibp0.10.2-gzip", new String[] {"0.10.1", "GroupMetadata v1"},
                "legacy-3.9.1-ibp2.1-snappy", new String[] {"2.1", "OffsetCommit v2"},
                "legacy-3.9.1-ibp2.8-lz4", new String[] {"2.3", "GroupMetadata v3"},
                "kraft-3.9.1-plain", new String[] {"3.9", "metadata.version 3.9-IV0 (level 21) is above 3.8's latest production level"},
                "kraft-4.4.0-plain", new String[] {"4.4", "metadata.version 4.4-IV2 (level 33) is unknown to 4.3"},
                "kraft-4.4.0-compressed", new String[] {"4.4", "metadata.version 4.4-IV2 (level 33) is unknown to 4.3"},
                "kraft-4.4.0-crashed", new String[] {"4.4", "metadata.version 4.4-IV2 (level 33) is unknown to 4.3"});
        expected.forEach((run, e) -> {
            List<Compatibility.Verdict> vs = verdicts(run);
            assertThat(Compatibility.oldestLoading(vs)).as(run).isEqualTo(e[0]);
            int at = vs.indexOf(of(vs, e[0]));
            if (e[1] != null) {
                Compatibility.Verdict before = vs.get(at - 1);
                assertThat(before.loads()).isFalse();
                assertThat(before.blockers()).as(run).anyMatch(b -> b.contains(e[1]));
            }
            assertThat(vs.subList(at, vs.size())).allMatch(Compatibility.Verdict::loads);
        });
    }

    /** Magic 2, zstd, delete horizons and the KRaft log each block the releases before theirs. */
    @Test
    void batchFeaturesBlockOlderReleases() {
        List<Compatibility.Verdict> vs = verdicts("kraft-4.4.0-compressed");
        assertThat(of(vs, "0.10.2").blockers()).anyMatch(b -> b.contains("magic 2"));
        assertThat(of(vs, "2.0").blockers()).anyMatch(b -> b.contains("zstd"));
        assertThat(of(vs, "2.1").blockers()).noneMatch(b -> b.contains("zstd"));
        assertThat(of(vs, "3.0").blockers()).anyMatch(b -> b.contains("delete horizon"));
        assertThat(of(vs, "3.1").blockers()).noneMatch(b -> b.contains("delete horizon"));
        assertThat(of(vs, "2.7").blockers()).anyMatch(b -> b.contains("no KRaft mode"));
        // legacy formats in 4.x: read, and rewritten by the cleaner
        List<Compatibility.Verdict> legacy = verdicts("legacy-3.9.1-ibp2.8-lz4");
        assertThat(of(legacy, "4.4").loads()).isTrue();
        assertThat(of(legacy, "4.4").notes()).anyMatch(n -> n.contains("rewrites"));
    }
}
