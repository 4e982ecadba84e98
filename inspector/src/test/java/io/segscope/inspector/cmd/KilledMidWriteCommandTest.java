package io.segscope.inspector.cmd;

import io.segscope.format.verify.KilledMidWrite;
import io.segscope.inspector.JsonLines;
import io.segscope.inspector.Run;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code segscope verify} on the corpus's real crash ({@value KilledMidWrite#NAME}): the copy taken
 * while the broker wrote ends with a torn tail, reported as one (a warning, exit 1) with its file,
 * byte position and offsets, and its time index, copied later, has entries past it (warnings too:
 * Kafka's recovery rebuilds the index); the killed broker's own log dir holds crash artefacts only (exit 0).
 */
class KilledMidWriteCommandTest {

    @Test
    void verifyNamesTheTornTailOfTheCopy() throws IOException {
        KilledMidWrite.TornCopy torn = KilledMidWrite.tornCopy();
        Run text = Run.of("verify", KilledMidWrite.copied().toString());
        assertThat(text.exit()).as(text.err()).isEqualTo(1);
        assertThat(text.err()).contains("0 errors, 3 warnings, 4 infos");
        String line = torn.log() + " " + torn.tornAt() + " warning truncated: an entry declares "
                + (torn.tornBatchSize() - 12) + " bytes after its header but only " + (torn.size() - torn.tornAt() - 12)
                + " remain; torn tail: Kafka's log recovery truncates the segment to " + torn.tornAt()
                + " bytes, dropping the last " + (torn.size() - torn.tornAt()) + " bytes (and deletes the partition's"
                + " later segments, if any); offsets " + torn.tornBaseOffset() + ".." + torn.tornLastOffset() + " are lost";
        List<String> aboveInfo = text.out().lines().filter(l -> !l.contains(" info ")).toList();
        assertThat(aboveInfo).hasSize(3);
        assertThat(aboveInfo.get(0)).isEqualTo(line);
        String timeIndex = torn.log().toString().replace(".log", ".timeindex");
        assertThat(aboveInfo.get(1)).startsWith(timeIndex + " 0 warning index-mismatch: entry 0: offset 7789 lies past the"
                + " last offset 7643 of the segment, which ends with a torn tail");
        assertThat(aboveInfo.get(2)).startsWith(timeIndex + " 12 warning index-mismatch: entry 1: offset 7790");

        Run jsonl = Run.of("verify", "--format", "jsonl", "--min-severity", "warning", KilledMidWrite.copied().toString());
        List<Map<String, Object>> findings = JsonLines.parse(jsonl.out());
        assertThat(findings).hasSize(3);
        Map<String, Object> f = findings.get(0);
        assertThat(f).containsEntry("file", torn.log().toString()).containsEntry("kind", "truncated")
                .containsEntry("severity", "warning");
        assertThat(((Number) f.get("position")).longValue()).isEqualTo(224003L);
        assertThat(((Number) f.get("baseOffset")).longValue()).isEqualTo(7644L);
        assertThat(f.get("skippedBytes")).isEqualTo(List.of(224003L, 262144L));
        assertThat(f.get("lostOffsets")).isEqualTo(List.of(7644L, 7789L));
    }

    @Test
    void verifyCallsTheKilledLogDirsZeroTailedIndexesPreallocation() throws IOException {
        Run run = Run.of("verify", "--format", "jsonl", KilledMidWrite.logDir().toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).contains("0 errors, 0 warnings, 31 infos");
        List<Map<String, Object>> findings = JsonLines.parse(run.out());
        assertThat(findings).allMatch(f -> f.get("severity").equals("info"));
        assertThat(findings).filteredOn(f -> ((String) f.get("file")).contains("/burst-0/"))
                .extracting(f -> f.get("kind") + " " + f.get("file").toString().replaceAll(".*/", "") + " @" + f.get("position"))
                .containsExactly(
                        "transient-file 00000000000000010219.log.deleted @-1",
                        "transient-file 00000000000000010378.log.deleted @-1",
                        "index-preallocated 00000000000000010728.index @8",
                        "index-preallocated 00000000000000010728.timeindex @12");
    }
}
