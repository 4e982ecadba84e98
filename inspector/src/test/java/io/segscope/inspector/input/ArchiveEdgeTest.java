package io.segscope.inspector.input;

import io.segscope.format.logdir.FileEntry;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.verify.Finding;
import io.segscope.format.verify.Verifier;
import io.segscope.inspector.JsonLines;
import io.segscope.inspector.Run;
import io.segscope.inspector.fuzz.ArchiveReading;
import io.segscope.inspector.fuzz.HostileArchive;
import io.segscope.inspector.fuzz.HostileArchive.Entry;
import io.segscope.inspector.fuzz.HostileArchive.Kind;
import io.segscope.inspector.fuzz.HostileArchive.Type;
import io.segscope.testdata.Corpus;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Archives as they come in practice: cut short by a failed copy, named down to an entry
 * ({@code x.tar.gz!/logdir/...}, as segscope prints entries), holding notes beside the log dir,
 * stored in an order unlike the one segscope reads in.
 */
class ArchiveEdgeTest {
    private static final Path RUN = Corpus.corpus().resolve("kraft-4.4.0-plain");
    private static final Path LOGDIR = RUN.resolve("logdir");

    /** A .tar.gz of {@code logdir/} (and extra files by archive name), files sorted or reversed. */
    private static Path tarGz(Path out, boolean reverse, Map<String, String> extra) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(LOGDIR)) {
            files = s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        if (reverse) {
            Collections.reverse(files);
        }
        try (OutputStream os = new GzipCompressorOutputStream(Files.newOutputStream(out));
             TarArchiveOutputStream tar = new TarArchiveOutputStream(os)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Map.Entry<String, String> e : extra.entrySet()) {
                byte[] bytes = e.getValue().getBytes(StandardCharsets.UTF_8);
                TarArchiveEntry entry = new TarArchiveEntry(e.getKey());
                entry.setSize(bytes.length);
                tar.putArchiveEntry(entry);
                tar.write(bytes);
                tar.closeArchiveEntry();
            }
            for (Path f : files) {
                tar.putArchiveEntry(new TarArchiveEntry(f.toFile(), "logdir/" + LOGDIR.relativize(f)));
                Files.copy(f, tar);
                tar.closeArchiveEntry();
            }
        }
        return out;
    }

    private static Path cut(Path archive, Path out, double fraction) throws IOException {
        byte[] all = Files.readAllBytes(archive);
        return Files.write(out, Arrays.copyOf(all, (int) (all.length * fraction)));
    }

    private static List<String> dumpedFiles(String out) {
        return out.lines().filter(l -> l.startsWith("== ")).map(l -> l.substring(3, l.indexOf("  topic") > 0 ? l.indexOf("  topic") : l.length()))
                .collect(Collectors.toList());
    }

    @Test
    void truncatedTarGzIsReadUpToTheCutAndReported(@TempDir Path tmp) throws IOException, InterruptedException {
        Path whole = tarGz(tmp.resolve("whole.tar.gz"), false, Map.of());
        Path cut = cut(whole, tmp.resolve("cut.tar.gz"), 0.5);

        Run dump = Run.of("dump", cut.toString());
        assertThat(dump.exit()).as(dump.err()).isEqualTo(1);
        List<String> dumped = dumpedFiles(dump.out());
        assertThat(dumped).hasSizeGreaterThan(5);
        assertThat(dump.err()).contains("archive truncated: " + cut + " ends after").contains("inside entry " + cut + "!/logdir/");
        String partial = dump.err().replaceAll("(?s).*inside entry (\\S+) .*", "$1").trim();
        assertThat(dumped).doesNotContain(partial);
        // each complete .log is dumped in full: exactly what the file on disk gives
        String first = dumped.get(0);
        Path onDisk = LOGDIR.resolve(first.substring((cut + "!/logdir/").length()));
        assertThat(section(dump.out(), first)).isEqualTo(section(Run.of("dump", onDisk.toString()).out(), onDisk.toString())
                .replace(onDisk.toString(), first));

        Run verify = Run.of("verify", "--format", "jsonl", cut.toString());
        assertThat(verify.exit()).as(verify.err()).isEqualTo(1);
        List<Map<String, Object>> findings = JsonLines.parse(verify.out());
        Map<String, Object> io = findings.stream().filter(f -> f.get("kind").equals("archive-truncated")).findFirst().orElseThrow();
        assertThat(io.get("file")).isEqualTo(partial);
        assertThat((String) io.get("message")).contains("archive truncated").contains("not read");
        assertThat(findings).filteredOn(f -> f.get("severity").equals("error")).hasSize(1);
        assertThat(verify.err()).matches("(?s).*verify: [1-9][0-9]* files.*");

        if (hasTar()) {
            // what tar lists before the cut includes every file segscope read
            Process p = new ProcessBuilder("tar", "tzf", cut.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            Set<String> listed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(l -> cut + "!/" + l).collect(Collectors.toSet());
            p.waitFor();
            assertThat(listed).containsAll(dumped).contains(partial);
        }
    }

    /** compact and locate --log-dir took a truncated archive for the whole log dir: exit 0, nothing said. */
    @Test
    void truncatedTarGzIsAnIoErrorForCompactAndLocate(@TempDir Path tmp) throws IOException {
        Path cut = cut(tarGz(tmp.resolve("whole.tar.gz"), false, Map.of()), tmp.resolve("cut.tar.gz"), 0.5);
        for (String[] args : List.of(new String[]{"compact", "--dry-run", cut.toString()},
                new String[]{"compact", "--out", tmp.resolve("out").toString(), cut.toString()},
                new String[]{"locate", "--log-dir", cut.toString(), "some-group"})) {
            Run r = Run.of(args);
            assertThat(r.exit()).as(String.join(" ", args) + ": " + r.err()).isEqualTo(3);
            assertThat(r.err()).as(String.join(" ", args)).contains("archive truncated: " + cut + " ends after");
        }
    }

    @Test
    void truncatedPlainTarReadsTheEntriesBeforeTheCut(@TempDir Path tmp) throws IOException {
        // a plain tar cut inside its second entry: the first is read, the second reported
        Path whole = tmp.resolve("whole.tar");
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(Files.newOutputStream(whole))) {
            for (String name : List.of("__consumer_offsets-18/00000000000000000000.log", "__consumer_offsets-40/00000000000000000000.log")) {
                Path f = LOGDIR.resolve(name);
                tar.putArchiveEntry(new TarArchiveEntry(f.toFile(), name));
                Files.copy(f, tar);
                tar.closeArchiveEntry();
            }
        }
        long logSize = Files.size(LOGDIR.resolve("__consumer_offsets-18/00000000000000000000.log"));
        long cutAt = 512 + (logSize + 511) / 512 * 512 + 512 + 100;   // inside the second entry's data
        Path cut = Files.write(tmp.resolve("cut.tar"), Arrays.copyOf(Files.readAllBytes(whole), (int) cutAt));
        Run verify = Run.of("verify", cut.toString());
        assertThat(verify.exit()).as(verify.out() + verify.err()).isEqualTo(1);
        assertThat(verify.out()).contains(cut + "!/__consumer_offsets-40/00000000000000000000.log 100 error archive-truncated")
                .contains("100 of its");
        assertThat(verify.err()).contains("verify: 1 files");
    }

    private static String section(String out, String file) {
        List<String> lines = out.lines().collect(Collectors.toList());
        int from = lines.indexOf(lines.stream().filter(l -> l.startsWith("== " + file)).findFirst().orElseThrow());
        List<String> s = new ArrayList<>();
        for (int i = from; i < lines.size() && (i == from || !lines.get(i).startsWith("== ")); i++) {
            s.add(lines.get(i));
        }
        return String.join("\n", s);
    }

    private static boolean hasTar() {
        return Stream.of(System.getenv("PATH").split(java.io.File.pathSeparator))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "tar")));
    }

    @Test
    void entryPathsAsPrintedAreAcceptedAsInput(@TempDir Path tmp) throws IOException {
        Path a = tarGz(tmp.resolve("x.tar.gz"), true, Map.of());
        String entry = a + "!/logdir/__consumer_offsets-18/00000000000000000000.log";
        Run dump = Run.of("dump", "--format", "jsonl", entry);
        assertThat(dump.exit()).as(dump.err()).isZero();
        Path onDisk = LOGDIR.resolve("__consumer_offsets-18/00000000000000000000.log");
        assertThat(dump.out()).isEqualTo(Run.of("dump", "--format", "jsonl", onDisk.toString()).out()
                .replace(onDisk.toString(), entry));
        assertThat(dump.out()).contains("\"topic\":\"__consumer_offsets\"").contains("\"name\":\"OffsetCommit\"");

        Run verifyLog = Run.of("verify", "--format", "jsonl", entry);
        Run verifyLogOnDisk = Run.of("verify", "--format", "jsonl", onDisk.toString());
        assertThat(verifyLog.exit()).isEqualTo(verifyLogOnDisk.exit());
        assertThat(verifyLog.out()).isEqualTo(verifyLogOnDisk.out().replace(onDisk.getParent().toString(), a + "!/logdir/__consumer_offsets-18"));
        assertThat(verifyLog.err()).isEqualTo(verifyLogOnDisk.err());

        String dir = a + "!/logdir/__cluster_metadata-0";
        Run verifyDir = Run.of("verify", "--format", "jsonl", dir + "/");
        assertThat(verifyDir.exit()).as(verifyDir.err()).isZero();
        assertThat(JsonLines.parse(verifyDir.out())).isNotEmpty()
                .allSatisfy(f -> assertThat((String) f.get("file")).startsWith(dir + "/"));
        assertThat(verifyDir.err()).isEqualTo(Run.of("verify", LOGDIR.resolve("__cluster_metadata-0").toString()).err());

        Run dumpDir = Run.of("dump", a + "!/logdir/__consumer_offsets-18");
        assertThat(dumpDir.exit()).isZero();
        assertThat(dumpedFiles(dumpDir.out())).containsExactly(entry);

        Run missing = Run.of("dump", a + "!/logdir/no-such-0");
        assertThat(missing.exit()).isEqualTo(3);
        assertThat(missing.err()).contains("no entry logdir/no-such-0 in " + a);
    }

    @Test
    void filesThatAreNotKafkasAreIgnoredAndNamed(@TempDir Path tmp) throws IOException {
        Path a = tarGz(tmp.resolve("with-notes.tar.gz"), false, new java.util.LinkedHashMap<>(Map.of(
                "README", "what this archive is\n",
                "dumps/offsets-0.txt", "baseOffset: 0 ...\n",
                "dumps/offsets-1.txt", "baseOffset: 0 ...\n")));
        Run verify = Run.of("verify", "--format", "jsonl", a.toString());
        assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
        List<Map<String, Object>> ignored = JsonLines.parse(verify.out()).stream()
                .filter(f -> f.get("kind").equals("ignored")).collect(Collectors.toList());
        assertThat(ignored).allSatisfy(f -> assertThat(f.get("severity")).isEqualTo("info"));
        assertThat(ignored).extracting(f -> f.get("file")).containsExactlyInAnyOrder(a + "!/README", a + "!/dumps");
        assertThat(ignored).extracting(f -> (String) f.get("message")).anySatisfy(m ->
                assertThat(m).contains("2 files: offsets-0.txt, offsets-1.txt"));
        Run plain = Run.of("verify", a.toString());
        assertThat(plain.err()).isEqualTo(Run.of("verify", LOGDIR.toString()).err().replace(" 2 infos", " 4 infos"));

        Run dump = Run.of("dump", a.toString());
        assertThat(dump.exit()).as(dump.err()).isZero();
        assertThat(dump.err()).isEmpty();
        assertThat(dump.out()).doesNotContain("offsets-0.txt");
    }

    /** A compressed tar stored in reverse order is verified in one forward pass, with the findings of the directory. */
    @Test
    void streamArchivesAreReadInOnePass(@TempDir Path tmp) throws IOException {
        Path a = tarGz(tmp.resolve("reversed.tar.gz"), true, Map.of());
        List<Finding> fromDir = new ArrayList<>();
        new Verifier(ReaderOptions.defaults(), fromDir::add).verify(FileEntry.of(LOGDIR));
        List<Finding> fromArchive = new ArrayList<>();
        try (PathArgument arg = PathArgument.open(a)) {
            Verifier v = new Verifier(ReaderOptions.defaults(), fromArchive::add).readOrder(arg.archiveOrder());
            assertThat(v.verify(arg.entry())).isTrue();
            assertThat(arg.tree().restarts()).isZero();
        }
        Set<String> expected = new TreeSet<>();
        fromDir.forEach(f -> expected.add(f.toString().replace(LOGDIR.toString(), "")));
        Set<String> actual = new TreeSet<>();
        fromArchive.forEach(f -> actual.add(f.toString().replace(a + "!/logdir", "")));
        assertThat(actual).isEqualTo(expected).isNotEmpty();
    }

    /**
     * Archives built to attack a reader (ArchiveFuzzTest#structured builds such at random): names
     * that climb out of the archive are read as names inside it, links are not followed (not
     * listed at all), a name stored twice is read once, and nothing outside the archive is read
     * or written (ArchiveReading checks a sandbox around it, with a segment outside that links
     * point at).
     */
    @Test
    void namesThatClimbOutAndLinksStayInsideTheArchive() throws IOException {
        byte[] log = Files.readAllBytes(LOGDIR.resolve("__consumer_offsets-18/00000000000000000000.log"));
        byte[] meta = Files.readAllBytes(LOGDIR.resolve("meta.properties"));
        Path secret = ArchiveReading.OUTSIDE.resolve("secret-0/00000000000000000000.log");
        List<Entry> entries = List.of(
                new Entry("logdir/meta.properties", Type.FILE, meta, null, -1),
                new Entry("logdir/__consumer_offsets-18/00000000000000000000.log", Type.FILE, log, null, -1),
                new Entry("logdir/__consumer_offsets-18/00000000000000000000.log", Type.FILE, new byte[100], null, -1),
                new Entry("../outside/secret-1/00000000000000000000.log", Type.FILE, log, null, -1),
                new Entry("/outside/secret-2/00000000000000000000.log", Type.FILE, log, null, -1),
                new Entry("..\\outside\\secret-3\\00000000000000000000.log", Type.FILE, log, null, -1),
                new Entry("logdir/secret-0/00000000000000000000.log", Type.SYMLINK, new byte[0], secret.toString(), -1),
                new Entry("logdir/secret-4/00000000000000000000.log", Type.SYMLINK, new byte[0], "../../outside/secret.log", -1),
                new Entry("logdir/secret-5/00000000000000000000.log", Type.HARDLINK, new byte[0], "../outside/secret.log", -1),
                new Entry("logdir/loop-0", Type.SYMLINK, new byte[0], "logdir/loop-0", -1));
        for (Kind kind : Kind.values()) {
            Path a = ArchiveReading.write(HostileArchive.build(kind, entries), kind.file).get(0);
            ArchiveReading.read(a, true);
            String dump = ArchiveReading.run("dump", "--format", "jsonl", a.toString());
            assertThat(dump).doesNotContain(ArchiveReading.SENTINEL);
            try (ArchiveTree tree = ArchiveTree.open(a)) {
                assertThat(tree.find("../outside/secret-1/00000000000000000000.log")).as(kind.file).isPresent();
                assertThat(tree.find("outside/secret-2/00000000000000000000.log")).as(kind.file).isPresent();
                // a zip's reader takes backslashes for separators in a name without a slash (as written on Windows)
                assertThat(tree.find(kind == Kind.ZIP ? "../outside/secret-3/00000000000000000000.log"
                        : "..\\outside\\secret-3\\00000000000000000000.log")).as(kind.file).isPresent();
                assertThat(tree.find("logdir/__consumer_offsets-18/00000000000000000000.log").orElseThrow().size())
                        .as("the first of two entries of one name, %s", kind.file).isEqualTo(log.length);
                if (kind != Kind.ZIP) {
                    assertThat(tree.find("logdir/secret-0")).as("links are not read, %s", kind.file).isEmpty();
                    assertThat(tree.find("logdir/secret-5")).as("links are not read, %s", kind.file).isEmpty();
                }
            }
        }
        // the check can fail: the segment outside, stored in the archive, is dumped with its value
        byte[] outside = Files.readAllBytes(secret);
        Path a = ArchiveReading.write(HostileArchive.build(Kind.TAR, List.of(
                new Entry("logdir/secret-0/00000000000000000000.log", Type.FILE, outside, null, -1))), "a.tar").get(0);
        assertThat(ArchiveReading.run("dump", "--format", "jsonl", "--value-format", "text", a.toString()))
                .contains(ArchiveReading.SENTINEL);
    }
}
