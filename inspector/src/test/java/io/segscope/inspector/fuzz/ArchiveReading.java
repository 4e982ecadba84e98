package io.segscope.inspector.fuzz;

import io.segscope.format.error.FormatException;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.Include;
import io.segscope.inspector.Segscope;
import io.segscope.inspector.input.ArchiveTree;
import io.segscope.inspector.input.Inputs;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads an archive the ways segscope reads one, and checks what a fuzz test of archives holds
 * (format/FUZZING.md): a result or segscope's typed problem, nothing written or read outside.
 *
 * <p>Everything happens in a sandbox made once per JVM: {@code in/} holds the archive under test,
 * {@code outside/} files an archive's links and names may point at. {@code outside/} holds a
 * segment whose one record's value is {@link #SENTINEL}: if any reader followed a link, or
 * resolved a name, out of the archive, that value would show in the dump. After each input the
 * sandbox must hold exactly what it held before, plus the archive.
 */
public final class ArchiveReading {
    /** The value of the record outside the archive. */
    public static final String SENTINEL = "segscope-fuzz-outside-the-archive";
    public static final Path SANDBOX = sandbox();
    static final Path IN = SANDBOX.resolve("in");
    public static final Path OUTSIDE = SANDBOX.resolve("outside");
    private static final Path OUT = SANDBOX.resolve("out");
    private static final Map<String, String> OUTSIDE_FILES = listing(OUTSIDE);
    private static final Path TMP = Path.of(System.getProperty("java.io.tmpdir"));

    private ArchiveReading() {
    }

    private static Path sandbox() {
        try {
            Path dir = Files.createTempDirectory("segscope-archive-fuzz-");
            Files.createDirectories(dir.resolve("in"));
            Path outside = Files.createDirectories(dir.resolve("outside"));
            ByteBuffer segment = MemoryRecords.withRecords(Compression.NONE,
                    new SimpleRecord(0L, "k".getBytes(StandardCharsets.UTF_8), SENTINEL.getBytes(StandardCharsets.UTF_8))).buffer();
            for (Path f : List.of(outside.resolve("secret.log"), outside.resolve("secret-0/00000000000000000000.log"),
                    outside.resolve("logdir/secret-0/00000000000000000000.log"))) {
                Files.createDirectories(f.getParent());
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    ch.write(segment.duplicate());
                }
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Files under {@code dir} (relative paths) with their contents, as text. */
    private static Map<String, String> listing(Path dir) {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted().collect(Collectors.toList())) {
                out.put(dir.relativize(p).toString(), Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                        ? Arrays.toString(Files.readAllBytes(p)) : Files.isSymbolicLink(p) ? "link" : "dir");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static void delete(Path dir) {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The temporary dirs the compact command extracts partitions into. */
    private static Set<String> extractDirs() {
        try (Stream<Path> s = Files.list(TMP)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("segscope-compact-in-"))
                    .collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the bytes as {@code in/<name>} for each name, replacing what the previous input left. */
    public static List<Path> write(byte[] bytes, String... names) {
        try {
            delete(IN);
            Files.createDirectories(IN);
            List<Path> out = new java.util.ArrayList<>();
            for (String n : names) {
                out.add(Files.write(IN.resolve(n), bytes));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads {@code archive} as segscope does: its tree entry by entry, the inputs every command
     * resolves, {@code verify}, {@code dump} (jsonl) and the compaction's dry run (which extracts
     * the partitions to compact to temporary dirs) through the command line's entry point in this
     * JVM; with {@code compact}, {@code dump}'s text too and a compaction into a dir of the sandbox.
     * Then checks the sandbox.
     */
    public static void read(Path archive, boolean compact) {
        Set<String> extractedBefore = extractDirs();
        boolean sentinelInside = contains(archive, SENTINEL);
        tree(archive);
        try (Inputs inputs = Inputs.resolve(List.of(archive), Include.all(), EnumSet.allOf(FileKind.class))) {
            inputs.files().forEach(f -> f.path());
            inputs.problems().forEach(ArchiveReading::typed);
            inputs.unreadablePaths().forEach(ArchiveReading::typed);
            inputs.truncations().forEach(ArchiveReading::typed);
        } catch (FormatException e) {
            typed(e);
        }
        run("verify", "--format", "jsonl", archive.toString());
        String jsonl = run("dump", "--format", "jsonl", "--value-format", "text", archive.toString());
        if (!sentinelInside) {
            assertThat(jsonl).as("a record from outside the archive").doesNotContain(SENTINEL);
        }
        run("compact", "--dry-run", archive.toString());
        if (compact) {
            run("dump", archive.toString());
            run("compact", "--out", OUT.toString(), archive.toString());
            delete(OUT);
        }
        assertThat(extractDirs()).as("temporary dirs of the compaction left behind").isEqualTo(extractedBefore);
        assertThat(listing(OUTSIDE)).as("the files outside the archive").isEqualTo(OUTSIDE_FILES);
        try (Stream<Path> s = Files.list(SANDBOX)) {
            assertThat(s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList()))
                    .as("what the sandbox holds").containsExactly("in", "outside");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (Stream<Path> s = Files.list(IN)) {
            assertThat(s.count()).as("files beside the archive").isLessThanOrEqualTo(2);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean contains(Path archive, String text) {
        try {
            return new String(Files.readAllBytes(archive), StandardCharsets.ISO_8859_1).contains(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Lists the tree and opens every file in it, reading its first 64 KiB. */
    private static void tree(Path archive) {
        try (ArchiveTree tree = ArchiveTree.open(archive)) {
            visit(tree, tree.root());
            tree.truncation().ifPresent(t -> t.message());
        } catch (FormatException e) {
            typed(e);
        }
    }

    /** Every entry below {@code top}, depth first without recursion (an archive may nest thousands deep). */
    private static void visit(ArchiveTree tree, FileEntry top) {
        java.util.ArrayDeque<FileEntry> todo = new java.util.ArrayDeque<>();
        todo.push(top);
        while (!todo.isEmpty()) {
            FileEntry e = todo.pop();
            tree.position(e);
            if (e.isDirectory()) {
                for (FileEntry c : e.children()) {
                    // plain checks: an assertion object per entry costs seconds on a chain 30,000 deep
                    if (c.parent() != e) {
                        throw new AssertionError(c + " does not name " + e + " as its parent");
                    }
                    todo.push(c);
                }
                continue;
            }
            String inner = e.path().substring(e.path().indexOf(ArchiveTree.SEPARATOR) + ArchiveTree.SEPARATOR.length());
            if (tree.find(inner).orElse(null) != e) {
                throw new AssertionError(e + " is not found at its own path");
            }
            try (ByteSource s = e.open()) {
                long n = s.available(0, 1 << 16);
                if (n > 0) {
                    s.ensure(0, (int) n);
                }
            } catch (FormatException x) {
                typed(x);
            }
        }
    }

    /**
     * A FormatException is the typed outcome, unless it wraps an unchecked exception thrown by
     * segscope's own code: that is a bug reported as a problem of the input.
     */
    static void typed(FormatException e) {
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof RuntimeException && !(c instanceof FormatException) && c.getStackTrace().length > 0
                    && c.getStackTrace()[0].getClassName().startsWith("io.segscope.")) {
                throw new AssertionError("segscope's own " + c + " reported as " + e.getMessage(), c);
            }
        }
    }

    /** How an unchecked exception reads when a command prints it ({@code Throwable.toString()}). */
    private static final java.util.regex.Pattern UNCHECKED = java.util.regex.Pattern.compile(
            "java\\.lang\\.[A-Za-z]*(Exception|Error)|java\\.util\\.[A-Za-z]*Exception|java\\.nio\\.[A-Za-z]*Exception");

    /** The command line, made once (picocli resets every option to its default before each parse). */
    private static final StringWriter OUT_TEXT = new StringWriter();
    private static final StringWriter ERR_TEXT = new StringWriter();
    private static final CommandLine COMMAND_LINE = commandLine();

    private static CommandLine commandLine() {
        CommandLine cl = Segscope.newCommandLine(new PrintWriter(OUT_TEXT, true), new PrintWriter(ERR_TEXT, true));
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof FormatException fe) {
                typed(fe);
                return Segscope.EXIT_IO;
            }
            throw ex;
        });
        return cl;
    }

    /**
     * One command through {@link Segscope#newCommandLine}, as the launcher runs it, but for what
     * it does with an exception: a {@link FormatException} ends the command (exit 3) as it does for
     * the launcher; anything else is thrown to the fuzzer rather than printed.
     */
    public static String run(String... args) {
        OUT_TEXT.getBuffer().setLength(0);
        ERR_TEXT.getBuffer().setLength(0);
        int exit = COMMAND_LINE.execute(args);
        COMMAND_LINE.getOut().flush();
        COMMAND_LINE.getErr().flush();
        assertThat(ERR_TEXT.toString()).as("an unchecked exception reported as a message by %s", List.of(args))
                .doesNotContainPattern(UNCHECKED);
        assertThat(exit).as("exit of %s: %s", List.of(args), ERR_TEXT).isIn(Segscope.EXIT_OK, Segscope.EXIT_FINDINGS,
                Segscope.EXIT_IO, args[0].equals("compact") ? Segscope.EXIT_USAGE : Segscope.EXIT_IO);
        return OUT_TEXT.toString();
    }
}
