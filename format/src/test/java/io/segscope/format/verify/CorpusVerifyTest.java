package io.segscope.format.verify;

import io.segscope.format.error.Violation;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.record.ReaderOptions;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every run of the real-broker corpus is a log dir as a healthy broker leaves it (cleanly shut
 * down, or killed and so to be recovered): verifying it whole finds nothing above info, which is
 * what exit code 0 of {@code segscope verify} means.
 */
class CorpusVerifyTest {
    private static final String METADATA_SEG0 = "__cluster_metadata-0/00000000000000000000";

    private static List<Path> runs() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(Corpus.corpus())) {
            s.filter(r -> Files.isDirectory(r.resolve("logdir"))).sorted().forEach(out::add);
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> everyRunsLogDirVerifiesWithNothingAboveInfo() throws IOException {
        List<Path> runs = runs();
        assertThat(runs).extracting(r -> r.getFileName().toString())
                .contains("kraft-4.4.0-plain", "kraft-4.4.0-compressed", "kraft-4.4.0-crashed", "kraft-3.9.1-plain");
        return runs.stream().map(run -> DynamicTest.dynamicTest(run.getFileName().toString(), () -> {
            List<Finding> findings = new ArrayList<>();
            Verifier v = new Verifier(ReaderOptions.defaults(), findings::add);
            assertThat(v.verify(FileEntry.of(run.resolve("logdir")))).isTrue();
            assertThat(findings).as("%s", findings).allMatch(f -> f.severity() == Severity.INFO);
            assertThat(v.stats().findings(Severity.ERROR)).isZero();
            assertThat(v.stats().findings(Severity.WARNING)).isZero();
            assertThat(v.stats().isClean()).isTrue();
            assertThat(v.stats().batches()).isPositive();
        }));
    }

    /** 4.4.0 leaves the metadata log's active indexes preallocated (10 MiB) at clean shutdown; the corpus keeps them. */
    @ParameterizedTest
    @ValueSource(strings = {"kraft-4.4.0-plain", "kraft-4.4.0-compressed"})
    void cleanlyShutDownMetadataLogKeepsPreallocatedIndexes(String name) throws IOException {
        Path logDir = Corpus.corpus().resolve(name).resolve("logdir");
        assertThat(logDir.resolve(".kafka_cleanshutdown")).exists();
        Path index = logDir.resolve(METADATA_SEG0 + ".index");
        Path timeIndex = logDir.resolve(METADATA_SEG0 + ".timeindex");
        assertThat(Files.size(index)).isEqualTo(10 * 1024 * 1024);
        assertThat(Files.size(timeIndex)).isEqualTo(10 * 1024 * 1024 / 12 * 12);
        List<Finding> findings = Verifier.verifyAll(FileEntry.of(logDir));
        assertThat(findings).filteredOn(f -> f.file().contains("__cluster_metadata-0"))
                .filteredOn(f -> f.violation() == Violation.INDEX_PREALLOCATED)
                .extracting(Finding::file, Finding::severity)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(index.toString(), Severity.INFO),
                        org.assertj.core.groups.Tuple.tuple(timeIndex.toString(), Severity.INFO));
    }
}
