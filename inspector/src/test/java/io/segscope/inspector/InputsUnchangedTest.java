package io.segscope.inspector;

import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Inputs are read, never written: every command, with its writing options, leaves a copy of each
 * corpus run's log dir byte for byte as it was (contents, sizes, modification times, the set of
 * files and dirs), and the main sources open files for writing only where an output is made
 * (compaction's new dirs, standard output), so that nothing else can.
 */
public class InputsUnchangedTest {
    /** Each file and dir under {@code root}: its SHA-256 (or "dir"), size and modification time. */
    public static Map<String, String> state(Path root) throws IOException {
        Map<String, String> state = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.toList()) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                String what = a.isDirectory() ? "dir" : sha256(p) + " " + a.size();
                state.put(root.relativize(p).toString(), what + " " + a.lastModifiedTime().toMillis());
            }
        }
        return state;
    }

    private static String sha256(Path p) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static Stream<Path> runs() throws IOException {
        List<Path> runs = new ArrayList<>();
        try (Stream<Path> s = Files.list(Corpus.corpus())) {
            for (Path run : s.sorted().toList()) {
                if (Files.isDirectory(run.resolve("logdir"))) {
                    runs.add(run);
                }
            }
        }
        assertThat(runs).hasSizeGreaterThanOrEqualTo(8);
        return runs.stream();
    }

    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else {
                    Files.copy(p, q, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("runs")
    void everyCommandLeavesTheLogDirAsItWas(Path run, @TempDir Path tmp) throws IOException {
        Path logdir = tmp.resolve("logdir");
        copy(run.resolve("logdir"), logdir);
        Map<String, String> before = state(logdir);
        String dir = logdir.toString();
        String out = tmp.resolve("out").toString();
        List<String[]> commands = List.of(
                new String[]{"dump", "--files", "log,index,timeindex,txnindex,snapshot", dir},
                new String[]{"dump", "--format", "kafka", "--include", "all", dir},
                new String[]{"dump", "--format", "jsonl", "--threads", "2", dir},
                new String[]{"verify", dir},
                new String[]{"verify", "--format", "jsonl", dir},
                new String[]{"verify", "--salvage", tmp.resolve("salvaged").toString(), dir},
                new String[]{"offsets", "--format", "jsonl", dir},
                new String[]{"history", "--format", "jsonl", "--group", "simple,comma,group", dir},
                new String[]{"groups", "--members", dir},
                new String[]{"locate", "--log-dir", dir, "simple,comma,group"},
                new String[]{"partitions", "--deep", dir},
                new String[]{"partitions", "--time", "-3", dir},
                new String[]{"lag", "--format", "kafka", dir},
                new String[]{"transactions", "--list", dir},
                new String[]{"compat", "--format", "jsonl", dir},
                new String[]{"report", "--out", tmp.resolve("report.html").toString(), dir},
                new String[]{"transactions", "--format", "jsonl", dir},
                new String[]{"compact", "--dry-run", "--roll", dir},
                new String[]{"compact", "--roll", "--snapshot", "--out", out, dir});
        for (String[] command : commands) {
            Run r = Run.of(command);
            assertThat(r.exit()).as("%s ran: %s", List.of(command), r.err()).isBetween(0, 1);
            assertThat(state(logdir)).as("after %s", List.of(command)).isEqualTo(before);
        }
        assertThat(Files.isDirectory(tmp.resolve("out"))).as("compact wrote its output elsewhere").isTrue();
        assertThat(tmp.resolve("salvaged").resolve("salvage-report.jsonl")).as("salvage wrote its output elsewhere").isRegularFile();
    }

    /** zk-offsets and zk-tree leave a ZooKeeper data dir byte for byte (ZooKeeper's own restore may delete an empty log). */
    @Test
    void zooKeeperCommandsLeaveTheDataDirAsItWas(@TempDir Path tmp) throws IOException {
        Path corpus = Corpus.root().resolve("testdata/corpus-zookeeper");
        for (String run : List.of("zk-3.9.5", "zk-3.9.5-datalogdir", "zk-3.6.4-gz", "zk-3.4.14-killed")) {
            Path dir = tmp.resolve(run);
            copy(corpus.resolve(run), dir);
            Map<String, String> before = state(dir);
            String d = dir.toString();
            for (String[] command : List.of(
                    new String[]{"zk-offsets", d},
                    new String[]{"zk-offsets", "--format", "csv", "--export-zk-offsets", tmp.resolve(run + ".txt").toString(), d},
                    new String[]{"zk-offsets", "--as-of-zxid", "0x100", "--no-checksums", d},
                    new String[]{"zk-tree", "--format", "jsonl", d},
                    new String[]{"zk-tree", "--kafka", d},
                    new String[]{"offsets", "--format", "jsonl", "--zookeeper", d, Corpus.corpus().resolve("kraft-4.4.0-plain/logdir").toString()})) {
                Run r = Run.of(command);
                assertThat(r.exit()).as("%s ran: %s", List.of(command), r.err()).isBetween(0, 1);
                assertThat(state(dir)).as("after %s", List.of(command)).isEqualTo(before);
            }
        }
    }

    /** Where the main sources may open a file for writing: outputs only. */
    private static final Map<String, String> WRITERS = Map.of(
            "format/src/main/java/io/segscope/format/write/SegmentWriter.java", "a new segment's files, under temporary names",
            "format/src/main/java/io/segscope/format/compact/Compactor.java", "compaction's temporary output dir, renamed when complete",
            "inspector/src/main/java/io/segscope/inspector/cmd/CompactCommand.java", "the metadata files of compaction's output dir",
            "format/src/main/java/io/segscope/format/state/StateFileWriter.java", "side files of an output dir, under temporary names",
            "format/src/main/java/io/segscope/format/logdir/Copies.java", "copies of input files into an output's temporary dir",
            "format/src/main/java/io/segscope/format/salvage/SalvageOutput.java", "a salvage's temporary output dir, renamed when complete",
            "inspector/src/main/java/io/segscope/inspector/report/ReportFile.java", "the report page, through a temporary file renamed into place",
            "inspector/src/main/java/io/segscope/inspector/Segscope.java", "standard output and error");

    private static final Pattern WRITE_CALL = Pattern.compile(
            "StandardOpenOption\\.(WRITE|APPEND|CREATE|CREATE_NEW|TRUNCATE_EXISTING|DELETE_ON_CLOSE)"
                    + "|Files\\.(write|writeString|newOutputStream|newBufferedWriter|move|copy|delete|deleteIfExists|createFile"
                    + "|setLastModifiedTime|setAttribute|setPosixFilePermissions)\\("
                    + "|new (FileOutputStream|FileWriter|RandomAccessFile)\\(|MapMode\\.READ_WRITE");

    @Test
    void onlyOutputWritersOpenFilesForWriting() throws IOException {
        Path root = Corpus.corpus().getParent().getParent();
        List<String> offenders = new ArrayList<>();
        java.util.Set<String> writersSeen = new java.util.HashSet<>();
        for (String module : List.of("format", "inspector")) {
            try (Stream<Path> all = Files.walk(root.resolve(module).resolve("src/main/java"))) {
                for (Path p : all.filter(f -> f.toString().endsWith(".java")).toList()) {
                    String rel = root.relativize(p).toString();
                    Matcher m = WRITE_CALL.matcher(Files.readString(p));
                    if (m.find()) {
                        if (WRITERS.containsKey(rel)) {
                            writersSeen.add(rel);
                        } else {
                            offenders.add(rel + ": " + m.group());
                        }
                    }
                }
            }
        }
        assertThat(offenders).as("files that could write; inputs are opened read-only").isEmpty();
        assertThat(writersSeen).as("the writers listed still write (else the list is stale)").isEqualTo(WRITERS.keySet());
    }
}
