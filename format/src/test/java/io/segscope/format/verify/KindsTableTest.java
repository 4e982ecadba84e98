package io.segscope.format.verify;

import io.segscope.format.error.Violation;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kinds tables of the README and of the verify package doc are {@link KindsTable}'s output,
 * between their {@code kinds:begin}/{@code kinds:end} markers. After changing {@link Violation},
 * rewrite them with
 * {@code mvn -B -pl format -am test -Dtest=KindsTableTest -Dsurefire.failIfNoSpecifiedTests=false -Dkinds.update=true}.
 */
class KindsTableTest {
    private static final String BEGIN = "kinds:begin";
    private static final String END = "<!-- kinds:end -->";

    @Test
    void readmeTableIsGenerated() throws IOException {
        check(Corpus.root().resolve("README.md"), KindsTable.markdown(), "");
    }

    @Test
    void packageDocTableIsGenerated() throws IOException {
        check(Corpus.root().resolve("format/src/main/java/io/segscope/format/verify/package-info.java"),
                KindsTable.javadoc(), " * ");
    }

    @Test
    void everyKindIsDescribedOnceWithAStableName() {
        Set<String> names = new HashSet<>();
        for (Violation v : Violation.values()) {
            assertThat(names.add(v.kind())).as(v.kind()).isTrue();
            assertThat(v.kind()).matches("[a-z]+(-[a-z0-9]+)*");
            assertThat(v.description()).as(v.kind()).isNotBlank().doesNotContain("\n");
            assertThat(v.files()).as(v.kind()).isNotBlank();
            assertThat(v.severity()).as(v.kind()).matches("-|(error|warning|info)( / (error|warning|info))*");
        }
    }

    @Test
    void helpTextFitsEightyColumnsAndNamesEveryVerifyKind() {
        String help = String.join("\n", KindsTable.helpLines(80));
        for (Violation v : KindsTable.verifyKinds()) {
            assertThat(help).contains("  " + v.kind() + " (" + v.severity());
        }
        assertThat(KindsTable.helpLines(80)).allMatch(l -> l.length() <= 80 || !l.strip().contains(" "));
    }

    private static void check(Path file, String table, String linePrefix) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int begin = text.indexOf(BEGIN);
        assertThat(begin).as(file + " has a " + BEGIN + " marker").isGreaterThanOrEqualTo(0);
        int from = text.indexOf('\n', begin) + 1;
        int to = text.indexOf(linePrefix + END, from);
        assertThat(to).as(file + " has an end marker").isGreaterThanOrEqualTo(from);
        if (Boolean.getBoolean("kinds.update")) {
            Files.writeString(file, text.substring(0, from) + table + text.substring(to), StandardCharsets.UTF_8);
            return;
        }
        assertThat(text.substring(from, to)).as(file + " (regenerate: see the class comment)").isEqualTo(table);
    }
}
