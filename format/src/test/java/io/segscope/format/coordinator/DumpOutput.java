package io.segscope.format.coordinator;

import io.segscope.testdata.Corpus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kafka's DumpLogSegments output: its record lines ({@code | offset: N ...}) by offset, split into
 * the sections its {@code Dumping <path>} lines open, as committed under the corpus runs'
 * {@code dump/} folders, or printed by the tool run in this JVM.
 */
public final class DumpOutput {
    // DOTALL: Jackson does not escape U+2028/U+0085, which '.' would not match otherwise
    private static final Pattern RECORD_LINE = Pattern.compile("^\\| offset: (-?\\d+) .*", Pattern.DOTALL);
    private static final String DUMPING = "Dumping ";

    private DumpOutput() {
    }

    public static boolean isRecordLine(String line) {
        return RECORD_LINE.matcher(line).matches();
    }

    public static long offsetOf(String line) {
        Matcher x = RECORD_LINE.matcher(line);
        if (!x.matches()) {
            throw new IllegalArgumentException(line);
        }
        return Long.parseLong(x.group(1));
    }

    /** The record lines of one file's output, by offset. */
    public static Map<Long, String> byOffset(List<String> lines) {
        Map<Long, String> m = new HashMap<>();
        for (String line : lines) {
            if (isRecordLine(line)) {
                m.put(offsetOf(line), line);
            }
        }
        return m;
    }

    /**
     * Adds to {@code out} the record lines of each {@code Dumping <path>} section of {@code lines},
     * by offset, under the file {@code file} gives for the text after {@code Dumping } (null: the
     * section is passed over).
     */
    public static void bySection(List<String> lines, Function<String, Path> file, Map<Path, Map<Long, String>> out) {
        Map<Long, String> current = null;
        for (String line : lines) {
            if (line.startsWith(DUMPING)) {
                Path f = file.apply(line.substring(DUMPING.length()));
                current = f == null ? null : out.computeIfAbsent(f, k -> new HashMap<>());
            } else if (current != null && isRecordLine(line)) {
                current.put(offsetOf(line), line);
            }
        }
    }

    /** Runs {@code DumpLogSegments.main(args)} in this JVM and returns the lines it printed. */
    public static List<String> run(String... args) throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            Class.forName("org.apache.kafka.tools.DumpLogSegments").getMethod("main", String[].class)
                    .invoke(null, (Object) args);
        } finally {
            System.setOut(out);
        }
        return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }

    /**
     * DumpLogSegments output files in the corpus (any text file under a {@code dump/} folder, at
     * most 256 MiB, whose path {@code dumps} accepts): for each file they dump
     * ({@code Dumping <path>}, the path as given on its command line, resolved against the corpus
     * run that holds the dump), the record lines by offset, keyed by the file's absolute path.
     */
    public static Map<Path, Map<Long, String>> inCorpus(Predicate<Path> dumps) throws IOException {
        Map<Path, Map<Long, String>> out = new HashMap<>();
        Path corpus = Corpus.corpus();
        for (Path dump : Corpus.filesEndingWith(corpus, "")) {
            if (!inDumps(dump) || !dumps.test(dump) || Files.size(dump) > 256L << 20) {
                continue;
            }
            Path run = corpus.resolve(corpus.relativize(dump).getName(0));
            List<String> text;
            try {
                text = Files.readAllLines(dump, StandardCharsets.UTF_8);
            } catch (CharacterCodingException notText) {
                continue;
            }
            bySection(text, dumped -> locate(run, dumped.trim()), out);
        }
        return out;
    }

    /** Whether {@code p} lies in a run's {@code dump/} or {@code dump-copied-while-writing/} (the killed run's copy). */
    private static boolean inDumps(Path p) {
        String s = p.toString();
        return s.contains("/dump/") || s.contains("/dump-copied-while-writing/");
    }

    /** The file a dump's path names: the file under the run, not in a dump, whose path ends with it (the longest match wins). */
    private static Path locate(Path run, String dumpedPath) {
        Path given = Path.of(dumpedPath).normalize();
        int n = given.getNameCount();
        if (n < 2) {
            return null;
        }
        List<Path> candidates = Corpus.filesEndingWith(run, given.getFileName().toString());
        // several log dirs of one run may hold the same partition
        for (int keep = n; keep >= 2; keep--) {
            Path tail = given.subpath(n - keep, n);
            for (Path candidate : candidates) {
                if (candidate.endsWith(tail) && !inDumps(candidate)) {
                    return candidate.toAbsolutePath().normalize();
                }
            }
        }
        return null;
    }
}
