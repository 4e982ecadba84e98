package io.segscope.inspector;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every jsonl line segscope prints, over the whole corpus, the synthetic legacy segments and the
 * corruption catalogue, is valid against the published JSON Schema of its kind (docs/schemas/,
 * draft 2020-12), and every dump line kind and content kind occurs.
 */
class JsonlSchemaTest {
    private static final String[] INPUTS = {"testdata/corpus", "testdata/synthetic", "testdata/corrupt"};
    private static final Pattern LINE = Pattern.compile("^\\{\"line\":\"([a-z-]+)\"");
    private static final Pattern CONTENT = Pattern.compile(",\"content\":\"([a-z]+)\"");
    private static final Map<String, Schema> SCHEMAS = new TreeMap<>();

    @BeforeAll
    static void loadSchemas() throws IOException {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
        Path dir = Corpus.root().resolve("docs/schemas");
        try (var files = Files.list(dir)) {
            for (Path p : files.sorted().toList()) {
                String name = p.getFileName().toString();
                try (InputStream in = Files.newInputStream(p)) {
                    SCHEMAS.put(name.substring(0, name.length() - ".schema.json".length()), registry.getSchema(in, InputFormat.JSON));
                }
            }
        }
        assertThat(SCHEMAS.keySet()).containsExactly("compact-partition", "compat-line", "dump-batch", "dump-offset-index-entry", "dump-record",
                "dump-snapshot-entry", "dump-time-index-entry", "dump-txn-index-entry", "groups-group",
                "history-event", "lag-offset", "locate-group", "offsets-offset", "offsets-zookeeper", "partitions-replica", "salvage-partition",
                "transactions-list", "transactions-transaction", "verify-finding", "zk-offsets-line", "zk-tree-kafka",
                "zk-tree-node");
    }

    private static Run run(String... command) {
        List<String> args = new ArrayList<>(List.of(command));
        for (String in : INPUTS) {
            args.add(Corpus.root().resolve(in).toString());
        }
        return Run.of(args.toArray(String[]::new));
    }

    @Test
    void dumpLinesMatchTheirSchemas() {
        Run run = run("dump", "--format", "jsonl", "--files", "all", "--include", "all");
        Map<String, Integer> lineKinds = new TreeMap<>();
        Set<String> contents = new TreeSet<>();
        List<String> failures = new ArrayList<>();
        for (String line : run.out().split("\n")) {
            Matcher m = LINE.matcher(line);
            assertThat(m.find()).as("every dump line starts with its kind: %s", line).isTrue();
            lineKinds.merge(m.group(1), 1, Integer::sum);
            Matcher c = CONTENT.matcher(line);
            if (c.find()) {
                contents.add(c.group(1));
            }
            Schema schema = SCHEMAS.get("dump-" + m.group(1));
            assertThat(schema).as("a schema for line kind %s", m.group(1)).isNotNull();
            check(schema, line, failures);
        }
        assertThat(failures).as("lines that do not match their schema").isEmpty();
        assertThat(lineKinds.keySet()).containsExactly("batch", "offset-index-entry", "record", "snapshot-entry",
                "time-index-entry", "txn-index-entry");
        assertThat(contents).containsExactly("control", "coordinator", "metadata", "plain");
    }

    @Test
    void verifyFindingsMatchTheirSchema() {
        Run run = run("verify", "--format", "jsonl");
        List<String> failures = new ArrayList<>();
        int lines = 0;
        for (String line : run.out().split("\n")) {
            check(SCHEMAS.get("verify-finding"), line, failures);
            lines++;
        }
        assertThat(failures).as("findings that do not match the schema").isEmpty();
        assertThat(lines).isGreaterThan(100);
    }

    /** The salvage report of every damaged partition of the corpus, the synthetic segments and the catalogue. */
    @Test
    void salvageReportMatchesItsSchema() throws IOException {
        Path out = Files.createTempDirectory("segscope-schema-").resolve("salvaged");
        Run run = run("verify", "--format", "jsonl", "--salvage", out.toString());
        assertThat(run.exit()).as(run.err()).isEqualTo(1);
        List<String> failures = new ArrayList<>();
        List<String> lines = Files.readAllLines(out.resolve("salvage-report.jsonl"));
        for (String line : lines) {
            check(SCHEMAS.get("salvage-partition"), line, failures);
        }
        assertThat(failures).as("report lines that do not match the schema").isEmpty();
        assertThat(lines).hasSizeGreaterThanOrEqualTo(15);
        assertThat(String.join("\n", lines)).contains("\"kind\":\"torn-tail\"")
                .contains("\"kind\":\"dropped-batch\"");
    }

    /** The schemas reject what they should: they are not vacuous. */
    @Test
    void schemasRejectMalformedLines() {
        Run run = Run.of("dump", "--format", "jsonl", "--to-offset", "0",
                Corpus.root().resolve("testdata/corpus/kraft-4.4.0-plain/logdir/__consumer_offsets-18").toString());
        String line = run.out().split("\n")[0];
        List<String> ok = new ArrayList<>();
        check(SCHEMAS.get("dump-record"), line, ok);
        assertThat(ok).isEmpty();
        for (String bad : List.of(line.replace("\"time\":\"", "\"time\":\"-\",\"x\":\""),
                line.replace("\"content\":\"coordinator\"", "\"content\":\"plain\""),
                line.replace("\"transaction\":null,", ""),
                line.replace("\"owner\":", "\"group\":"))) {
            List<String> failures = new ArrayList<>();
            check(SCHEMAS.get("dump-record"), bad, failures);
            assertThat(failures).as(bad).isNotEmpty();
        }
    }

    private static void check(Schema schema, String line, List<String> failures) {
        List<Error> errors = schema.validate(line, InputFormat.JSON);
        if (!errors.isEmpty() && failures.size() < 20) {
            failures.add(errors + " in " + (line.length() > 600 ? line.substring(0, 600) + "..." : line));
        }
    }

    /** offsets, groups, history and locate over every corpus run (each log dir on its own: one cluster each). */
    @Test
    void offsetsGroupsAndHistoryLinesMatchTheirSchemas() throws IOException {
        List<String> failures = new ArrayList<>();
        int lines = 0;
        try (var runs = Files.list(Corpus.corpus())) {
            for (Path run : runs.filter(r -> Files.isDirectory(r.resolve("logdir"))).sorted().toList()) {
                String logDir = run.resolve("logdir").toString();
                List<String[]> commands = List.of(
                        new String[]{"offsets-offset", "offsets", "--format", "jsonl", logDir},
                        new String[]{"offsets-offset", "offsets", "--format", "jsonl", "--pending", logDir},
                        new String[]{"offsets-offset", "offsets", "--format", "jsonl", "--expired", "--retention", "1m", logDir},
                        new String[]{"offsets-offset", "offsets", "--format", "jsonl", "--rename", "simple,comma,group=renamed", logDir},
                        new String[]{"groups-group", "groups", "--format", "jsonl", "--members", logDir},
                        new String[]{"partitions-replica", "partitions", "--format", "jsonl", logDir},
                        new String[]{"partitions-replica", "partitions", "--format", "jsonl", "--deep", logDir},
                        new String[]{"lag-offset", "lag", "--format", "jsonl", logDir},
                        new String[]{"transactions-transaction", "transactions", "--format", "jsonl", logDir},
                        new String[]{"transactions-list", "transactions", "--list", "--format", "jsonl", logDir},
                        new String[]{"compat-line", "compat", "--format", "jsonl", "--target", "3.9", logDir},
                        new String[]{"compat-line", "compat", "--format", "jsonl", "--per-partition", logDir},
                        new String[]{"locate-group", "locate", "--format", "jsonl", "--log-dir", logDir, "simple,comma,group", "g"},
                        new String[]{"locate-group", "locate", "--format", "jsonl", "--topic", "__transaction_state",
                            "--log-dir", logDir, "txn-producer-ü-1"},
                        new String[]{"locate-group", "locate", "--format", "jsonl", "--partitions", "7", "g"},
                        new String[]{"compact-partition", "compact", "--format", "jsonl", "--dry-run", logDir},
                        new String[]{"compact-partition", "compact", "--format", "jsonl", "--dry-run", "--roll", logDir},
                        new String[]{"compact-partition", "compact", "--format", "jsonl", "--roll", "--out",
                            Files.createTempDirectory("segscope-schema-").resolve("out").toString(), logDir});
                for (String[] c : commands) {
                    Run r = Run.of(java.util.Arrays.copyOfRange(c, 1, c.length));
                    for (String line : r.out().split("\n")) {
                        if (!line.isEmpty()) {
                            lines++;
                            check(SCHEMAS.get(c[0]), line, failures);
                        }
                    }
                }
                for (String group : new String[]{"simple,comma,group", "kip848-live-日本", "classic-live-日本", "txn-group,é"}) {
                    Run r = Run.of("history", "--format", "jsonl", "--group", group, logDir);
                    for (String line : r.out().split("\n")) {
                        if (!line.isEmpty()) {
                            lines++;
                            check(SCHEMAS.get("history-event"), line, failures);
                        }
                    }
                }
            }
        }
        assertThat(lines).isGreaterThan(1000);
        assertThat(failures).as("lines that do not match their schema").isEmpty();
    }

    /** zk-offsets and zk-tree (every znode, and --kafka) on every ZooKeeper corpus run. */
    @Test
    void zooKeeperLinesMatchTheirSchemas() throws IOException {
        List<String> failures = new ArrayList<>();
        Set<String> zkKinds = new TreeSet<>();
        int lines = 0;
        try (var runs = Files.list(Corpus.root().resolve("testdata/corpus-zookeeper"))) {
            for (Path run : runs.filter(Files::isDirectory).sorted().toList()) {
                Path in = Files.exists(run.resolve("data.tar.gz")) ? run.resolve("data.tar.gz") : run;
                List<String[]> commands = List.of(
                        new String[]{"zk-offsets-line", "zk-offsets", "--format", "jsonl", in.toString()},
                        new String[]{"zk-tree-node", "zk-tree", "--format", "jsonl", "--max-data", "8", in.toString()},
                        new String[]{"zk-tree-kafka", "zk-tree", "--kafka", "--format", "jsonl", in.toString()},
                        new String[]{"offsets-zookeeper", "offsets", "--format", "jsonl", "--zookeeper", in.toString(),
                            Corpus.corpus().resolve("kraft-4.4.0-plain/logdir").toString()});
                for (String[] c : commands) {
                    Run r = Run.of(java.util.Arrays.copyOfRange(c, 1, c.length));
                    assertThat(r.exit()).as(r.err()).isZero();
                    for (String line : r.out().split("\n")) {
                        if (!line.isEmpty()) {
                            lines++;
                            check(SCHEMAS.get(c[0]), line, failures);
                            if (c[0].equals("zk-offsets-line")) {
                                zkKinds.add(line.startsWith("{\"line\":\"consumer\"") ? "consumer"
                                        : line.contains("\"committed\":false") ? "no commit" : "offset");
                            }
                        }
                    }
                }
            }
        }
        assertThat(zkKinds).containsExactlyInAnyOrder("offset", "no commit", "consumer");
        Schema zk = SCHEMAS.get("zk-offsets-line");
        for (String bad : List.of(
                "{\"line\":\"consumer\",\"group\":\"g\",\"id\":\"c\",\"session\":\"0x1\",\"ctime\":1,\"ctimeIso\":\"x\",\"registration\":null}",
                "{\"line\":\"offset\",\"group\":\"g\",\"topic\":\"t\",\"partition\":\"0\",\"offset\":null,\"value\":null,"
                        + "\"note\":\"no commit\",\"mtime\":null,\"mtimeIso\":null,\"mzxid\":null,\"version\":null,\"path\":null,"
                        + "\"owner\":null,\"ownerSessionOpen\":null}")) {
            List<String> f = new ArrayList<>();
            check(zk, bad, f);
            assertThat(f).as(bad).isNotEmpty();
        }
        assertThat(lines).isGreaterThan(3000);
        assertThat(failures).as("lines that do not match their schema").isEmpty();
    }

    /** Damaged, legacy and synthetic partitions too: every line of partitions (fast and deep) matches its schema. */
    @Test
    void partitionsLinesMatchTheirSchemaOnEveryInput() {
        List<String> failures = new ArrayList<>();
        int lines = 0;
        for (String[] command : List.of(new String[]{"partitions", "--format", "jsonl"}, new String[]{"partitions", "--format", "jsonl", "--deep"})) {
            Run r = run(command);
            for (String line : r.out().split("\n")) {
                if (!line.isEmpty()) {
                    lines++;
                    check(SCHEMAS.get("partitions-replica"), line, failures);
                }
            }
        }
        assertThat(lines).isGreaterThan(500);
        assertThat(failures).as("lines that do not match their schema").isEmpty();
    }
}
