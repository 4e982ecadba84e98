package io.segscope.inspector.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.DumpOutput;
import io.segscope.testdata.Corpus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Every record of every {@code __cluster_metadata-0} segment ({@code .log}) and metadata snapshot
 * ({@code .checkpoint}) of the real-broker corpus ({@code testdata/corpus/<run>/…}): wherever the
 * corpus has Kafka's own {@code DumpLogSegments --cluster-metadata-decoder} output for the file
 * (under the run's {@code dump/}, found by its {@code Dumping <path>} line), segscope prints the
 * same payload or control record text for every record line; elsewhere every record must still
 * give a typed result and every control value a printable one. Skipped, saying so, when the
 * corpus holds no such file.
 */
class MetadataCorpusTest {
    private static final String PARTITION_DIR = "__cluster_metadata-0";

    @Test
    void everyMetadataRecordPrintsLikeDumpLogSegments() throws IOException {
        List<Path> files = Corpus.filesEndingWith(Corpus.corpus(), "").stream()
                .filter(p -> p.getParent() != null && p.getParent().getFileName().toString().equals(PARTITION_DIR))
                .filter(p -> p.getFileName().toString().endsWith(".log") || p.getFileName().toString().endsWith(".checkpoint"))
                .toList();
        Assumptions.assumeFalse(files.isEmpty(), "no " + PARTITION_DIR + " .log or .checkpoint files in " + Corpus.corpus());

        Map<Path, Map<Long, String>> dumped = DumpOutput.inCorpus(dump -> dump.toString().contains(PARTITION_DIR));
        MetadataDumpLines.Counts total = new MetadataDumpLines.Counts();
        int filesWithDump = 0;
        int linesInDumps = 0;
        for (Path file : files) {
            Map<Long, String> lines = dumped.get(file.toAbsolutePath().normalize());
            MetadataDumpLines.Counts counts = MetadataDumpLines.check(file, lines == null ? Map.of() : lines, new MetadataDumpLines.Counts());
            if (lines != null) {
                filesWithDump++;
                linesInDumps += lines.size();
                assertThat(counts.compared).as(file + ": every dumped record line compared").isEqualTo(lines.size());
            }
            total.records += counts.records;
            total.compared += counts.compared;
            counts.kinds.forEach((k, n) -> total.kinds.merge(k, n, Integer::sum));
        }
        assertThat(total.records).isPositive();
        assertThat(total.compared).isEqualTo(linesInDumps);
        System.out.printf("metadata corpus: %d files (%d with DumpLogSegments output), %s%n", files.size(), filesWithDump, total);
    }
}
