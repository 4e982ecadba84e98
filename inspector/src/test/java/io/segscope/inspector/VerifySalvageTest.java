package io.segscope.inspector;

import io.segscope.testdata.Corpus;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code segscope verify --salvage}: every damaged partition of the corruption catalogue salvaged in
 * one run, with the report naming the catalogue's lost bytes and offsets; an existing output refused
 * unless {@code --force}; an output inside an input refused; an archive salvaged as its unpacked
 * copy is; a clean log dir salvages nothing. (Kafka's loading of salvaged copies is checked in
 * format's {@code SalvageKafkaTest}.)
 */
class VerifySalvageTest {
    @Test
    void theWholeCatalogue(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("salvaged");
        Run r = Run.of("verify", "--salvage", out.toString(), Corpus.resolve("corrupt").toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        List<Map<String, Object>> report = report(out);
        Map<String, Map<String, Object>> byDir = new TreeMap<>();
        for (Map<String, Object> n : report) {
            byDir.put((String) n.get("dir"), n);
        }
        // every case is damaged (errors or warnings), each its own log dir: one sub-directory per case
        try (Stream<Path> cases = Files.list(Corpus.resolve("corrupt"))) {
            long count = cases.filter(Files::isDirectory).count();
            assertThat(report).hasSize((int) count);
        }
        Map<String, Object> mid = byDir.get("mid-segment-damage/__consumer_offsets-0");
        assertThat(mid).isNotNull();
        assertThat(losses(mid)).hasSize(1);
        assertThat(losses(mid).get(0).get("bytes")).isEqualTo(List.of(667L, 1530L));
        assertThat(losses(mid).get(0).get("offsets")).isEqualTo(List.of(5L, 11L));
        assertThat(mid.get("logEndOffset")).isEqualTo(25L);
        Map<String, Object> torn = byDir.get("truncated-mid-batch/__consumer_offsets-0");
        assertThat(losses(torn).get(0).get("kind")).isEqualTo("torn-tail");
        assertThat(losses(torn).get(0).get("offsets")).isEqualTo(List.of(22L, 24L));
        Map<String, Object> count = byDir.get("records-count-crc-valid/__consumer_offsets-0");
        assertThat(losses(count).get(0).get("kind")).isEqualTo("dropped-batch");
        assertThat((String) losses(count).get(0).get("reason")).startsWith("its records cannot be read");
        Map<String, Object> leftovers = byDir.get("leftovers/__consumer_offsets-0");
        assertThat(losses(leftovers)).isEmpty();
        assertThat(leftovers.get("leftOut").toString()).contains("00000000000000000500.*: index files without a .log");
        assertThat(Files.list(out.resolve("leftovers/__consumer_offsets-0")).map(p -> p.getFileName().toString()).sorted().toList())
                .containsExactly("00000000000000000000.index", "00000000000000000000.log", "00000000000000000000.timeindex",
                        "00000000000000000025.snapshot", "leader-epoch-checkpoint");
        assertThat(r.err()).contains("salvage: __consumer_offsets-0: kept 10 batches").contains("partitions written to " + out);
        assertThat(out.resolve("mid-segment-damage/recovery-point-offset-checkpoint"))
                .hasContent("0\n1\n__consumer_offsets 0 25\n");
        try (Stream<Path> siblings = Files.list(tmp)) {
            assertThat(siblings.map(p -> p.getFileName().toString()).toList()).as("no temporary dir left").containsExactly("salvaged");
        }

        // again: refused, then replaced with --force
        Run again = Run.of("verify", "--salvage", out.toString(), Corpus.resolve("corrupt/truncated-mid-batch").toString());
        assertThat(again.exit()).isEqualTo(3);
        assertThat(again.err()).contains("exists already").contains("--force");
        assertThat(report(out)).hasSize(report.size());
        Run forced = Run.of("verify", "--salvage", out.toString(), "--force", Corpus.resolve("corrupt/truncated-mid-batch").toString());
        assertThat(forced.exit()).as(forced.err()).isEqualTo(1);
        assertThat(report(out)).hasSize(1);
        assertThat(out.resolve("__consumer_offsets-0/00000000000000000000.log")).hasSize(3229);
    }

    @Test
    void badUse(@TempDir Path tmp) throws IOException {
        Run force = Run.of("verify", "--force", Corpus.resolve("corrupt/truncated-mid-batch").toString());
        assertThat(force.exit()).isEqualTo(2);
        assertThat(force.err()).contains("--force replaces the --salvage output");
        Path input = tmp.resolve("in");
        InputsUnchangedTest.copy(Corpus.resolve("corrupt/truncated-mid-batch"), input);
        Run inside = Run.of("verify", "--salvage", input.resolve("out").toString(), input.toString());
        assertThat(inside.exit()).isEqualTo(2);
        assertThat(inside.err()).contains("must not be inside an input");
        assertThat(input.resolve("out")).doesNotExist();
        // a segment named on its own is verified, and the user told to give its partition dir
        Path log = Corpus.resolve("corrupt/truncated-mid-batch/__consumer_offsets-0/00000000000000000000.log");
        Run file = Run.of("verify", "--salvage", tmp.resolve("file-out").toString(), log.toString());
        assertThat(file.exit()).isEqualTo(1);
        assertThat(file.err()).contains("--salvage copies partition dirs, not files named on their own: " + log
                + " is only verified (give its partition dir, " + log.getParent() + ")").contains("salvage: 0 partitions");
    }

    /**
     * --force replaces an earlier salvage output or an empty dir, nothing else: it once moved
     * {@code /dev/full} (a device) out of the way and put a directory in its place, and would
     * have deleted any dir named by mistake.
     */
    @Test
    void forceReplacesOnlyAnEarlierOutput(@TempDir Path tmp) throws IOException {
        String damaged = Corpus.resolve("corrupt/truncated-mid-batch").toString();
        Path file = Files.writeString(tmp.resolve("notes.txt"), "keep me\n");
        Path someonesDir = Files.createDirectories(tmp.resolve("home"));
        Files.writeString(someonesDir.resolve("thesis.tex"), "keep me too\n");
        for (Path p : List.of(file, someonesDir)) {
            Run r = Run.of("verify", "--salvage", p.toString(), "--force", damaged);
            assertThat(r.exit()).as(r.err()).isEqualTo(3);
            assertThat(r.err()).contains(p + " exists already and is not replaced: ")
                    .contains("--force replaces only an earlier salvage output (or an empty dir)");
        }
        assertThat(file).hasContent("keep me\n");
        assertThat(someonesDir.resolve("thesis.tex")).hasContent("keep me too\n");
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString()).sorted().toList()).as("no temporary dir left")
                    .containsExactly("home", "notes.txt");
        }
        // an empty dir, then the output just written: replaced
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        assertThat(Run.of("verify", "--salvage", empty.toString(), "--force", damaged).exit()).isEqualTo(1);
        assertThat(empty.resolve("salvage-report.jsonl")).exists();
        Run again = Run.of("verify", "--salvage", empty.toString(), "--force", damaged);
        assertThat(again.exit()).as(again.err()).isEqualTo(1);
    }

    @Test
    void anArchiveAsItsUnpackedCopy(@TempDir Path tmp) throws IOException {
        Path source = Corpus.resolve("corrupt/mid-segment-damage");
        Path archive = tmp.resolve("case.tar.gz");
        try (OutputStream f = Files.newOutputStream(archive);
             TarArchiveOutputStream tar = new TarArchiveOutputStream(new GzipCompressorOutputStream(f))) {
            try (Stream<Path> all = Files.walk(source)) {
                for (Path p : all.sorted().toList()) {
                    if (Files.isRegularFile(p)) {
                        TarArchiveEntry e = new TarArchiveEntry(p.toFile(), "mid-segment-damage/" + source.relativize(p));
                        tar.putArchiveEntry(e);
                        Files.copy(p, tar);
                        tar.closeArchiveEntry();
                    }
                }
            }
        }
        Run fromDir = Run.of("verify", "--salvage", tmp.resolve("a").toString(), source.toString());
        Run fromArchive = Run.of("verify", "--salvage", tmp.resolve("b").toString(), archive.toString());
        assertThat(fromDir.exit()).isEqualTo(1);
        assertThat(fromArchive.exit()).as(fromArchive.err()).isEqualTo(1);
        Map<String, String> a = files(tmp.resolve("a/__consumer_offsets-0"));
        Map<String, String> b = files(tmp.resolve("b/__consumer_offsets-0"));
        assertThat(a).containsKey("00000000000000000000.log").isEqualTo(b);
    }

    /** A broker's log dir: its meta.properties and checkpoints go with the salvaged partitions, the metadata log not in them. */
    @Test
    void aLogDirsCheckpoints(@TempDir Path tmp) throws IOException {
        Path logDir = tmp.resolve("logdir");
        InputsUnchangedTest.copy(Corpus.resolve("corpus/kraft-4.4.0-crashed/logdir"), logDir);
        for (String log : List.of("txn-orders-0/00000000000000000000.log", "__cluster_metadata-0/00000000000000000000.log")) {
            byte[] b = Files.readAllBytes(logDir.resolve(log));
            b[700] ^= 0x5a;
            Files.write(logDir.resolve(log), b);
        }
        Path out = tmp.resolve("out");
        Run r = Run.of("verify", "--min-severity", "warning", "--salvage", out.toString(), logDir.toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(report(out)).extracting(p -> p.get("dir")).containsExactly("__cluster_metadata-0", "txn-orders-0");
        long end = (Long) report(out).get(1).get("logEndOffset");
        assertThat(out.resolve("recovery-point-offset-checkpoint")).hasContent("0\n1\ntxn-orders 0 " + end + "\n");
        assertThat(out.resolve("replication-offset-checkpoint")).hasContent("0\n1\ntxn-orders 0 " + end + "\n");
        assertThat(out.resolve("meta.properties")).hasSameBinaryContentAs(logDir.resolve("meta.properties"));
        assertThat(out.resolve("__cluster_metadata-0/00000000000000000100-0000000001.checkpoint"))
                .hasSameBinaryContentAs(logDir.resolve("__cluster_metadata-0/00000000000000000100-0000000001.checkpoint"));
    }

    @Test
    void aCleanLogDirSalvagesNothing(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("o");
        Run r = Run.of("verify", "--min-severity", "warning", "--salvage", out.toString(),
                Corpus.resolve("corpus/kraft-4.4.0-plain/logdir").toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(report(out)).isEmpty();
        assertThat(r.err()).contains("salvage: 0 partitions written");
    }

    private static List<Map<String, Object>> report(Path out) throws IOException {
        return JsonLines.parse(Files.readString(out.resolve("salvage-report.jsonl")));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> losses(Map<String, Object> partition) {
        return (List<Map<String, Object>>) partition.get("losses");
    }

    private static Map<String, String> files(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                out.put(p.getFileName().toString(), java.util.HexFormat.of().formatHex(
                        java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))));
            }
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }
}
