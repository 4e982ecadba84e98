package io.segscope.inspector;

import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/architecture.md matches the tree: every package of format and inspector is named there, and
 * every package named there exists, except those on lines marked planned. The code cites only
 * files of the repository (docs/format.md), never notes kept elsewhere.
 */
class ArchitectureDocTest {
    private static final Pattern PACKAGE = Pattern.compile("io\\.segscope\\.(?:format|inspector)(?:\\.[a-z]+)*");

    @Test
    void everyPackageIsDescribedAndEveryDescribedPackageExists() throws IOException {
        Path root = Corpus.root();
        Set<String> actual = new TreeSet<>();
        for (String module : new String[]{"format", "inspector"}) {
            Path src = root.resolve(module).resolve("src/main/java");
            try (Stream<Path> files = Files.walk(src)) {
                files.filter(f -> f.toString().endsWith(".java"))
                        .forEach(f -> actual.add(src.relativize(f.getParent()).toString().replace('/', '.')));
            }
        }
        String doc = Files.readString(root.resolve("docs/architecture.md"), StandardCharsets.UTF_8);
        for (String p : actual) {
            assertThat(doc).as("docs/architecture.md names package " + p).contains("`" + p + "`");
        }
        for (String line : doc.split("\n")) {
            if (line.contains("planned")) {
                continue;
            }
            Matcher m = PACKAGE.matcher(line);
            while (m.find()) {
                String named = m.group();
                assertThat(actual.contains(named) || actual.stream().anyMatch(a -> a.startsWith(named + ".")))
                        .as("docs/architecture.md names " + named + ", which does not exist").isTrue();
            }
        }
    }

    @Test
    void codeCitesOnlyFilesOfTheRepository() throws IOException {
        Path root = Corpus.root();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java") && !p.toString().contains("/target/")).toList()) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                assertThat(text).as(f.toString()).doesNotContain("kafka-" + "format.md").doesNotContain("shared" + "/docs");
            }
        }
    }
}
