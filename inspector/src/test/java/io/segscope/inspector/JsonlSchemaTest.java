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
        assertThat(SCHEMAS.keySet()).containsExactly("dump-batch", "dump-offset-index-entry", "dump-record",
                "dump-snapshot-entry", "dump-time-index-entry", "dump-txn-index-entry", "verify-finding");
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
}
