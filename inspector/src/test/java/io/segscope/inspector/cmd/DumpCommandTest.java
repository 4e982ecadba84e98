package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code dump}: jsonl against Kafka's JSON, text output, filters, exit codes. */
class DumpCommandTest {
    private static final JsonFactory JSON = new JsonFactory();

    /** Every coordinator segment with a committed Kafka dump. */
    static List<Path[]> coordinatorSegments() throws IOException {
        List<Path[]> out = new ArrayList<>();
        for (Path dump : Corpus.filesEndingWith(Corpus.testdata(), ".log.txt")) {
            String dir = dump.getParent().getFileName().toString();
            if (!dir.startsWith("__consumer_offsets") && !dir.startsWith("__transaction_state")
                    && !dir.startsWith("__share_group_state")) {
                continue;
            }
            Path dumpRoot = dump.getParent().getParent();
            Path source = Corpus.dumpedDir(dumpRoot).resolve(dir)
                    .resolve(dump.getFileName().toString().replace(".txt", ""));
            if (Files.exists(source)) {
                out.add(new Path[]{source, dump});
            }
        }
        return out;
    }

    /** The {@code data} member of a JSON object, re-serialized canonically. */
    static String data(String json) throws IOException {
        try (JsonParser p = JSON.createParser(json)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.getCurrentName();
                p.nextToken();
                if (name.equals("data")) {
                    StringWriter w = new StringWriter();
                    try (JsonGenerator g = JSON.createGenerator(w)) {
                        g.copyCurrentStructure(p);
                    }
                    return w.toString();
                }
                p.skipChildren();
            }
        }
        return null;
    }

    /** The {@code key.data} / {@code value.data} members of one jsonl line. */
    static String[] keyValueData(String line) throws IOException {
        String[] out = new String[2];
        try (JsonParser p = JSON.createParser(line)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.getCurrentName();
                p.nextToken();
                if ((name.equals("key") || name.equals("value")) && p.currentToken() == JsonToken.START_OBJECT) {
                    StringWriter w = new StringWriter();
                    try (JsonGenerator g = JSON.createGenerator(w)) {
                        g.copyCurrentStructure(p);
                    }
                    out[name.equals("key") ? 0 : 1] = data(w.toString());
                } else {
                    p.skipChildren();
                }
            }
        }
        return out;
    }

    @Test
    void jsonlDataEqualsKafkasOffsetsDecoderJson() throws IOException {
        int compared = 0;
        for (Path[] pair : coordinatorSegments()) {
            List<String> kafka = new ArrayList<>();
            for (String l : Files.readAllLines(pair[1], StandardCharsets.UTF_8)) {
                if (l.startsWith("| offset: ") && l.contains(" key: {")) {
                    kafka.add(l);
                }
            }
            Run run = Run.of("dump", "--format", "jsonl", pair[0].toString());
            assertThat(run.exit()).as(pair[0].toString()).isZero();
            List<String> ours = new ArrayList<>();
            for (String l : run.out().split("\n")) {
                if (l.contains("\"key\":{\"type\"")) {
                    ours.add(l);
                }
            }
            assertThat(ours).as(pair[0].toString()).hasSameSizeAs(kafka);
            for (int i = 0; i < kafka.size(); i++) {
                String k = kafka.get(i);
                int keyAt = k.indexOf(" key: ") + 6;
                int payloadAt = k.indexOf(" payload: ");
                String keyJson = k.substring(keyAt, payloadAt < 0 ? k.length() : payloadAt);
                String payload = payloadAt < 0 ? null : k.substring(payloadAt + 10);
                String[] kv = keyValueData(ours.get(i));
                assertThat(kv[0]).as("key of %s", k).isEqualTo(data(keyJson));
                if (payload == null || payload.equals("<DELETE>")) {
                    assertThat(kv[1]).as("tombstone %s", k).isNull();
                } else {
                    assertThat(kv[1]).as("value of %s", k).isEqualTo(data(payload));
                }
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(500);
    }

    @Test
    void jsonlCarriesBatchContextAndControlRecords() {
        Path seg = Corpus.synthetic().resolve("logdir/synthetic-magic2-0/00000000000000000000.log");
        Run run = Run.of("dump", "--format", "jsonl", seg.toString());
        assertThat(run.exit()).isZero();
        String[] lines = run.out().split("\n");
        assertThat(lines[0]).startsWith("{\"line\":\"record\",\"file\":\"" + seg + "\",\"topic\":\"synthetic-magic2\",\"partition\":0,\"position\":0,"
                + "\"baseOffset\":0,\"lastOffset\":2,\"magic\":2,\"compression\":\"none\"");
        assertThat(lines[0]).contains("\"offset\":0,\"timestamp\":1700000005000,\"time\":\"2023-11-14T22:13:25Z\","
                + "\"timestampType\":\"CreateTime\"");
        assertThat(lines[0]).contains("\"content\":\"plain\"", "\"key\":\"h0\",\"keyEncoding\":\"utf8\"");
        assertThat(lines[0]).contains("\"crcValid\":true,\"crc\":", ",\"count\":3,", ",\"deleteHorizonMs\":null,");
        assertThat(run.out()).contains("\"control\":{\"type\":\"COMMIT\",\"coordinatorEpoch\":");
        assertThat(run.out()).contains("\"control\":{\"type\":\"ABORT\",\"coordinatorEpoch\":");
        assertThat(run.out()).contains("\"value\":null");
    }

    @Test
    void textFormatQuotesStringsAndShowsPositions() {
        Path seg = Corpus.synthetic().resolve("logdir/synthetic-magic2-0/00000000000000000000.log");
        Run run = Run.of("dump", seg.toString());
        assertThat(run.exit()).isZero();
        String[] lines = run.out().split("\n");
        assertThat(lines[0]).isEqualTo("== " + seg + "  topic \"synthetic-magic2\" partition 0");
        assertThat(lines[1]).startsWith("@0 offsets 0..2 count 3 magic 2 none size 351 CreateTime 2023-11-14T22:13:25Z");
        assertThat(lines[2]).startsWith("  0 2023-11-14T22:13:25Z key \"h0\" value \"headers, base timestamp is the latest\" headers {");
        assertThat(lines[lines.length - 1]).startsWith("-- ");
    }

    @Test
    void groupAndTypeFiltersLookInsideCoordinatorRecords() throws IOException {
        Path part = Corpus.synthetic().resolve("logdir/__consumer_offsets-0");
        Run all = Run.of("dump", "--format", "jsonl", part.toString());
        Run commits = Run.of("dump", "--format", "jsonl", "--type", "OffsetCommit", part.toString());
        Run groups = Run.of("dump", "--format", "jsonl", "--type", "GroupMetadata", part.toString());
        long n = all.out().lines().count();
        long c = commits.out().lines().count();
        long g = groups.out().lines().count();
        assertThat(c).isPositive();
        assertThat(g).isPositive();
        assertThat(commits.out().lines()).allMatch(l -> l.contains("\"name\":\"OffsetCommit\""));
        assertThat(c + g).isLessThanOrEqualTo(n);
        String someGroup = firstGroup(commits.out());
        Run one = Run.of("dump", "--format", "jsonl", "--group", someGroup, part.toString());
        assertThat(one.out().lines()).isNotEmpty().allMatch(l -> l.contains("\"group\":" + jsonString(someGroup)));
    }

    private static String firstGroup(String jsonl) {
        String l = jsonl.lines().findFirst().orElseThrow();
        int i = l.indexOf("\"group\":\"") + 9;
        return l.substring(i, l.indexOf('"', i));
    }

    private static String jsonString(String s) {
        return "\"" + s + "\"";
    }

    @Test
    void offsetAndByteBoundsLimitWhatIsRead() {
        Path seg = Corpus.synthetic().resolve("logdir/synthetic-magic2-0/00000000000000000000.log");
        Run run = Run.of("dump", "--format", "jsonl", "--from-offset", "3", "--to-offset", "5", seg.toString());
        assertThat(run.out().lines().map(l -> l.replaceAll(".*\"offset\":(\\d+),.*", "$1")).toList())
                .containsExactly("3", "4", "5");
        Run bytes = Run.of("dump", "--format", "kafka", "--max-bytes", "351", seg.toString());
        assertThat(bytes.out().lines().filter(l -> l.startsWith("baseOffset:")).count()).isEqualTo(1);
    }

    @Test
    void sideFilesInTextAndJsonl() {
        Path part = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir/txn-orders-0");
        Run text = Run.of("dump", "--files", "txnindex", part.toString());
        assertThat(text.out()).contains("00000000000000000000.txnindex  topic \"txn-orders\" partition 0\n"
                + "  aborted producer ");
        Run jsonl = Run.of("dump", "--format", "jsonl", "--files", "txnindex", part.toString());
        List<String> lines = jsonl.out().lines().toList();
        assertThat(lines).isNotEmpty().allMatch(l -> l.startsWith("{\"line\":\"txn-index-entry\",") && l.contains(",\"producerId\":"));
        // the same entries Kafka's tool printed for this file
        long kafkaLines;
        try {
            kafkaLines = Files.readAllLines(Corpus.corpus().resolve("kraft-4.4.0-plain/dump/txn-orders-0/00000000000000000000.txnindex.txt"))
                    .stream().filter(l -> l.startsWith("version: 0 producerId:")).count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertThat((long) lines.size()).isEqualTo(kafkaLines).isPositive();
    }

    @Test
    void exitCodes(@TempDir Path dir) throws IOException {
        assertThat(Run.of("dump", dir.resolve("missing").toString()).exit()).isEqualTo(3);
        assertThat(Run.of("dump", "--format", "nope", dir.toString()).exit()).isEqualTo(2);
        Path bad = dir.resolve("t-0");
        Files.createDirectories(bad);
        byte[] seg = Files.readAllBytes(Corpus.synthetic().resolve("logdir/synthetic-magic2-0/00000000000000000000.log"));
        seg[351 + 16] = 9; // second batch: bad magic
        Files.write(bad.resolve("00000000000000000000.log"), seg);
        Run run = Run.of("dump", bad.toString());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("position 351: invalid-magic");
        assertThat(run.out()).contains("@0 offsets 0..2");
    }

    /**
     * A named pipe (FIFO) given as the PATH is read once as a stream, as standard input is: dump
     * mapped it (and hung waiting for a writer that had gone, after a first pass had drained it);
     * verify read nothing and warned of an empty segment; --format kafka printed no record, exit 0.
     */
    @Test
    void aNamedPipeIsReadOnceAsAStream(@TempDir Path tmp) throws Exception {
        Path segment = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir/__consumer_offsets-40/00000000000000000504.log");
        // the same bytes as a regular file outside its partition dir (no topic known, as for the pipe)
        Path copy = Files.copy(segment, tmp.resolve("copy"));
        String fileDump = Run.of("dump", copy.toString()).out();
        for (String[] args : List.of(new String[]{"dump"}, new String[]{"dump", "--format", "kafka"}, new String[]{"dump", "--threads", "4"},
                new String[]{"verify"})) {
            Path fifo = tmp.resolve("fifo-" + args.length + "-" + args[args.length - 1]);
            Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
            org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo");
            Thread writer = new Thread(() -> {
                try (java.io.OutputStream o = Files.newOutputStream(fifo)) {
                    Files.copy(segment, o);
                } catch (IOException e) {
                    // the reader closed early: the assertions below tell
                }
            });
            writer.setDaemon(true);
            writer.start();
            List<String> a = new ArrayList<>(List.of(args));
            a.add(fifo.toString());
            java.util.concurrent.CompletableFuture<Run> run = java.util.concurrent.CompletableFuture.supplyAsync(() -> Run.of(a.toArray(String[]::new)));
            Run r = run.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(r.exit()).as(a + ": " + r.err()).isZero();
            if (args[0].equals("verify")) {
                assertThat(r.err()).contains("1 files, 127 batches, 508 records; 0 errors, 0 warnings");
            } else if (args.length == 3 && args[1].equals("--format")) {
                assertThat(r.out()).contains("offset: 1011 CreateTime: 1796011415104");
            } else {
                assertThat(r.out()).endsWith("-- 127 batches, 508 records shown\n")
                        .isEqualTo(fileDump.replace(copy.toString(), fifo.toString()));
            }
            writer.join(10_000);
        }
    }

    /** A side file that does not parse (a segment read --as snapshot, a damaged snapshot) is damage: exit 1, not 0. */
    @Test
    void aSideFileThatDoesNotParseIsDamage() {
        String segment = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir/__consumer_offsets-40/00000000000000000000.log").toString();
        for (String format : List.of("text", "jsonl", "kafka")) {
            Run r = Run.of("dump", "--format", format, "--as", "snapshot", segment);
            assertThat(r.exit()).as(format + ": " + r.err()).isEqualTo(1);
            assertThat(r.err()).contains("position 0: snapshot-version");
            Run clean = Run.of("dump", "--format", format, "--files", "all", Corpus.corpus().resolve("kraft-4.4.0-plain/logdir").toString());
            assertThat(clean.exit()).as(format + ": " + clean.err()).isZero();
        }
        Run snapshot = Run.of("dump", "--files", "snapshot", Corpus.root().resolve("testdata/corrupt/snapshot-bad-crc").toString());
        assertThat(snapshot.exit()).as(snapshot.err()).isEqualTo(1);
    }
}
