package io.segscope.inspector;

import io.segscope.format.io.IoReasons;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Exit codes and messages an operator can trust: I/O errors are exit 3 with the reason, losses are exact. */
class VerifyTrustTest {
    private static final Path PLAIN = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");

    @Test
    void ioReasonsSayWhatTheSystemSaid() {
        assertThat(IoReasons.of(new AccessDeniedException("/data/x.log"))).isEqualTo("permission denied");
        assertThat(IoReasons.of(new NoSuchFileException("/data/x.log"))).isEqualTo("no such file or directory");
    }

    @Test
    void aMissingPathAmongSeveralIsReportedAndTheOthersAreRead() {
        Run verify = Run.of("verify", "/no/such/dir", PLAIN.resolve("__consumer_offsets-0").toString());
        assertThat(verify.exit()).isEqualTo(3);
        assertThat(verify.err()).contains("/no/such/dir: no such file or directory").contains("verify: 5 files");
        Run dump = Run.of("dump", "/no/such/dir", PLAIN.resolve("__consumer_offsets-18").toString());
        assertThat(dump.exit()).isEqualTo(3);
        assertThat(dump.err()).contains("/no/such/dir").contains("no such file or directory");
        assertThat(dump.out()).contains("simple,comma,group");
    }

    /** A segment that cannot be opened (here a dangling link, as root cannot be denied) is an I/O error with its reason. */
    @Test
    void anUnreadableSegmentIsExitThreeWithTheReason(@TempDir Path dir) throws IOException {
        Path partition = Files.createDirectories(dir.resolve("t-0"));
        Files.createSymbolicLink(partition.resolve("00000000000000000000.log"), dir.resolve("gone"));
        Run verify = Run.of("verify", partition.toString());
        assertThat(verify.exit()).isEqualTo(3);
        assertThat(verify.out()).contains("error io-error: no such file or directory");
        Run dump = Run.of("dump", partition.toString());
        assertThat(dump.exit()).isEqualTo(3);
        assertThat(dump.err()).contains("io-error — no such file or directory");
    }

    /** A closed segment cut mid-file loses everything up to the next segment's base offset, not what that segment holds. */
    @Test
    void aClosedSegmentCutShortLosesOffsetsUpToTheNextSegment(@TempDir Path dir) throws IOException {
        Path source = Corpus.corpus().resolve("kraft-4.4.0-crashed/logdir/__consumer_offsets-0");
        Path copy = Files.createDirectories(dir.resolve("__consumer_offsets-0"));
        try (Stream<Path> files = Files.list(source)) {
            for (Path f : files.toList()) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        Path first = copy.resolve("00000000000000000000.log");
        try (RandomAccessFile f = new RandomAccessFile(first.toFile(), "rw")) {
            f.setLength(f.length() / 2);
        }
        Run r = Run.of("verify", "--format", "jsonl", copy.toString());
        String truncated = r.out().lines().filter(l -> l.contains("\"kind\":\"truncated\"")).findFirst().orElseThrow();
        assertThat(truncated).contains("\"severity\":\"error\"").contains(",519]")
                .contains("up to the next segment's base offset 520");
        assertThat(r.exit()).isEqualTo(1);
    }

    @Test
    void verifyTextShowsTheSeverity() {
        Run r = Run.of("verify", Corpus.resolve("corrupt/mid-segment-damage").toString());
        assertThat(r.out().lines()).isNotEmpty().allMatch(l -> l.matches("\\S+ -?\\d+ (error|warning|info) [a-z-]+: .*"));
    }

    @Test
    void helpAndVersionWorkOnEverySubcommand() {
        for (String cmd : new String[]{"dump", "verify", "locate", "completion"}) {
            Run version = Run.of(cmd, "-V");
            assertThat(version.exit()).isZero();
            assertThat(version.out()).startsWith("segscope ");
            Run help = Run.of("help", cmd);
            assertThat(help.exit()).isZero();
            assertThat(help.out()).startsWith("Usage: segscope " + cmd);
        }
    }
}
