package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.FileListing;
import io.segscope.format.logdir.Include;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.LogScanner;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.Tail;
import io.segscope.format.walk.DecoderChoice;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordFilter;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;
import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code locate --log-dir} on every corpus run: the partition count comes from the log dir (the
 * KRaft metadata log, else the partition dirs), and every group that has records in
 * {@code __consumer_offsets} is located in the partition that holds them.
 */
class LocateLogDirTest {
    static Stream<Path> runs() throws IOException {
        try (Stream<Path> s = Files.list(Corpus.corpus())) {
            return s.filter(p -> Files.isDirectory(p.resolve("logdir"))).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void everyGroupIsLocatedWhereItsRecordsAre(Path run) throws IOException {
        Path logDir = run.resolve("logdir");
        Map<String, Integer> where = groupPartitions(logDir);
        assertThat(where).isNotEmpty();
        List<String> args = new ArrayList<>(List.of("locate", "--format", "jsonl", "--log-dir", logDir.toString()));
        args.addAll(where.keySet());
        Run r = Run.of(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(where.size());
        boolean kraft = run.getFileName().toString().startsWith("kraft");
        for (String line : lines) {
            Map<String, Object> o = parse(line);
            String group = (String) o.get("group");
            assertThat(((Number) o.get("partition")).intValue()).as(group).isEqualTo(where.get(group));
            assertThat(o.get("partitionsFrom")).isEqualTo(kraft ? "metadata-log" : "partition-dirs");
            assertThat(line).contains("__consumer_offsets-" + where.get(group) + "\"");
        }
    }

    /** Group id to the partition of __consumer_offsets whose records name it. */
    private static Map<String, Integer> groupPartitions(Path logDir) {
        FileListing listing = new FileListing(EnumSet.of(FileKind.LOG));
        new LogScanner(Include.none()).scan(logDir, listing);
        Map<String, Integer> out = new TreeMap<>();
        List<LogFile> offsets = listing.files().stream()
                .filter(f -> f.topic().orElse("").equals("__consumer_offsets")).toList();
        new RecordWalk(ReaderOptions.defaults(), DecoderChoice.AUTO, RecordFilter.ALL, Long.MAX_VALUE).walk(offsets, new RecordSink() {
            @Override
            public void record(LogFile f, Batch b, LogRecord r, RecordContent c) {
                if (c instanceof RecordContent.Coordinator co && co.result().ownerId() != null) {
                    Integer before = out.put(co.result().ownerId(), f.partition().orElseThrow().partition());
                    assertThat(before == null || before == f.partition().get().partition()).isTrue();
                }
            }
        });
        return out;
    }

    private static Map<String, Object> parse(String line) throws IOException {
        Map<String, Object> o = new TreeMap<>();
        try (JsonParser p = new JsonFactory().createParser(line)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.getCurrentName();
                JsonToken t = p.nextToken();
                if (t == JsonToken.VALUE_STRING) {
                    o.put(name, p.getText());
                } else if (t == JsonToken.VALUE_NUMBER_INT) {
                    o.put(name, p.getIntValue());
                } else {
                    p.skipChildren();
                }
            }
        }
        return o;
    }
}
