package io.segscope.inspector.report;

import io.segscope.inspector.Run;
import io.segscope.testdata.Corpus;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The report pages in a real browser: headless Chromium loads each page ({@code --dump-dom}),
 * with console logging on stderr. Any console message (a script error, a Content-Security-Policy
 * refusal) fails the test, and so does the page's own error marker ({@code #script-status
 * [data-error]}); every SVG chart drawn by segscope is in the DOM with the expected counts, and the
 * script has coloured every cell of the partition map and opened the detail the address names.
 * Also writes {@code target/report-screenshot.png} ({@code --screenshot}), and with
 * {@code -Dreport.screenshot.update=true} {@code docs/report-screenshot.png} for the README.
 *
 * <p>Skipped, with a message, when no Chromium is found, unless {@code -Dreport.browser.required=true}
 * (CI installs Debian's {@code chromium}).
 */
class ReportBrowserTest {
    private static String chromium;

    @BeforeAll
    static void findChromium() {
        String given = System.getProperty("report.chromium");
        List<String> candidates = given != null ? List.of(given) : List.of("chromium", "chromium-browser", "google-chrome");
        for (String c : candidates) {
            Path found = c.contains("/") ? Path.of(c) : onPath(c);
            if (found != null && Files.isExecutable(found)) {
                chromium = found.toString();
                return;
            }
        }
        String message = "ReportBrowserTest skipped: no Chromium found (looked for " + String.join(", ", candidates)
                + " on PATH; install Debian's chromium, or give -Dreport.chromium=/path/to/chromium)";
        if (Boolean.getBoolean("report.browser.required")) {
            fail(message.replace("skipped", "failed") + "; -Dreport.browser.required=true");
        }
        System.err.println(message);
        Assumptions.abort(message);
    }

    private static Path onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** One browser run: the DOM after the scripts ran, and Chromium's stderr. */
    record Loaded(Document dom, String log) {
    }

    private static Loaded load(Path page, String fragment, Path tmp, String... extra) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(tmp, "chromium-");
        List<String> cmd = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-extensions", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
                "--virtual-time-budget=5000"));
        cmd.addAll(List.of(extra));
        if (extra.length == 0) {
            cmd.add("--dump-dom");
        }
        cmd.add(page.toUri() + fragment);
        Path out = tmp.resolve("dom.html");
        Path err = tmp.resolve("chromium.log");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("chromium did not finish in 120 s on " + page);
        }
        String log = Files.readString(err, StandardCharsets.UTF_8);
        return new Loaded(Jsoup.parse(Files.readString(out, StandardCharsets.UTF_8)), log);
    }

    /** The console messages in Chromium's log: any is a failure. */
    private static List<String> console(String log) {
        return log.lines().filter(l -> l.contains(":CONSOLE") || l.contains("Refused to") || l.contains("Uncaught")).toList();
    }

    /** Builds a page, loads it, checks what every page must show; returns the loaded DOM. */
    private static Document check(Path tmp, String name, List<Path> inputs, String fragment) throws IOException, InterruptedException {
        Path page = tmp.resolve(name + ".html");
        List<String> args = new ArrayList<>(List.of("report", "--out", page.toString()));
        inputs.forEach(i -> args.add(i.toString()));
        Run r = Run.of(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        Document source = Jsoup.parse(Files.readString(page));
        Loaded l = load(page, fragment, tmp);
        assertThat(console(l.log())).as("console of %s", name).isEmpty();
        Element status = l.dom().getElementById("script-status");
        assertThat(status).as(name).isNotNull();
        assertThat(status.hasAttr("data-error")).as("%s: %s", name, status.text()).isFalse();
        int cells = source.select("#map rect.cell").size();
        assertThat(status.attr("data-ok")).as(name).isEqualTo(Integer.toString(cells));
        // every chart segscope drew is there, with its elements
        assertThat(l.dom().select("svg.chart")).as(name).hasSize(source.select("svg.chart").size());
        assertThat(l.dom().select("#map rect.cell")).hasSize(cells);
        assertThat(l.dom().select("#map rect.cell[fill^=#]")).as("%s: every cell coloured", name).hasSize(cells);
        assertThat(l.dom().select("#releases-chart rect.release")).hasSize(30);
        assertThat(l.dom().select("#findings-chart rect.bar")).hasSize(4);
        for (String chart : List.of("svg.history polyline", "svg.offsets rect.segment", "svg.lag rect.bar", "#compaction-chart rect",
                "#formats-chart rect.span", "svg.formats-time rect.bar", "#txn-chart rect.bar")) {
            assertThat(l.dom().select(chart)).as("%s %s", name, chart).hasSize(source.select(chart).size());
        }
        if (!fragment.isEmpty()) {
            Element shown = l.dom().getElementById(fragment.substring(1));
            assertThat(shown).as(name + fragment).isNotNull();
            assertThat(shown.hasAttr("hidden")).as("%s: the detail %s is opened", name, fragment).isFalse();
        }
        return l.dom();
    }

    @Test
    void corpusPagesLoadWithoutAConsoleMessage(@TempDir Path tmp) throws IOException, InterruptedException {
        int loaded = 0;
        for (String run : List.of("kraft-4.4.0-plain", "kraft-4.4.0-compressed", "kraft-4.4.0-crashed", "kraft-4.4.0-killed-mid-write",
                "kraft-3.9.1-plain", "legacy-3.9.1-ibp0.10.0-none")) {
            check(tmp, run, List.of(Corpus.corpus().resolve(run).resolve("logdir")), "");
            loaded++;
        }
        check(tmp, "replicas", Corpus.brokerLogDirs(Corpus.replicaRuns().get(0)), "");
        check(tmp, "synthetic", List.of(Corpus.synthetic().resolve("logdir")), "");
        assertThat(loaded).isEqualTo(6);
    }

    @Test
    void detailsOpenFromTheAddress(@TempDir Path tmp) throws IOException, InterruptedException {
        Path plain = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
        Document groups = check(tmp, "plain-group", List.of(plain), "#gd-25");
        assertThat(groups.select("#gd-25 svg.history")).hasSize(1);
        assertThat(groups.select("#gd-25 .mark.aborted")).isNotEmpty();
        Document partition = check(tmp, "plain-partition", List.of(plain), "#pd-0");
        assertThat(partition.select("#pd-0 rect.segment")).isNotEmpty();
        // a damaged partition: its damaged ranges drawn over its segments
        for (String c : List.of("mid-segment-damage", "truncated-mid-batch")) {
            Document d = check(tmp, c, List.of(Corpus.testdata().resolve("corrupt").resolve(c)), "#pd-0");
            assertThat(d.select("#pd-0 rect.damage")).as(c).isNotEmpty();
        }
    }

    @Test
    void screenshot(@TempDir Path tmp) throws IOException, InterruptedException {
        Path page = tmp.resolve("plain.html");
        // the input as a relative path, as a user types it: the page names its files so
        Path input = Path.of("").toAbsolutePath().relativize(Corpus.corpus().resolve("kraft-4.4.0-plain/logdir"));
        Run r = Run.of("report", "--title", "kraft-4.4.0-plain", "--out", page.toString(), input.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Path png = tmp.resolve("shot.png");
        Loaded l = load(page, "", tmp, "--hide-scrollbars", "--window-size=1100,1250", "--screenshot=" + png);
        assertThat(console(l.log())).isEmpty();
        byte[] b = Files.readAllBytes(png);
        assertThat(b.length).isBetween(10_000, 300 * 1024);
        assertThat(new String(b, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        Path target = Path.of("target", "report-screenshot.png");
        Files.createDirectories(target.toAbsolutePath().getParent());
        Files.copy(png, target, StandardCopyOption.REPLACE_EXISTING);
        if (Boolean.getBoolean("report.screenshot.update")) {
            Files.copy(png, Corpus.root().resolve("docs/report-screenshot.png"), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
