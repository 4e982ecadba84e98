package io.segscope.inspector;

import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README shows what segscope prints: each code block after a {@code <!-- run: COMMAND -->}
 * marker is {@code $ COMMAND} and the output of running it in-process, from the repository root.
 * COMMAND is {@code ./segscope ARGS} (shell quoting), optionally followed by {@code 2>&1} (stderr
 * after stdout) or {@code 2>/dev/null}, {@code | head -N} or {@code | tail -N}, and {@code ; echo "exit $?"}.
 * Regenerate the blocks after a deliberate change of output with
 *
 * <pre>
 * mvn -B -pl inspector -am test -Dtest=ReadmeExamplesTest -Dsurefire.failIfNoSpecifiedTests=false -Dreadme.update=true
 * </pre>
 */
class ReadmeExamplesTest {
    private static final Pattern MARKER = Pattern.compile("^<!-- run: (\\./segscope .*?) -->$");
    private static final Pattern COMMAND = Pattern.compile(
            "^\\./segscope (.*?)( 2>&1| 2>/dev/null)?( \\| (head|tail) -(\\d+))?(; echo \"exit \\$\\?\")?$");

    @Test
    void examplesShowWhatSegscopePrints() throws IOException {
        Path readme = Corpus.root().resolve("README.md");
        List<String> lines = Files.readAllLines(readme, StandardCharsets.UTF_8);
        List<String> rewritten = new ArrayList<>();
        List<String> differences = new ArrayList<>();
        int examples = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            rewritten.add(line);
            Matcher m = MARKER.matcher(line);
            if (!m.matches()) {
                continue;
            }
            examples++;
            assertThat(lines.get(i + 1)).as("a code block follows " + line).isEqualTo("```");
            int end = i + 2;
            while (!lines.get(end).equals("```")) {
                end++;
            }
            List<String> expected = lines.subList(i + 2, end);
            List<String> actual = run(m.group(1));
            if (!actual.equals(expected)) {
                differences.add(m.group(1) + "\n expected: " + String.join("\n           ", expected)
                        + "\n   actual: " + String.join("\n           ", actual));
            }
            rewritten.add("```");
            rewritten.addAll(actual);
            rewritten.add("```");
            i = end;
        }
        assertThat(examples).isGreaterThanOrEqualTo(10);
        if (Boolean.getBoolean("readme.update")) {
            Files.write(readme, rewritten, StandardCharsets.UTF_8);
            return;
        }
        assertThat(differences).as("README examples that differ from the output (regenerate: see the class comment)").isEmpty();
    }

    /**
     * The test names inputs by absolute path, and a report's page holds its inputs' paths as given: the
     * size it prints is put back to the page's size when run from the repository's root with the
     * README's relative paths, so that it does not depend on where the checkout lies.
     */
    private static String pageSizeFromTheRoot(List<String> args, String prefix, String text) {
        int outAt = args.indexOf("--out");
        if (!"report".equals(args.get(0)) || outAt < 0) {
            return text;
        }
        Path page = Path.of(args.get(outAt + 1));
        if (!Files.isRegularFile(page)) {
            return text;
        }
        try {
            String html = Files.readString(page, StandardCharsets.UTF_8).replace(prefix, "");
            int size = html.getBytes(StandardCharsets.UTF_8).length;
            return text.replaceFirst("\\((\\d+) bytes\\)", "(" + size + " bytes)");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** {@code $ command} and what it prints. */
    static List<String> run(String command) {
        Matcher c = COMMAND.matcher(command);
        assertThat(c.matches()).as("a command the test can run: " + command).isTrue();
        Path root = Corpus.root();
        List<String> args = new ArrayList<>();
        for (String a : split(c.group(1))) {
            args.add(a.startsWith("testdata/") ? root.resolve(a).toString() : a);
        }
        // an example that writes (compact --out, verify --salvage) writes into a fresh dir each time
        for (String option : List.of("--out", "--salvage")) {
            int outAt = args.indexOf(option);
            if (outAt >= 0 && args.get(outAt + 1).startsWith("/tmp/segscope-readme-")) {
                deleteTree(Path.of(args.get(outAt + 1)));
            }
        }
        Run run = Run.of(args.toArray(String[]::new));
        String prefix = root + "/";
        String text = run.out().replace(prefix, "");
        if (" 2>&1".equals(c.group(2))) {
            text += run.err().replace(prefix, "");
        }
        text = pageSizeFromTheRoot(args, prefix, text);
        List<String> out = new ArrayList<>();
        out.add("$ " + command);
        List<String> printed = text.isEmpty() ? List.of() : List.of(text.split("\n", -1));
        if (!printed.isEmpty() && printed.get(printed.size() - 1).isEmpty()) {
            printed = printed.subList(0, printed.size() - 1);
        }
        if (c.group(5) != null) {
            int n = Math.min(printed.size(), Integer.parseInt(c.group(5)));
            printed = "head".equals(c.group(4)) ? printed.subList(0, n) : printed.subList(printed.size() - n, printed.size());
        }
        out.addAll(printed);
        if (c.group(6) != null) {
            out.add("exit " + run.exit());
        }
        return out;
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Words of a shell command line: single and double quotes, no expansions. */
    static List<String> split(String s) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '\'' || ch == '"') {
                int close = s.indexOf(ch, i + 1);
                w.append(s, i + 1, close);
                i = close;
                inWord = true;
            } else if (ch == ' ') {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(ch);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(w.toString());
        }
        return words;
    }
}
