package io.segscope.inspector;

import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** A file that cannot be checked is a finding, never a clean verdict; Kafka's content under another name is read. */
class FalseVerdictTest {
    private static final Path SEGMENT = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir/__consumer_offsets-18/00000000000000000000.log");

    @Test
    void aSegmentUnderAnotherNameIsReadByItsContent(@TempDir Path dir) throws IOException {
        Path suspect = Files.copy(SEGMENT, dir.resolve("suspect-segment.log"));
        Run verify = Run.of("verify", suspect.toString());
        assertThat(verify.exit()).isZero();
        assertThat(verify.err()).contains("verify: 1 files, 3 batches, 5 records");
        Run dump = Run.of("dump", "--decoder", "offsets", suspect.toString());
        assertThat(dump.exit()).isZero();
        assertThat(dump.out()).contains("\"simple,comma,group\"").contains("-- 3 batches, 5 records shown");
    }

    @Test
    void aFileThatIsNotKafkasIsAFindingNotSilence(@TempDir Path dir) throws IOException {
        Path readme = Files.writeString(dir.resolve("notes.txt"), "not a segment\n");
        Run verify = Run.of("verify", readme.toString());
        assertThat(verify.exit()).isEqualTo(1);
        assertThat(verify.out()).contains("error unrecognized-file");
        Run dump = Run.of("dump", readme.toString());
        assertThat(dump.exit()).isEqualTo(1);
        assertThat(dump.err()).contains("unrecognized-file");
    }

    @Test
    void anEmptySegmentNamedAloneIsAWarning(@TempDir Path dir) throws IOException {
        Path empty = Files.createFile(dir.resolve("00000000000000000000.log"));
        Run verify = Run.of("verify", empty.toString());
        assertThat(verify.exit()).isEqualTo(1);
        assertThat(verify.out()).contains("warning empty-segment");
    }

    @Test
    void asNamesTheKindOfAFileWhoseNameDoesNot(@TempDir Path dir) throws IOException {
        Path index = Files.copy(SEGMENT.resolveSibling("00000000000000000000.timeindex"), dir.resolve("copy.bin"));
        Run unknown = Run.of("verify", index.toString());
        assertThat(unknown.exit()).isEqualTo(1);
        Run asIndex = Run.of("dump", "--as", "timeindex", index.toString());
        assertThat(asIndex.exit()).as(asIndex.err()).isZero();
        assertThat(asIndex.out()).contains("  2026-11-30T04:03:35.254Z (1796011415254) offset 4");
        Run bad = Run.of("dump", "--as", "bogus", index.toString());
        assertThat(bad.exit()).isEqualTo(2);
    }

    @Test
    void dashReadsStandardInput() throws IOException {
        InputStream saved = System.in;
        try (InputStream in = new ByteArrayInputStream(Files.readAllBytes(SEGMENT))) {
            System.setIn(in);
            Run r = Run.of("dump", "--format", "jsonl", "--decoder", "offsets", "-");
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out().lines()).hasSize(5).allMatch(l -> l.contains("\"file\":\"-\""));
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void looseSegmentsInADirectoryAreOnePartition(@TempDir Path dir) throws IOException {
        Path loose = Files.createDirectories(dir.resolve("copied from broker 3"));
        try (Stream<Path> files = Files.list(SEGMENT.getParent())) {
            for (Path f : files.toList()) {
                Files.copy(f, loose.resolve(f.getFileName()));
            }
        }
        Run verify = Run.of("verify", loose.toString());
        assertThat(verify.exit()).isZero();
        assertThat(verify.out()).contains("info name-format: not named <topic>-<partition>");
        assertThat(verify.err()).contains("3 batches, 5 records");
        Run dump = Run.of("dump", "--decoder", "offsets", loose.toString());
        assertThat(dump.exit()).isZero();
        assertThat(dump.out()).contains("\"simple,comma,group\"");
    }
}
