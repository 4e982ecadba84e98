package io.segscope.inspector.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.DumpOutput;
import io.segscope.format.coordinator.Unknown;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.RecordIterator;
import io.segscope.testdata.Corpus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Every record of the real-broker corpus's coordinator topics ({@code testdata/corpus/<run>/…},
 * written by real Kafka brokers): wherever the corpus has Kafka's own DumpLogSegments output for
 * the segment, segscope prints the same {@code key:} and {@code payload:} text for the record;
 * elsewhere it must decode. Skipped when the corpus is absent. Segments are found by their
 * partition directory name, dump files under any {@code dump/} folder by their
 * {@code Dumping <path>} lines.
 */
class CoordinatorCorpusTest {
    private static final Pattern PARTITION_DIR = Pattern.compile("(__consumer_offsets|__transaction_state|__share_group_state)-\\d+");

    @Test
    void everyCoordinatorRecordDecodesAndPrintsLikeDumpLogSegments() throws IOException {
        List<Path> logs = Corpus.filesEndingWith(Corpus.corpus(), ".log").stream()
                .filter(p -> p.getParent() != null && PARTITION_DIR.matcher(p.getParent().getFileName().toString()).matches())
                .toList();
        Assumptions.assumeFalse(logs.isEmpty(), "no coordinator segments in " + Corpus.corpus());

        Map<Path, Map<Long, String>> dumped = DumpOutput.inCorpus(dump -> true);
        int records = 0;
        int compared = 0;
        java.util.TreeMap<String, Integer> kinds = new java.util.TreeMap<>();
        for (Path log : logs) {
            String dir = log.getParent().getFileName().toString();
            CoordinatorTopic topic = CoordinatorTopic.forTopicName(dir.substring(0, dir.lastIndexOf('-')));
            CoordinatorRecordDecoder decoder = CoordinatorRecordDecoder.forTopic(topic);
            Map<Long, String> lines = dumped.getOrDefault(log.toAbsolutePath().normalize(), Map.of());
            try (ByteSource source = MappedSource.open(log, log.getFileName().toString());
                 BatchReader reader = new BatchReader(source)) {
                while (reader.next()) {
                    if (reader.batch().isControl()) {
                        continue;
                    }
                    RecordIterator it = reader.batch().records();
                    while (it.next()) {
                        LogRecord r = it.record();
                        records++;
                        CoordinatorResult result = decoder.decode(r.buffer(), r.keyOffset(), r.keyLength(),
                                r.buffer(), r.valueOffset(), r.valueLength());
                        String where = log + " offset " + r.offset();
                        kinds.merge(topic.topicName() + " type " + result.recordType() + (result instanceof Decoded
                                ? (((Decoded) result).isTombstone() ? " tombstone" : " v" + ((Decoded) result).valueVersion())
                                : " " + ((Unknown) result).reason()), 1, Integer::sum);
                        String line = lines.get(r.offset());
                        if (line != null && line.contains(" key: ")) {
                            DumpLines.assertSameText(line, result, r.offset(), where);
                            compared++;
                        } else {
                            assertThat(result).as(where).isInstanceOf(Decoded.class);
                        }
                    }
                }
            }
        }
        assertThat(records).isPositive();
        System.out.printf("coordinator corpus: %d segments, %d records decoded, %d compared with DumpLogSegments: %s%n",
                logs.size(), records, compared, kinds);
    }
}
