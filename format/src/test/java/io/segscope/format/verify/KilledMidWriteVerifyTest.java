package io.segscope.format.verify;

import io.segscope.format.error.Violation;
import io.segscope.format.logdir.FileEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The real crash of the corpus (run {@value KilledMidWrite#NAME}): what verify says about it, and what Kafka's recovery does with it. */
class KilledMidWriteVerifyTest {

    private static List<Finding> aboveInfo(List<Finding> findings) {
        return findings.stream().filter(f -> f.severity() != Severity.INFO).toList();
    }

    @Test
    void runJsonRecordsACopyEndingInsideABatch() throws IOException {
        KilledMidWrite.TornCopy torn = KilledMidWrite.tornCopy();
        assertThat(torn.log()).hasFileName("00000000000000007604.log").exists();
        assertThat(java.nio.file.Files.size(torn.log())).isEqualTo(torn.size()).isEqualTo(262144L);
        assertThat(torn.tornAt()).isEqualTo(224003L);
        assertThat(torn.tornBaseOffset()).isEqualTo(7644L).isEqualTo(torn.lastWholeOffset() + 1);
        assertThat(torn.tornBatchSize()).isEqualTo(713208L).isGreaterThan(torn.size() - torn.tornAt());
        assertThat(torn.tornLastOffset()).isEqualTo(7789L);
    }

    /**
     * The copy of burst-0's active segment ends 38,141 bytes into a 713,208-byte batch: a torn tail
     * of the segment being appended to, a warning (what a crash or a live copy leaves, which Kafka's
     * recovery truncates), with the file, the byte where the torn batch starts and the offsets lost.
     * Its .timeindex, copied 250 ms after the .log, holds entries for that batch and the next one:
     * warnings too (Kafka's recovery rebuilds the index), not index damage. Its .index, copied
     * before the .log, holds none. Zero tails of the copied indexes are preallocation (info).
     */
    @Test
    void theCopiedTornTailIsATornTailNotCorruption() throws IOException {
        KilledMidWrite.TornCopy torn = KilledMidWrite.tornCopy();
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(KilledMidWrite.copied()));
        String timeIndex = torn.log().toString().replace(".log", ".timeindex");
        assertThat(aboveInfo(findings))
                .extracting(Finding::file, Finding::position, Finding::violation, Finding::severity, Finding::baseOffset)
                .containsExactly(
                        tuple(torn.log().toString(), torn.tornAt(), Violation.TRUNCATED, Severity.WARNING, torn.tornBaseOffset()),
                        tuple(timeIndex, 0L, Violation.INDEX_MISMATCH, Severity.WARNING, 7604L),
                        tuple(timeIndex, 12L, Violation.INDEX_MISMATCH, Severity.WARNING, 7604L));
        Finding f = aboveInfo(findings).get(0);
        assertThat(f.hasLostOffsets()).isTrue();
        assertThat(f.lostFrom()).isEqualTo(torn.tornBaseOffset());
        assertThat(f.lostTo()).isEqualTo(torn.tornLastOffset());
        assertThat(f.skippedFrom()).isEqualTo(torn.tornAt());
        assertThat(f.skippedTo()).isEqualTo(torn.size());
        assertThat(f.message()).contains("713196 bytes after its header but only 38129 remain");
        // the time index entries: the torn batch's last offset, then the first offset of the batch after it
        assertThat(aboveInfo(findings).get(1).message()).startsWith("entry 0: offset " + torn.tornLastOffset()
                + " lies past the last offset " + torn.lastWholeOffset() + " of the segment, which ends with a torn tail");
        assertThat(aboveInfo(findings).get(2).message()).startsWith("entry 1: offset " + (torn.tornLastOffset() + 1) + " lies past");
        assertThat(findings).filteredOn(g -> g.violation() == Violation.INDEX_PREALLOCATED)
                .extracting(g -> KilledMidWrite.copied().relativize(Path.of(g.file())).toString(), Finding::position)
                .containsExactlyInAnyOrder(
                        tuple("__consumer_offsets-2/00000000000000000000.index", 160L),
                        tuple("__consumer_offsets-2/00000000000000000000.timeindex", 240L),
                        tuple("burst-0/00000000000000007604.index", 0L),
                        tuple("burst-0/00000000000000007604.timeindex", 24L));
    }

    /** The same entries past the last batch in a closed segment (whole when rolled) stay damage: an error. */
    @Test
    void indexEntriesPastTheEndOfAClosedSegmentStayAnError(@TempDir Path tmp) throws IOException {
        Path dir = KilledMidWrite.copyPartition(KilledMidWrite.copied().resolve("burst-0"), tmp.resolve("burst-0"));
        // a later segment makes 7604 a closed segment: its torn tail and index entries become damage
        java.nio.file.Files.write(dir.resolve("00000000000000007800.log"), new byte[0]);
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(dir));
        assertThat(findings).filteredOn(g -> g.file().endsWith("00000000000000007604.timeindex")
                        && g.violation() == Violation.INDEX_MISMATCH)
                .extracting(Finding::severity).containsExactly(Severity.ERROR, Severity.ERROR);
        assertThat(findings).filteredOn(g -> g.violation() == Violation.TRUNCATED)
                .extracting(Finding::severity).containsExactly(Severity.ERROR);
    }

    /**
     * The killed broker's own log dir: the kill left no torn .log (the page cache outlives the
     * process), only crash artefacts at info: no clean-shutdown marker, the open segments' indexes
     * preallocated with zero tails (8 KiB here, 10 MiB for the metadata log), segments the
     * retention had renamed to .deleted.
     */
    @Test
    void theKilledLogDirHoldsCrashArtefactsOnly() {
        Path logDir = KilledMidWrite.logDir();
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(logDir));
        assertThat(findings).as("%s", findings).allMatch(f -> f.severity() == Severity.INFO);
        assertThat(findings).extracting(Finding::violation).containsOnly(Violation.UNCLEAN_SHUTDOWN,
                Violation.INDEX_PREALLOCATED, Violation.TRANSIENT_FILE);
        assertThat(findings).filteredOn(f -> f.violation() == Violation.INDEX_PREALLOCATED)
                .filteredOn(f -> f.file().contains("/burst-0/") || f.file().contains("/__consumer_offsets-2/"))
                .extracting(f -> logDir.relativize(Path.of(f.file())).toString(), Finding::position)
                .containsExactlyInAnyOrder(
                        tuple("__consumer_offsets-2/00000000000000000000.index", 160L),
                        tuple("__consumer_offsets-2/00000000000000000000.timeindex", 240L),
                        tuple("burst-0/00000000000000010728.index", 8L),
                        tuple("burst-0/00000000000000010728.timeindex", 12L));
        // the .index and .timeindex of the 14 open segments (burst-0's closed 10619 has trimmed ones)
        assertThat(findings).filteredOn(f -> f.violation() == Violation.INDEX_PREALLOCATED).hasSize(28);
        assertThat(findings).filteredOn(f -> f.violation() == Violation.TRANSIENT_FILE)
                .extracting(f -> Path.of(f.file()).getFileName().toString())
                .containsExactly("00000000000000010219.log.deleted", "00000000000000010378.log.deleted");
    }

    /**
     * Kafka 4.4.0's recovery of the copied partition (UnifiedLog after an unclean shutdown) cuts the
     * torn segment at exactly the byte verify names, and the log then ends at the torn batch's
     * baseOffset: the first offset verify says is lost.
     */
    @Test
    void kafkasRecoveryTruncatesWhereVerifySaysTheTornTailStarts(@TempDir Path tmp) throws IOException {
        KilledMidWrite.TornCopy torn = KilledMidWrite.tornCopy();
        Finding f = aboveInfo(Verifier.verifyAll(FileEntry.of(KilledMidWrite.copied().resolve("burst-0")))).get(0);
        KilledMidWrite.Recovered r = KilledMidWrite.recover(
                KilledMidWrite.copyPartition(KilledMidWrite.copied().resolve("burst-0"), tmp.resolve("burst-0")));
        assertThat(r.activeSegmentBase()).isEqualTo(7604L);
        assertThat(r.activeSegmentSize()).isEqualTo(f.position()).isEqualTo(torn.tornAt());
        assertThat(r.logEndOffset()).isEqualTo(f.lostFrom()).isEqualTo(torn.tornBaseOffset());
        assertThat(r.logStartOffset()).isEqualTo(7360L);
        assertThat(r.segments()).isEqualTo(3);
    }

    /** The killed dir's burst-0 and the copied __consumer_offsets-2 end on a batch boundary: Kafka's recovery cuts nothing, verify reports nothing truncated. */
    @Test
    void kafkasRecoveryCutsNothingWhereVerifyFindsNoTornTail(@TempDir Path tmp) throws IOException {
        Path killed = KilledMidWrite.logDir().resolve("burst-0");
        KilledMidWrite.Recovered r = KilledMidWrite.recover(KilledMidWrite.copyPartition(killed, tmp.resolve("burst-0")));
        assertThat(r.activeSegmentBase()).isEqualTo(10728L);
        assertThat(r.activeSegmentSize()).isEqualTo(java.nio.file.Files.size(killed.resolve("00000000000000010728.log")))
                .isEqualTo(877825L);
        assertThat(r.logEndOffset()).isEqualTo(10916L);
        assertThat(r.logStartOffset()).isEqualTo(10619L);

        Path offsets = KilledMidWrite.copied().resolve("__consumer_offsets-2");
        KilledMidWrite.Recovered o = KilledMidWrite.recover(KilledMidWrite.copyPartition(offsets,
                tmp.resolve("copy").resolve("__consumer_offsets-2")));
        assertThat(o.activeSegmentSize()).isEqualTo(java.nio.file.Files.size(offsets.resolve("00000000000000000000.log")))
                .isEqualTo(91986L);
        assertThat(o.logEndOffset()).isEqualTo(512L);
        for (Path dir : List.of(killed, offsets)) {
            assertThat(Verifier.verifyAll(FileEntry.of(dir))).noneMatch(f -> f.violation() == Violation.TRUNCATED);
        }
    }
}
