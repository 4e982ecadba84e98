package io.segscope.format.record;

import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every record file of the real-broker corpus and of the synthetic set, read by segscope and by
 * Kafka's own FileRecords (opened read-only), must agree on every batch, record, header and byte.
 */
class CorpusSegmentsTest {
    /** KRaft snapshots hold record batches too: {@code <20-digit offset>-<10-digit epoch>.checkpoint}. */
    private static final Pattern SNAPSHOT = Pattern.compile("\\d{20}-\\d{10}\\.checkpoint");

    static List<Path> recordFiles() {
        List<Path> files = new ArrayList<>();
        for (Path root : List.of(Corpus.corpus(), Corpus.synthetic())) {
            files.addAll(Corpus.filesEndingWith(root, ".log"));
            for (Path p : Corpus.filesEndingWith(root, ".checkpoint")) {
                String name = p.getFileName().toString();
                if (SNAPSHOT.matcher(name).matches() || name.equals("bootstrap.checkpoint")) {
                    files.add(p);
                }
            }
        }
        // the corruption catalogue is damaged on purpose and has tests of its own
        files.removeIf(p -> p.toString().contains("/corrupt/"));
        return files;
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusRecordFileMatchesKafka() {
        return recordFiles().stream().map(file -> DynamicTest.dynamicTest(Corpus.testdata().relativize(file).toString(), () -> {
            KafkaOracle.Coverage c = KafkaOracle.compareFile(file);
            assertThat(c.bytes()).isLessThanOrEqualTo(Files.size(file));
        }));
    }

    @Test
    void theCorpusIsThereAndCoversWhatItPromises() {
        List<Path> files = recordFiles();
        assertThat(files).as("record files under testdata/corpus and testdata/synthetic").hasSizeGreaterThan(20);
        KafkaOracle.Coverage total = new KafkaOracle.Coverage(0, 0, 0);
        int[] magics = new int[3];
        int[] codecs = new int[5];
        int control = 0;
        int transactional = 0;
        for (Path f : files) {
            total = total.plus(KafkaOracle.compareFile(f));
            try (BatchReader r = new BatchReader(io.segscope.format.io.MappedSource.open(f))) {
                while (r.next()) {
                    magics[r.batch().magic()]++;
                    codecs[r.batch().compression().id]++;
                    control += r.batch().isControl() ? 1 : 0;
                    transactional += r.batch().isTransactional() ? 1 : 0;
                }
            }
        }
        assertThat(total.batches()).isGreaterThan(100);
        for (int m = 0; m < 3; m++) {
            assertThat(magics[m]).as("batches of magic %d", m).isPositive();
        }
        for (int c = 0; c < 5; c++) {
            assertThat(codecs[c]).as("batches with codec %d", c).isPositive();
        }
        assertThat(control).as("control batches").isPositive();
        assertThat(transactional).as("transactional batches").isPositive();
    }
}
