package io.segscope.inspector.report;

import io.segscope.format.record.ReaderOptions;
import io.segscope.format.verify.Finding;
import io.segscope.format.verify.Verifier;
import io.segscope.inspector.JsonLines;
import io.segscope.inspector.Run;
import io.segscope.inspector.TarGz;
import io.segscope.testdata.Corpus;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code segscope report}: the page of every corpus log dir, of the replica run's three brokers
 * together, of the synthetic set and of every corruption-catalogue case parses as HTML5 with no
 * error, and its figures are those of the engines (partitions, groups as written, transactions,
 * the compat verdict, verify's findings and every damaged range); an archive gives the page of its
 * directory; escaping, footer, exit codes and the atomic write.
 */
class ReportCommandTest {
    static List<List<Path>> inputs() {
        List<List<Path>> out = new ArrayList<>();
        try (Stream<Path> runs = Files.list(Corpus.corpus())) {
            for (Path run : runs.sorted().toList()) {
                if (Files.isDirectory(run.resolve("logdir"))) {
                    out.add(List.of(run.resolve("logdir")));
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (Path run : Corpus.replicaRuns()) {
            out.add(Corpus.brokerLogDirs(run));
        }
        out.add(List.of(Corpus.synthetic().resolve("logdir")));
        assertThat(out).hasSizeGreaterThanOrEqualTo(11);
        return out;
    }

    static List<Path> corruptCases() throws IOException {
        try (Stream<Path> s = Files.list(Corpus.testdata().resolve("corrupt"))) {
            List<Path> cases = s.filter(Files::isDirectory).sorted().toList();
            assertThat(cases).hasSize(15);
            return cases;
        }
    }

    /** Runs report on {@code paths}, asserts exit 0, parses the page with no HTML5 error. */
    static Document page(Path out, List<Path> paths, String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of("report", "--out", out.toString()));
        args.addAll(List.of(options));
        paths.forEach(p -> args.add(p.toString()));
        Run r = Run.of(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        return parse(out);
    }

    static Document parse(Path out) throws IOException {
        String html = Files.readString(out, StandardCharsets.UTF_8);
        Parser parser = Parser.htmlParser().setTrackErrors(100);
        Document doc = Jsoup.parse(html, "", parser);
        assertThat(parser.getErrors()).as("HTML5 parse errors in %s", out).isEmpty();
        assertThat(html).doesNotContain("http://", "https://", "src=");
        assertThat(doc.select("meta[http-equiv=Content-Security-Policy]").attr("content")).startsWith("default-src 'none'");
        return doc;
    }

    /** A figure of the overview by its name. */
    static String figure(Document doc, String name) {
        for (Element dt : doc.select("#overview dl.figures dt")) {
            if (dt.text().equals(name)) {
                return dt.nextElementSibling().text();
            }
        }
        throw new AssertionError("no figure " + name);
    }

    static long number(String s) {
        return Long.parseLong(s.replace(",", ""));
    }

    /** What Html.text shows of a string, read back as text: the controls an HTML5 parser refuses as \\uXXXX. */
    static String shown(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 && c != '\t' && c != '\n' || c >= 0x7f && c <= 0x9f) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    @ParameterizedTest
    @MethodSource("inputs")
    void figuresAreTheEngines(List<Path> paths, @TempDir Path tmp) throws IOException {
        Document doc = page(tmp.resolve("report.html"), paths);
        String[] in = paths.stream().map(Path::toString).toArray(String[]::new);
        // partitions: one cell per partition
        Set<String> partitions = new TreeSet<>();
        for (Map<String, Object> m : JsonLines.parse(Run.of(concat(new String[] {"partitions", "--format", "jsonl"}, in)).out())) {
            partitions.add(m.get("topic") + "-" + m.get("partition"));
        }
        assertThat(doc.select("#map rect.cell")).hasSize(partitions.size());
        assertThat(number(figure(doc, "partitions"))).isEqualTo(partitions.size());
        // groups: every id, as written
        List<String> groups = JsonLines.parse(Run.of(concat(new String[] {"groups", "--format", "jsonl"}, in)).out()).stream()
                .map(m -> shown((String) m.get("group"))).sorted().toList();
        List<String> shownGroups = doc.select("#groups-table td.gid").stream().map(Element::wholeText).sorted().toList();
        assertThat(shownGroups).isEqualTo(groups);
        // transactions: the open ones
        long txns = JsonLines.parse(Run.of(concat(new String[] {"transactions", "--format", "jsonl"}, in)).out()).size();
        assertThat(doc.select("#txn-table tbody tr")).hasSize((int) txns);
        // compat: the oldest release line that loads them
        Map<String, Object> summary = JsonLines.parse(Run.of(concat(new String[] {"compat", "--format", "jsonl"}, in)).out()).get(0);
        assertThat(figure(doc, "oldest release")).isEqualTo(summary.get("oldestLoading") == null ? "none" : summary.get("oldestLoading"));
        assertThat(doc.select("#releases-chart rect.release")).hasSize(30);
        // verify: every finding counted once, errors apart from crash artefacts
        List<Finding> findings = new ArrayList<>();
        Verifier v = new Verifier(ReaderOptions.defaults(), findings::add);
        paths.forEach(v::verify);
        long errors = findings.stream().filter(f -> f.severity().label().equals("error")).count();
        assertThat(number(figure(doc, "errors"))).isEqualTo(errors);
        // crash artefacts: those verify tells as such (Finding.crashArtefact), never errors
        assertThat(number(figure(doc, "crash artefacts"))).isEqualTo(findings.stream().filter(Finding::crashArtefact).count());
        String run = paths.get(0).getParent().getFileName().toString();
        if (run.equals("kraft-4.4.0-crashed")) {
            // an unclean shutdown: its marker and the 70 preallocated indexes it left
            assertThat(number(figure(doc, "crash artefacts"))).isEqualTo(71);
        } else if (run.equals("kraft-4.4.0-plain")) {
            // a clean shutdown leaves the active segments' indexes preallocated too: infos, not artefacts
            assertThat(number(figure(doc, "crash artefacts"))).isZero();
        }
        assertThat(number(figure(doc, "errors")) + number(figure(doc, "warnings")) + number(figure(doc, "crash artefacts"))
                + number(figure(doc, "infos"))).isEqualTo(findings.size());
        // links to a partition's details (coordinator partitions, transactions, compaction) name a detail that exists
        for (Element a : doc.select("a.show-partition")) {
            assertThat(doc.getElementById("pd-" + a.attr("data-p"))).as(a.text()).isNotNull();
            assertThat(doc.select("#map rect.cell[data-i=" + a.attr("data-p") + "] title").text()).startsWith(a.text() + ":");
        }
        for (Element a : doc.select("a.show-group")) {
            assertThat(doc.getElementById("gd-" + a.attr("data-g"))).isNotNull();
        }
        // every section opens with its verdict
        for (String s : List.of("overview", "partitions", "groups", "transactions", "compaction", "formats")) {
            assertThat(doc.select("#" + s + " > p.verdict").text()).as(s).isNotEmpty();
        }
    }

    private static String[] concat(String[] a, String[] b) {
        return Stream.concat(Stream.of(a), Stream.of(b)).toArray(String[]::new);
    }

    @Test
    void replicasSideBySide(@TempDir Path tmp) throws IOException {
        Path run = Corpus.replicaRuns().get(0);
        Document doc = page(tmp.resolve("r.html"), Corpus.brokerLogDirs(run));
        assertThat(figure(doc, "brokers")).startsWith("3 (");
        // a partition's details: one row of segments per broker
        Element detail = doc.selectFirst(".pdetail");
        assertThat(detail).isNotNull();
        assertThat(detail.select("table").first().select("tbody tr")).hasSize(3);
    }

    @Test
    void damagedRangesOfTheCorruptionCatalogue(@TempDir Path tmp) throws IOException {
        for (Path c : corruptCases()) {
            Document doc = page(tmp.resolve(c.getFileName() + ".html"), List.of(c));
            List<Finding> findings = new ArrayList<>();
            new Verifier(ReaderOptions.defaults(), findings::add).verify(c);
            List<String> rows = doc.select(".damage-table tbody tr").stream()
                    .map(tr -> tr.child(0).text() + " " + tr.child(1).text() + " " + tr.child(3).text() + " " + tr.child(4).text()).toList();
            int ranges = 0;
            for (Finding f : findings) {
                if (!f.hasSkippedBytes() && !f.hasLostOffsets()) {
                    continue;
                }
                ranges++;
                String bytes = f.hasSkippedBytes() ? "[" + f.skippedFrom() + ", " + f.skippedTo() + ")" : "at " + f.position();
                String offsets = f.hasLostOffsets() ? "[" + f.lostFrom() + ", " + (f.lostTo() < 0 ? "?" : Long.toString(f.lostTo())) + "]" : "-";
                assertThat(rows).as("%s", c.getFileName()).contains(f.file() + " " + f.kind() + " " + bytes + " " + offsets);
            }
            assertThat(doc.select("#map rect.cell")).as("%s", c.getFileName()).isNotEmpty();
            assertThat(doc.select("#partitions > p.verdict").text()).as("%s", c.getFileName())
                    .containsAnyOf("damaged or diverged", "with warnings");
            if (ranges > 0) {
                assertThat(doc.select(".pdetail svg rect.damage")).as("%s", c.getFileName()).isNotEmpty();
            }
        }
    }

    @Test
    void archiveGivesThePageOfItsDirectory(@TempDir Path tmp) throws IOException {
        Path dir = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
        Path archive = TarGz.of(tmp.resolve("plain.tar.gz"), dir);
        Document fromDir = page(tmp.resolve("dir.html"), List.of(dir));
        Document fromArchive = page(tmp.resolve("archive.html"), List.of(archive));
        String d = dir.toString();
        String a = archive + "!/logdir";
        for (String section : List.of("overview", "partitions", "groups", "transactions", "formats")) {
            assertThat(fromArchive.selectFirst("#" + section).outerHtml().replace(a, "LOGDIR"))
                    .as(section).isEqualTo(fromDir.selectFirst("#" + section).outerHtml().replace(d, "LOGDIR"));
        }
        assertThat(fromArchive.select("#compaction tbody tr").text()).contains("in an archive: no dry run");
        assertThat(fromArchive.select("#report-data").html()).isEqualTo(fromDir.select("#report-data").html());
    }

    @Test
    void titleIsEscapedAndFooterNamesTheInputs(@TempDir Path tmp) throws IOException {
        Path dir = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
        Path archive = TarGz.of(tmp.resolve("plain.tar.gz"), dir);
        Path out = tmp.resolve("t.html");
        Document doc = page(out, List.of(archive), "--title", "<b>&\"x'</b>\u0001");
        assertThat(doc.title()).isEqualTo("<b>&\"x'</b>\\u0001");
        assertThat(doc.selectFirst("h1").text()).isEqualTo("<b>&\"x'</b>\\u0001");
        assertThat(doc.select("h1 b")).isEmpty();
        String html = Files.readString(out);
        assertThat(html).contains("&lt;b&gt;&amp;&quot;x&#39;&lt;/b&gt;");
        // the JSON in <script> has no markup in it, and says the title as given
        String json = doc.selectFirst("#report-data").data();
        assertThat(json).doesNotContain("<", ">", "&").contains("\\u003cb\\u003e\\u0026");
        assertThat(doc.select("footer").text()).contains("segscope 0.1.0").contains("segscope report --out " + out)
                .contains("--title '<b>&\"x'\\''</b>");
        String sha = HexFormat.of().formatHex(sha256(Files.readAllBytes(archive)));
        assertThat(doc.select("#inputs td.sha").text()).isEqualTo(sha);
    }

    private static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void asOfTimeCutsTheGroups(@TempDir Path tmp) throws IOException {
        Path dir = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
        Document all = page(tmp.resolve("all.html"), List.of(dir));
        Document early = page(tmp.resolve("early.html"), List.of(dir), "--as-of-time", "2026-11-30T04:03:34.300Z");
        assertThat(early.select("header p.asof").text()).isEqualTo("As of 2026-11-30T04:03:34.300Z.");
        assertThat(early.select("header ul.left").text()).contains("--as-of-time cuts the whole report");
        List<String> groupsThen = JsonLines.parse(Run.of("groups", "--format", "jsonl", "--as-of-time", "2026-11-30T04:03:34.300Z",
                dir.toString()).out()).stream().map(m -> shown((String) m.get("group"))).sorted().toList();
        assertThat(early.select("#groups-table td.gid").stream().map(Element::wholeText).sorted().toList()).isEqualTo(groupsThen);
        assertThat(groupsThen.size()).isLessThan(all.select("#groups-table td.gid").size());
        // each partition's log end as of then: partitions --time answers the same search
        Map<String, Long> then = new java.util.HashMap<>();
        for (String line : Run.of("partitions", "--time", Long.toString(java.time.Instant.parse("2026-11-30T04:03:34.300Z").toEpochMilli() + 1),
                dir.toString()).out().lines().toList()) {
            int c = line.lastIndexOf(':');
            int t = line.lastIndexOf(':', c - 1);
            then.put(line.substring(0, t) + "-" + line.substring(t + 1, c), Long.parseLong(line.substring(c + 1)));
        }
        int checked = 0;
        for (Element d : early.select(".pdetail")) {
            String name = d.selectFirst("h3").text().replaceAll(" \\([a-z]+\\)$", "");
            Element row = d.selectFirst("table tbody tr");
            long asOfEnd = Long.parseLong(row.child(6).text());
            long end = Long.parseLong(row.child(5).text());
            if (then.containsKey(name)) {
                assertThat(asOfEnd).as(name).isEqualTo(Math.min(end, then.get(name)));
                checked++;
            } else {
                assertThat(asOfEnd).as(name).isLessThanOrEqualTo(end);
            }
        }
        assertThat(checked).isGreaterThan(5);
    }

    @Test
    void compactionUsesTheTopicsConfigsAndTheCleanerCheckpoint(@TempDir Path tmp) throws IOException {
        // the compressed run's cleaner ran (testdata/corpus/README.md); its checkpoint is in the log dir
        Path dir = Corpus.corpus().resolve("kraft-4.4.0-compressed/logdir");
        String clock = "2026-11-30T04:00:00Z";
        Document doc = page(tmp.resolve("c.html"), List.of(dir), "--as-of-time", clock);
        Map<String, Long> checkpoint = new java.util.HashMap<>();
        for (String line : Files.readAllLines(dir.resolve("cleaner-offset-checkpoint")).subList(2, 6)) {
            String[] f = line.split(" ");
            checkpoint.put(f[0] + "-" + f[1], Long.parseLong(f[2]));
        }
        assertThat(checkpoint).hasSize(4);
        // compact --dry-run: the decision with each topic's configs from the metadata log, from the checkpoint
        Map<String, Map<String, Object>> dry = new java.util.HashMap<>();
        for (Map<String, Object> m : JsonLines.parse(Run.of("compact", "--dry-run", "--format", "jsonl", "--now", clock, dir.toString()).out())) {
            if (m.get("decision") instanceof Map<?, ?> d) {
                @SuppressWarnings("unchecked")
                Map<String, Object> decision = (Map<String, Object>) d;
                dry.put((String) m.get("partition"), decision);
            }
        }
        Map<String, Element> rows = new java.util.HashMap<>();
        for (Element tr : doc.select("#compaction-table tbody tr")) {
            rows.put(tr.child(0).text(), tr);
        }
        assertThat(rows.keySet()).containsAll(checkpoint.keySet());
        String pick = null;
        double best = -1;
        for (Map.Entry<String, Element> e : rows.entrySet()) {
            Map<String, Object> m = dry.get(e.getKey());
            assertThat(m).as(e.getKey()).isNotNull();
            Element tr = e.getValue();
            assertThat(Double.parseDouble(tr.child(5).attr("data-v"))).as(e.getKey())
                    .isCloseTo(Double.parseDouble(String.valueOf(m.get("dirtyRatio"))), org.assertj.core.data.Offset.offset(1e-6));
            assertThat(Double.parseDouble(tr.child(6).attr("data-v"))).as(e.getKey())
                    .isEqualTo(Double.parseDouble(String.valueOf(m.get("minCleanableDirtyRatio"))));
            if (checkpoint.containsKey(e.getKey())) {
                // the cleaner would start where the broker's cleaner stopped
                assertThat(Long.parseLong(String.valueOf(m.get("firstDirtyOffset")))).as(e.getKey()).isEqualTo(checkpoint.get(e.getKey()));
                assertThat(m.get("checkpointReset")).isEqualTo(false);
            }
            assertThat(tr.child(7).text()).as(e.getKey()).isEqualTo(tr.child(7).text().equals("next pick") ? "next pick"
                    : (Boolean) m.get("wouldClean") ? "would clean" : "-");
            if ((Boolean) m.get("wouldClean") && Double.parseDouble(String.valueOf(m.get("dirtyRatio"))) > best) {
                best = Double.parseDouble(String.valueOf(m.get("dirtyRatio")));
                pick = e.getKey();
            }
        }
        // the next pick: the dirtiest partition that qualifies, as LogCleanerManager.grabFilthiestCompactedLog
        List<String> picks = doc.select("#compaction-table tbody tr").stream().filter(tr -> tr.child(7).text().equals("next pick"))
                .map(tr -> tr.child(0).text()).toList();
        assertThat(picks).isEqualTo(pick == null ? List.of() : List.of(pick));
        // the configs: the offsets topic's segment.bytes from the metadata log (1 MiB, not Kafka's 100 MiB default)
        assertThat(rows.get("__consumer_offsets-40").child(8).text()).contains("from the metadata log: ").contains("segment.bytes")
                .contains("broker defaults: ");
        assertThat(doc.select("#compaction > p.verdict").text()).contains("min.cleanable.dirty.ratio");
    }

    @Test
    void crashArtefactsAreVerifysOwn(@TempDir Path tmp) throws IOException {
        for (String run : List.of("kraft-4.4.0-crashed", "kraft-4.4.0-killed-mid-write", "kraft-4.4.0-plain")) {
            Path dir = Corpus.corpus().resolve(run + "/logdir");
            Document doc = page(tmp.resolve(run + ".html"), List.of(dir));
            List<Map<String, Object>> lines = JsonLines.parse(Run.of("verify", "--format", "jsonl", dir.toString()).out());
            List<Map<String, Object>> artefacts = lines.stream().filter(m -> Boolean.TRUE.equals(m.get("crashArtefact"))).toList();
            assertThat(number(figure(doc, "crash artefacts"))).as(run).isEqualTo(artefacts.size());
            assertThat(artefacts).as(run).allSatisfy(m -> assertThat(m.get("severity")).isNotEqualTo("error"));
            // the page marks the same findings
            if (doc.select("#findings-table tbody tr").size() == lines.size()) {
                assertThat(doc.select("#findings-table tbody tr").stream().filter(tr -> tr.child(4).text().equals("crash artefact")).count())
                        .as(run).isEqualTo(artefacts.size());
            }
            Set<String> kinds = artefacts.stream().map(m -> (String) m.get("kind")).collect(Collectors.toCollection(TreeSet::new));
            switch (run) {
                // the missing marker and the 70 preallocated indexes of the segments open at the crash
                case "kraft-4.4.0-crashed" -> {
                    assertThat(artefacts).hasSize(71);
                    assertThat(kinds).containsExactly("index-preallocated", "unclean-shutdown");
                }
                // a kill: the marker missing, and what the kill left
                case "kraft-4.4.0-killed-mid-write" -> assertThat(kinds).contains("unclean-shutdown");
                // a clean shutdown leaves the active segments' indexes preallocated too: not artefacts
                default -> assertThat(artefacts).isEmpty();
            }
        }
    }

    /** The bars of the formats' charts: "label|bucket start" to count, by chart id. */
    static Map<String, Map<String, Long>> formatBars(Document doc) {
        Map<String, Map<String, Long>> out = new java.util.TreeMap<>();
        java.util.regex.Pattern title = java.util.regex.Pattern.compile("^(.*): ([\\d,]+) (?:batches|records) from (\\S+) to (\\S+)$");
        for (Element svg : doc.select("svg.formats-time")) {
            Map<String, Long> bars = new java.util.TreeMap<>();
            for (Element rect : svg.select("rect.bar")) {
                java.util.regex.Matcher m = title.matcher(rect.selectFirst("title").text());
                assertThat(m.matches()).as(rect.selectFirst("title").text()).isTrue();
                bars.merge(m.group(1) + "|" + m.group(3), number(m.group(2)), Long::sum);
            }
            out.put(svg.id(), bars);
        }
        return out;
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"kraft-4.4.0-plain", "kraft-4.4.0-compressed", "legacy-3.9.1-ibp0.10.2-gzip"})
    void formatsOverTimeAreTheInventorys(String run, @TempDir Path tmp) throws IOException {
        Path dir = Corpus.corpus().resolve(run + "/logdir");
        Document doc = page(tmp.resolve("f.html"), List.of(dir));
        // the engine: every partition's inventory in the buckets covering its batches' times
        List<io.segscope.format.logdir.PartitionDir> parts = io.segscope.format.logdir.LogDir.open(dir).partitions();
        long first = Long.MAX_VALUE;
        long last = -1;
        for (var p : parts) {
            long t = io.segscope.format.compat.FormatInventory.firstBatchMaxTimestamp(p, ReaderOptions.defaults());
            if (t >= 0) {
                first = Math.min(first, t);
            }
            last = Math.max(last, io.segscope.format.compat.FormatInventory.of(p, ReaderOptions.defaults()).lastTimestamp());
        }
        io.segscope.format.compat.TimeBuckets buckets = io.segscope.format.compat.TimeBuckets.covering(first, last, 60);
        Map<String, Long> magic = new java.util.TreeMap<>();
        Map<String, Long> codec = new java.util.TreeMap<>();
        long offsetsRecords = 0;
        long undated = 0;
        for (var p : parts) {
            var t = io.segscope.format.compat.FormatInventory.of(p, ReaderOptions.defaults(), false, buckets).timeline();
            undated += t.undated();
            for (var x : t.magics()) {
                for (int i = 0; i < buckets.count(); i++) {
                    if (x.counts()[i] > 0) {
                        magic.merge("magic " + x.key() + "|" + io.segscope.inspector.output.Times.iso(buckets.start(i)), x.counts()[i], Long::sum);
                    }
                }
            }
            for (var x : t.codecs()) {
                String m = x.key().substring(0, 1);
                String label = x.key().substring(2) + (m.equals("2") ? "" : " (magic " + m + ")");
                for (int i = 0; i < buckets.count(); i++) {
                    if (x.counts()[i] > 0) {
                        codec.merge(label + "|" + io.segscope.inspector.output.Times.iso(buckets.start(i)), x.counts()[i], Long::sum);
                    }
                }
            }
            if (p.topic().equals("__consumer_offsets")) {
                for (var x : t.recordVersions()) {
                    offsetsRecords += x.total();
                }
            }
        }
        Map<String, Map<String, Long>> bars = formatBars(doc);
        assertThat(bars.get("formats-time-0")).isEqualTo(magic);
        assertThat(bars.get("formats-time-1")).isEqualTo(codec);
        assertThat(doc.select("#formats h4").eachText()).startsWith("magic", "codec", "__consumer_offsets record versions");
        assertThat(bars.get("formats-time-2").values().stream().mapToLong(Long::longValue).sum()).isEqualTo(offsetsRecords);
        assertThat(doc.select("#formats p.note").text()).contains("Counts per " + buckets.unit() + " (UTC)");
        if (undated > 0) {
            assertThat(doc.select("#formats p.note").text()).contains(String.format(java.util.Locale.ROOT, "%,d batch(es) with no timestamp", undated));
        }
        // the verdict lines: since when and until when
        String verdicts = doc.select("#formats ul.verdicts").text();
        if (run.startsWith("kraft-4.4.0")) {
            assertThat(verdicts).containsPattern("OffsetCommit v4: [\\d,]+ record\\(s\\) since 2026-");
        } else {
            assertThat(verdicts).containsPattern("magic 1: [\\d,]+ batch\\(es\\), the last at 2026-");
        }
    }

    /** One batch line of Kafka's DumpLogSegments output: its segment's base offset, position and the fields read. */
    record DumpBatch(String partition, long segmentBase, long position, long baseOffset, long producerId, boolean transactional,
                     boolean control, long maxTimestamp) {
    }

    /** The batches of a corpus run's dumps, by partition, in offset order. */
    static Map<String, List<DumpBatch>> dumpBatches(Path run) throws IOException {
        java.util.regex.Pattern p = java.util.regex.Pattern.compile("^baseOffset: (\\d+) .* producerId: (-?\\d+) .* isTransactional: (\\w+)"
                + " isControl: (\\w+) .* position: (\\d+) (?:CreateTime|LogAppendTime|NoTimestampType): (-?\\d+) ");
        Map<String, List<DumpBatch>> out = new java.util.TreeMap<>();
        try (Stream<Path> dirs = Files.list(run.resolve("dump"))) {
            for (Path d : dirs.sorted().toList()) {
                out.put(d.getFileName().toString(), new ArrayList<>());
                try (Stream<Path> files = Files.list(d)) {
                    for (Path f : files.filter(x -> x.getFileName().toString().endsWith(".log.txt")).sorted().toList()) {
                        long base = Long.parseLong(f.getFileName().toString().substring(0, 20));
                        for (String l : Files.readAllLines(f)) {
                            java.util.regex.Matcher m = p.matcher(l);
                            if (m.find()) {
                                out.computeIfAbsent(d.getFileName().toString(), k -> new ArrayList<>()).add(new DumpBatch(d.getFileName().toString(),
                                        base, Long.parseLong(m.group(5)), Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                                        m.group(3).equals("true"), m.group(4).equals("true"), Long.parseLong(m.group(6))));
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    @Test
    void asOfTimeCutsPartitionsTransactionsAndFormats(@TempDir Path tmp) throws IOException {
        Path run = Corpus.corpus().resolve("kraft-4.4.0-plain");
        Path dir = run.resolve("logdir");
        // inside the transactional workload: some transactions begun, some ended
        String iso = "2026-11-30T04:03:33.500Z";
        long t = java.time.Instant.parse(iso).toEpochMilli();
        Document doc = page(tmp.resolve("asof.html"), List.of(dir), "--as-of-time", iso);
        Map<String, List<DumpBatch>> dumps = dumpBatches(run);
        // Kafka's dump, cut before each partition's first batch later than t
        Map<String, Long> bytesThen = new java.util.TreeMap<>();
        Map<String, Long> batchesThen = new java.util.TreeMap<>();
        Set<String> openThen = new TreeSet<>();
        for (Map.Entry<String, List<DumpBatch>> e : dumps.entrySet()) {
            String partition = e.getKey();
            String topic = partition.substring(0, partition.lastIndexOf('-'));
            long bytes = 0;
            long segment = -1;
            boolean cut = false;
            long batches = 0;
            Map<Long, Long> open = new java.util.HashMap<>();
            for (DumpBatch b : e.getValue()) {
                if (b.segmentBase() != segment) {
                    if (segment >= 0) {
                        bytes += Files.size(dir.resolve(partition).resolve(String.format("%020d.log", segment)));
                    }
                    segment = b.segmentBase();
                }
                if (b.maxTimestamp() > t) {
                    bytes += b.position();
                    cut = true;
                    break;
                }
                batches++;
                if (b.control()) {
                    open.remove(b.producerId());
                } else if (b.transactional()) {
                    open.putIfAbsent(b.producerId(), b.baseOffset());
                }
            }
            if (!cut && segment >= 0) {
                bytes += Files.size(dir.resolve(partition).resolve(String.format("%020d.log", segment)));
            }
            bytesThen.put(partition, bytes);
            if (!topic.equals("__cluster_metadata")) {
                batchesThen.merge(topic, batches, Long::sum);
            }
            open.forEach((pid, first) -> openThen.add(partition + " " + pid + " " + first));
        }
        // partition figures: bytes up to the cut, in each partition's details (the only replica's row)
        int checked = 0;
        for (Element d : doc.select(".pdetail")) {
            String name = d.selectFirst("h3").text().replaceAll(" \\([a-z]+\\)$", "");
            Element row = d.selectFirst("table tbody tr");
            if (bytesThen.containsKey(name)) {
                assertThat(number(row.child(7).text())).as(name).isEqualTo(bytesThen.get(name));
                checked++;
            }
        }
        assertThat(checked).isEqualTo(77);
        long total = bytesThen.values().stream().mapToLong(Long::longValue).sum();
        assertThat(doc.select("#overview").text()).contains(String.format(java.util.Locale.ROOT, "%,d bytes as of", total));
        // open transactions then: begun at or before t, no marker at or before t
        Set<String> shown = new TreeSet<>();
        for (Element tr : doc.select("#txn-table tbody tr")) {
            shown.add(tr.child(0).text() + " " + tr.child(2).text() + " " + tr.child(4).text());
        }
        assertThat(openThen).isNotEmpty();
        assertThat(shown).isEqualTo(openThen);
        Document all = page(tmp.resolve("all.html"), List.of(dir));
        assertThat(all.select("#txn-table tbody tr").size()).isNotEqualTo(openThen.size());
        // formats then: batches per topic (the metadata log's KRaft snapshot apart)
        for (Element tr : doc.select("#formats-table tbody tr")) {
            String topic = tr.child(0).text();
            if (batchesThen.containsKey(topic)) {
                assertThat(number(tr.child(2).text())).as(topic).isEqualTo(batchesThen.get(topic));
            }
        }
        assertThat(doc.select("#formats-table tbody tr").stream().mapToLong(tr -> number(tr.child(2).text())).sum())
                .isLessThan(all.select("#formats-table tbody tr").stream().mapToLong(tr -> number(tr.child(2).text())).sum());
        // what cannot be cut is said
        assertThat(doc.select("header ul.left").text()).contains("verify's findings are those of the files as they are");
    }

    @Test
    void exitCodes(@TempDir Path tmp) throws IOException {
        Path dir = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
        // missing input: no page
        Run missing = Run.of("report", "--out", tmp.resolve("m.html").toString(), tmp.resolve("nope").toString());
        assertThat(missing.exit()).isEqualTo(3);
        assertThat(tmp.resolve("m.html")).doesNotExist();
        // --out inside an input: usage
        Path copy = tmp.resolve("copy");
        Files.createDirectories(copy);
        Run inside = Run.of("report", "--out", copy.resolve("r.html").toString(), copy.toString());
        assertThat(inside.exit()).isEqualTo(2);
        assertThat(inside.err()).contains("inside the input");
        assertThat(Run.of("report", dir.toString()).exit()).as("--out is required").isEqualTo(2);
        assertThat(Run.of("report", "--out", tmp.resolve("x.html").toString(), "--max-transaction-timeout", "-1", dir.toString()).exit())
                .isEqualTo(2);
        // an output that is not a regular file, or in no directory: no page
        Run device = Run.of("report", "--out", "/dev/full", dir.toString());
        assertThat(device.exit()).isEqualTo(3);
        assertThat(device.err()).contains("not a regular file");
        assertThat(Run.of("report", "--out", tmp.resolve("no/such/dir/r.html").toString(), dir.toString()).exit()).isEqualTo(3);
        Run aDir = Run.of("report", "--out", tmp.toString(), dir.toString());
        assertThat(aDir.exit()).isEqualTo(3);
    }

    @Test
    void anArchiveCutShortGivesAPageAndExit3(@TempDir Path tmp) throws IOException {
        Path dir = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
        Path whole = TarGz.of(tmp.resolve("whole.tar.gz"), dir);
        byte[] b = Files.readAllBytes(whole);
        Path cut = tmp.resolve("cut.tar.gz");
        Files.write(cut, java.util.Arrays.copyOf(b, b.length / 2));
        Path out = tmp.resolve("cut.html");
        Run r = Run.of("report", "--out", out.toString(), cut.toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(3);
        Document doc = parse(out);
        assertThat(number(figure(doc, "partitions"))).isPositive().isLessThan(77);
        assertThat(doc.select("#findings-table td").text()).contains("archive-truncated");
        assertThat(number(figure(doc, "errors"))).isPositive();
    }

    @Test
    void writesAtomically(@TempDir Path tmp) throws IOException {
        Path dir = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
        Path out = tmp.resolve("r.html");
        Files.writeString(out, "old page");
        page(out, List.of(dir));
        assertThat(Files.readString(out)).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
        try (Stream<Path> s = Files.list(tmp)) {
            assertThat(s.map(p -> p.getFileName().toString()).collect(Collectors.toList())).containsExactly("r.html");
        }
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rw-r--r--");
        // a write that fails leaves the old page and no temporary file
        Path ro = tmp.resolve("ro");
        Files.createDirectories(ro);
        Path kept = ro.resolve("r.html");
        Files.writeString(kept, "old page");
        ro.toFile().setWritable(false);
        try {
            if (!Files.isWritable(ro)) {   // root writes anyway
                Run r = Run.of("report", "--out", kept.toString(), dir.toString());
                assertThat(r.exit()).isEqualTo(3);
                assertThat(Files.readString(kept)).isEqualTo("old page");
            }
        } finally {
            ro.toFile().setWritable(true);
        }
        try (Stream<Path> s = Files.list(ro)) {
            assertThat(s.count()).isEqualTo(1);
        }
    }
}
