package io.segscope.inspector.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

import static io.segscope.inspector.report.Fmt.age;
import static io.segscope.inspector.report.Fmt.bytes;
import static io.segscope.inspector.report.Fmt.esc;
import static io.segscope.inspector.report.Fmt.f1;
import static io.segscope.inspector.report.Fmt.n;
import static io.segscope.inspector.report.Fmt.shorten;
import static io.segscope.inspector.report.Fmt.time;

/**
 * The report as one HTML page: the sections in order, each opening with its verdict and figures,
 * charts as inline SVG drawn here, and a small script ({@link PageScript}) for sorting, filtering,
 * switching the map's colouring and showing details. All text goes through {@link Html#text}; the
 * data the script needs is JSON in a {@code <script type="application/json">}, through
 * {@link Html#scriptJson}. The Content-Security-Policy allows only this page's own script and style
 * (by hash): nothing is fetched.
 */
public final class ReportPage {
    private final StringBuilder h = new StringBuilder(1 << 16);
    private final ReportModel.Report r;
    private final MapSection map;

    private ReportPage(ReportModel.Report r) {
        this.r = r;
        this.map = new MapSection(h, r);
    }

    /** The page of {@code report}. */
    public static String render(ReportModel.Report report) {
        return new ReportPage(report).page();
    }
    private static String sha256(String s) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private String page() {
        String script = PageScript.SCRIPT;
        String style = PageScript.STYLE;
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        h.append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-")
                .append(sha256(script)).append("'; style-src 'sha256-").append(sha256(style))
                .append("'; img-src 'none'; base-uri 'none'; form-action 'none'\">\n");
        h.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        h.append("<meta name=\"generator\" content=\"").append(esc(r.footer().version())).append("\">\n");
        h.append("<title>").append(esc(r.title())).append("</title>\n<style>").append(style).append("</style>\n</head>\n<body>\n");
        h.append("<header><h1>").append(esc(r.title())).append("</h1>\n<nav>");
        for (String[] s : new String[][] {{"overview", "Overview"}, {"partitions", "Partition map"}, {"groups", "Consumer groups"},
            {"transactions", "Transactions"}, {"compaction", "Compaction"}, {"formats", "Formats"}}) {
            h.append("<a href=\"#").append(s[0]).append("\">").append(s[1]).append("</a> ");
        }
        h.append("</nav>\n");
        if (r.asOfTime() >= 0) {
            h.append("<p class=\"asof\">As of ").append(esc(time(r.asOfTime()))).append(".</p>\n");
        }
        if (!r.left().isEmpty()) {
            h.append("<ul class=\"left\">");
            for (String l : r.left()) {
                h.append("<li>").append(esc(l)).append("</li>");
            }
            h.append("</ul>\n");
        }
        h.append("<p id=\"script-status\" class=\"status\">The charts are drawn; sorting, filtering and details need the page's script.</p>\n");
        h.append("</header>\n<main>\n");
        overview();
        map.write();
        new GroupsSection(h, r, map).write();
        transactions();
        compaction();
        formats();
        h.append("</main>\n");
        footer();
        h.append("<script type=\"application/json\" id=\"report-data\">").append(Html.scriptJson(data())).append("</script>\n");
        h.append("<script>").append(script).append("</script>\n</body>\n</html>\n");
        return h.toString();
    }

    // ---- overview ----

    private void overview() {
        ReportModel.Overview o = r.overview();
        h.append("<section id=\"overview\">\n<h2>Overview</h2>\n<p class=\"verdict\">");
        if (o.errors() > 0) {
            h.append("Damaged: ").append(n(o.errors())).append(" error(s)");
        } else if (o.warnings() > 0) {
            h.append("Readable, with ").append(n(o.warnings())).append(" warning(s)");
        } else {
            h.append("Clean: no error and no warning");
        }
        h.append("; ").append(n(o.crashArtefacts())).append(" crash artefact(s). ");
        h.append(o.oldestRelease() == null ? "No Kafka release up to 4.4 loads these logs."
                : "These logs load in Kafka " + esc(o.oldestRelease()) + " and later.");
        h.append("</p>\n<dl class=\"figures\">");
        fig("brokers", o.brokers().isEmpty() ? "unknown" : o.brokers().size() + " (" + join(o.brokers()) + ")");
        fig("log dirs", n(o.logDirs()));
        fig("topics", n(o.topics()));
        fig("partitions", n(o.partitions()));
        fig("replicas", n(o.replicas()));
        fig("bytes", o.bytesAsOf() >= 0
                ? bytes(o.bytesAsOf()) + " (" + n(o.bytesAsOf()) + " bytes as of " + time(r.asOfTime()) + "; " + n(o.bytes()) + " now)"
                : bytes(o.bytes()) + " (" + n(o.bytes()) + ")");
        fig("time span", time(o.firstTime()) + " to " + time(o.lastTime()));
        fig("shutdown", o.cleanShutdown() + " clean, " + o.uncleanShutdown() + " unclean, " + o.unknownShutdown() + " unknown (log dirs)");
        fig("verify", n(o.files()) + " files, " + n(o.batches()) + " batches, " + n(o.records()) + " records");
        fig("errors", n(o.errors()));
        fig("warnings", n(o.warnings()));
        fig("crash artefacts", n(o.crashArtefacts()));
        fig("infos", n(o.infos()));
        fig("oldest release", o.oldestRelease() == null ? "none" : o.oldestRelease());
        h.append("</dl>\n");
        // findings by class, as bars
        long[] v = {o.errors(), o.warnings(), o.crashArtefacts(), o.infos()};
        String[] names = {"errors", "warnings", "crash artefacts", "infos"};
        String[] colours = {"#d32f2f", "#f9a825", "#6d4c41", "#90a4ae"};
        long max = 1;
        for (long x : v) {
            max = Math.max(max, x);
        }
        h.append("<svg class=\"chart\" id=\"findings-chart\" width=\"520\" height=\"110\" viewBox=\"0 0 520 110\" role=\"img\" aria-label=\"findings by class\">");
        for (int i = 0; i < 4; i++) {
            double w = v[i] == 0 ? 0 : Math.max(2, 360.0 * v[i] / max);
            h.append("<text x=\"0\" y=\"").append(18 + i * 26).append("\" class=\"lbl\">").append(names[i]).append("</text>");
            h.append("<rect class=\"bar\" x=\"120\" y=\"").append(6 + i * 26).append("\" width=\"").append(f1(w))
                    .append("\" height=\"16\" fill=\"").append(colours[i]).append("\"><title>").append(names[i]).append(": ")
                    .append(n(v[i])).append("</title></rect>");
            h.append("<text x=\"").append(f1(126 + w)).append("\" y=\"").append(18 + i * 26).append("\" class=\"lbl\">")
                    .append(n(v[i])).append("</text>");
        }
        h.append("</svg>\n");
        // release lines
        h.append("<h3>Kafka release lines</h3>\n<svg class=\"chart\" id=\"releases-chart\" width=\"").append(40 + o.releases().size() * 40)
                .append("\" height=\"60\" viewBox=\"0 0 ").append(40 + o.releases().size() * 40).append(" 60\" role=\"img\" aria-label=\"release lines\">");
        for (int i = 0; i < o.releases().size(); i++) {
            ReportModel.Release rl = o.releases().get(i);
            h.append("<rect class=\"release\" x=\"").append(i * 40).append("\" y=\"4\" width=\"38\" height=\"28\" fill=\"")
                    .append(rl.loads() ? "#43a047" : "#e53935").append("\"><title>Kafka ").append(esc(rl.line())).append(" (")
                    .append(esc(rl.release())).append("): ").append(rl.loads() ? "loads" : "cannot load").append(rl.reason().isEmpty() ? "" : "; ")
                    .append(esc(rl.reason())).append("</title></rect><text x=\"").append(i * 40 + 19).append("\" y=\"48\" class=\"tick mid\">")
                    .append(esc(rl.line())).append("</text>");
        }
        h.append("</svg>\n");
        if (!o.findings().isEmpty()) {
            h.append("<h3>Findings</h3>\n<p><input type=\"search\" class=\"filter\" data-table=\"findings-table\" placeholder=\"filter findings\" aria-label=\"filter findings\"></p>\n");
            h.append("<table class=\"sortable\" id=\"findings-table\"><thead><tr><th>file</th><th>position</th><th>severity</th>"
                    + "<th>kind</th><th>class</th><th>message</th></tr></thead><tbody>\n");
            for (ReportModel.Finding f : o.findings()) {
                h.append("<tr class=\"sev-").append(esc(f.severity())).append("\"><td>").append(esc(f.file())).append("</td><td data-v=\"")
                        .append(f.position()).append("\">").append(f.position()).append("</td><td>").append(esc(f.severity()))
                        .append("</td><td>").append(esc(f.kind())).append("</td><td>")
                        .append(f.crashArtefact() ? "crash artefact" : f.severity().equals("error") ? "error" : f.severity().equals("warning") ? "warning" : "info")
                        .append("</td><td>").append(esc(f.message())).append("</td></tr>\n");
            }
            h.append("</tbody></table>\n");
            if (o.findingsLeftOut() > 0) {
                h.append("<p class=\"note\">").append(n(o.findingsLeftOut())).append(" more finding(s) left out (the most severe are listed).</p>\n");
            }
        }
        h.append("</section>\n");
    }

    private void fig(String name, String value) {
        h.append("<div><dt>").append(esc(name)).append("</dt><dd>").append(esc(value)).append("</dd></div>");
    }

    private static String join(List<Integer> xs) {
        StringBuilder sb = new StringBuilder();
        for (Integer x : xs) {
            sb.append(sb.isEmpty() ? "" : ", ").append(x);
        }
        return sb.toString();
    }

    // ---- transactions ----

    private void transactions() {
        List<ReportModel.Transaction> ts = r.transactions();
        long hanging = ts.stream().filter(ReportModel.Transaction::hanging).count();
        h.append("<section id=\"transactions\">\n<h2>Transactions</h2>\n<p class=\"verdict\">");
        h.append(ts.isEmpty() ? "No transaction is open at the end of any partition's log."
                : n(ts.size()) + " open transaction(s), " + hanging + " hanging (idle past " + r.maxTransactionTimeoutMinutes() + " min"
                + (r.coordinatorKnown() ? " and unknown to the coordinator" : "; __transaction_state is not among the inputs, so none is called hanging") + ").");
        h.append(" Ages are counted to ").append(esc(time(r.transactionsEnd()))).append(r.asOfTime() >= 0 ? " (--as-of-time)." : " (the end of the data).");
        h.append("</p>\n");
        if (!ts.isEmpty()) {
            long max = 1;
            for (ReportModel.Transaction t : ts) {
                max = Math.max(max, t.ageMs());
            }
            int shown = Math.min(ts.size(), 50);
            int ht = 16 * shown + 8;
            h.append("<svg class=\"chart\" id=\"txn-chart\" width=\"860\" height=\"").append(ht).append("\" viewBox=\"0 0 860 ").append(ht)
                    .append("\" role=\"img\" aria-label=\"age of open transactions\">");
            for (int k = 0; k < shown; k++) {
                ReportModel.Transaction t = ts.get(k);
                double w = t.ageMs() <= 0 ? 1 : Math.max(1, 500.0 * t.ageMs() / max);
                int y = 4 + 16 * k;
                h.append("<text x=\"0\" y=\"").append(y + 11).append("\" class=\"tick\">").append(esc(shorten(t.partition() + " pid " + t.producerId(), 44)))
                        .append("</text><rect class=\"bar txn\" x=\"300\" y=\"").append(y).append("\" width=\"").append(f1(w)).append("\" height=\"12\" fill=\"")
                        .append(t.hanging() ? "#e53935" : "#fb8c00").append("\"><title>").append(esc(t.verdict())).append("</title></rect><text x=\"")
                        .append(f1(306 + w)).append("\" y=\"").append(y + 11).append("\" class=\"tick\">").append(t.ageMs() < 0 ? "?" : esc(age(t.ageMs()))).append("</text>");
            }
            h.append("</svg>\n");
            h.append("<table class=\"sortable\" id=\"txn-table\"><thead><tr><th>partition</th><th>broker</th><th>producer id</th><th>epoch</th>"
                    + "<th>first offset</th><th>started</th><th>last write</th><th>age</th><th>transactional id</th><th>coordinator</th><th>verdict</th>"
                    + "</tr></thead><tbody>\n");
            for (ReportModel.Transaction t : ts) {
                h.append("<tr").append(t.hanging() ? " class=\"hanging\"" : "").append("><td>").append(map.partitionLink(t.partition())).append("</td><td>")
                        .append(t.broker() < 0 ? "-" : Integer.toString(t.broker())).append("</td><td data-v=\"").append(t.producerId()).append("\">")
                        .append(t.producerId()).append("</td><td>").append(t.producerEpoch()).append("</td><td data-v=\"").append(t.firstOffset()).append("\">")
                        .append(t.firstOffset()).append("</td><td>").append(esc(time(t.firstTimestamp()))).append("</td><td>").append(esc(time(t.lastTimestamp())))
                        .append("</td><td data-v=\"").append(t.ageMs()).append("\">").append(t.ageMs() < 0 ? "-" : esc(age(t.ageMs()))).append("</td><td>")
                        .append(t.transactionalId() == null ? "-" : esc(t.transactionalId())).append("</td><td>")
                        .append(t.coordinatorState() == null ? "-" : esc(t.coordinatorState())).append("</td><td>").append(esc(t.verdict())).append("</td></tr>\n");
            }
            h.append("</tbody></table>\n");
        }
        h.append("</section>\n");
    }


    // ---- compaction ----

    private void compaction() {
        List<ReportModel.Compaction> cs = r.compaction();
        h.append("<section id=\"compaction\">\n<h2>Compaction</h2>\n<p class=\"verdict\">");
        ReportModel.Compaction pick = null;
        long now = 0;
        long after = 0;
        for (ReportModel.Compaction c : cs) {
            if (c.nextPick()) {
                pick = c;
            }
            if (c.bytesAfter() >= 0) {
                now += c.bytesNow();
                after += c.bytesAfter();
            }
        }
        if (cs.isEmpty()) {
            h.append("No compacted partition.");
        } else {
            h.append(n(cs.size())).append(" compacted partition(s); a clean of those dry-run would take them from ").append(esc(bytes(now)))
                    .append(" to ").append(esc(bytes(after))).append(". ");
            h.append(pick == null ? "The cleaner would pick none now (no dirty ratio above its topic's min.cleanable.dirty.ratio and none past its max compaction lag)."
                    : "The cleaner's next pick: " + esc(pick.partition()) + " (dirty ratio " + String.format(Locale.ROOT, "%.3f", pick.dirtyRatio())
                    + ", min.cleanable.dirty.ratio " + String.format(Locale.ROOT, "%.3f", pick.minRatio()) + ").");
            long defaulted = cs.stream().filter(c -> c.configs().contains("broker defaults")).count();
            if (defaulted > 0) {
                h.append(" The cleaner's configs are each topic's from the metadata log; ").append(n(defaulted))
                        .append(" partition(s) have some left at Kafka's broker defaults (a broker's own overrides are not in its log dir).");
            }
        }
        h.append("</p>\n");
        if (!cs.isEmpty()) {
            int shown = Math.min(cs.size(), 60);
            long max = 1;
            for (int k = 0; k < shown; k++) {
                max = Math.max(max, cs.get(k).bytesNow());
            }
            int ht = 22 * shown + 8;
            h.append("<svg class=\"chart\" id=\"compaction-chart\" width=\"860\" height=\"").append(ht).append("\" viewBox=\"0 0 860 ").append(ht)
                    .append("\" role=\"img\" aria-label=\"bytes now and after a clean\">");
            for (int k = 0; k < shown; k++) {
                ReportModel.Compaction c = cs.get(k);
                int y = 4 + 22 * k;
                double w0 = Math.max(1, 500.0 * c.bytesNow() / max);
                h.append("<text x=\"0\" y=\"").append(y + 12).append("\" class=\"tick\">").append(esc(shorten(c.partition(), 40))).append(c.nextPick() ? " \u2190 next" : "")
                        .append("</text><rect class=\"bar now\" x=\"280\" y=\"").append(y).append("\" width=\"").append(f1(w0))
                        .append("\" height=\"9\" fill=\"#90a4ae\"><title>now: ").append(esc(bytes(c.bytesNow()))).append(", ")
                        .append(c.recordsNow() < 0 ? "?" : n(c.recordsNow())).append(" records</title></rect>");
                if (c.bytesAfter() >= 0) {
                    double w1 = Math.max(1, 500.0 * c.bytesAfter() / max);
                    h.append("<rect class=\"bar after\" x=\"280\" y=\"").append(y + 10).append("\" width=\"").append(f1(w1))
                            .append("\" height=\"9\" fill=\"#26a69a\"><title>after a clean: ").append(esc(bytes(c.bytesAfter()))).append(", ")
                            .append(c.recordsAfter() < 0 ? "?" : n(c.recordsAfter())).append(" records</title></rect>");
                }
            }
            h.append("</svg>\n");
            if (cs.size() > shown) {
                h.append("<p class=\"note\">").append(cs.size() - shown).append(" more partition(s) not drawn (all are in the table).</p>\n");
            }
            h.append("<table class=\"sortable\" id=\"compaction-table\"><thead><tr><th>partition</th><th>bytes now</th><th>records now</th>"
                    + "<th>bytes after</th><th>records after</th><th>dirty ratio</th><th>min ratio</th><th>cleaner</th><th>configs</th><th>note</th></tr></thead><tbody>\n");
            for (ReportModel.Compaction c : cs) {
                h.append("<tr><td>").append(map.partitionLink(c.partition())).append("</td><td data-v=\"").append(c.bytesNow()).append("\">").append(n(c.bytesNow()))
                        .append("</td><td data-v=\"").append(c.recordsNow()).append("\">").append(c.recordsNow() < 0 ? "-" : n(c.recordsNow()))
                        .append("</td><td data-v=\"").append(c.bytesAfter()).append("\">").append(c.bytesAfter() < 0 ? "-" : n(c.bytesAfter()))
                        .append("</td><td data-v=\"").append(c.recordsAfter()).append("\">").append(c.recordsAfter() < 0 ? "-" : n(c.recordsAfter()))
                        .append("</td><td data-v=\"").append(String.format(Locale.ROOT, "%.6f", c.dirtyRatio())).append("\">")
                        .append(c.dirtyRatio() < 0 ? "-" : String.format(Locale.ROOT, "%.3f", c.dirtyRatio())).append("</td><td data-v=\"")
                        .append(String.format(Locale.ROOT, "%.6f", c.minRatio())).append("\">").append(String.format(Locale.ROOT, "%.3f", c.minRatio()))
                        .append("</td><td>").append(c.nextPick() ? "next pick" : c.wouldClean() ? "would clean" : "-").append("</td><td>")
                        .append(esc(c.configs())).append("</td><td>").append(esc(c.note()))
                        .append("</td></tr>\n");
            }
            h.append("</tbody></table>\n");
        }
        h.append("</section>\n");
    }

    // ---- formats ----

    private void formats() {
        ReportModel.Formats f = r.formats();
        long[] magic = new long[3];
        long unknown = 0;
        for (ReportModel.TopicFormat t : f.topics()) {
            for (int i = 0; i < 3; i++) {
                magic[i] += t.byMagic()[i];
            }
        }
        for (ReportModel.Span s : f.spans()) {
            if (!s.known()) {
                unknown++;
            }
        }
        h.append("<section id=\"formats\">\n<h2>Formats</h2>\n<p class=\"verdict\">");
        h.append("Batches: ").append(n(magic[0])).append(" of magic 0, ").append(n(magic[1])).append(" of magic 1, ").append(n(magic[2]))
                .append(" of magic 2; ").append(unknown == 0 ? "every coordinator and metadata record version is one segscope knows."
                        : unknown + " record type(s) or version(s) segscope does not know.");
        h.append("</p>\n<table class=\"sortable\" id=\"formats-table\"><thead><tr><th>topic</th><th>partitions</th><th>batches</th><th>magic 0</th>"
                + "<th>magic 1</th><th>magic 2</th><th>codecs</th><th>transactional</th><th>control</th></tr></thead><tbody>\n");
        for (ReportModel.TopicFormat t : f.topics()) {
            h.append("<tr><td>").append(esc(t.topic())).append("</td><td data-v=\"").append(t.partitions()).append("\">").append(t.partitions())
                    .append("</td><td data-v=\"").append(t.batches()).append("\">").append(n(t.batches())).append("</td>");
            for (int i = 0; i < 3; i++) {
                h.append("<td data-v=\"").append(t.byMagic()[i]).append("\">").append(n(t.byMagic()[i])).append("</td>");
            }
            h.append("<td>").append(esc(t.codecs())).append("</td><td data-v=\"").append(t.transactional()).append("\">").append(n(t.transactional()))
                    .append("</td><td data-v=\"").append(t.control()).append("\">").append(n(t.control())).append("</td></tr>\n");
        }
        h.append("</tbody></table>\n");
        FormatsTimeline.render(h, f);
        // spans over time: one row per (topic, what)
        long t0 = Long.MAX_VALUE;
        long t1 = Long.MIN_VALUE;
        for (ReportModel.Span s : f.spans()) {
            if (s.firstTime() >= 0) {
                t0 = Math.min(t0, s.firstTime());
                t1 = Math.max(t1, s.lastTime());
            }
        }
        int shown = Math.min(f.spans().size(), 200);
        if (shown > 0 && t0 != Long.MAX_VALUE) {
            if (t1 <= t0) {
                t1 = t0 + 1;
            }
            h.append("<h3>When each format was written</h3>\n<p class=\"note\">Each magic and codec (by topic: the topic's first and last"
                    + " batch time, with its batches), and each coordinator or metadata record version (its first and last record, with its"
                    + " records).</p>\n");
            int ht = 16 * shown + 24;
            double sx = 460.0 / (t1 - t0);
            h.append("<svg class=\"chart\" id=\"formats-chart\" width=\"860\" height=\"").append(ht).append("\" viewBox=\"0 0 860 ").append(ht)
                    .append("\" role=\"img\" aria-label=\"formats over time\">");
            for (int k = 0; k < shown; k++) {
                ReportModel.Span s = f.spans().get(k);
                int y = 4 + 16 * k;
                h.append("<text x=\"0\" y=\"").append(y + 11).append("\" class=\"tick\">").append(esc(shorten(s.topic() + ": " + s.what(), 58)))
                        .append("</text>");
                if (s.firstTime() >= 0) {
                    double x0 = 380 + (s.firstTime() - t0) * sx;
                    double w = Math.max(2, (s.lastTime() - s.firstTime()) * sx);
                    h.append("<rect class=\"span\" x=\"").append(f1(x0)).append("\" y=\"").append(y).append("\" width=\"").append(f1(w))
                            .append("\" height=\"12\" fill=\"").append(s.known() ? "#7e57c2" : "#e53935").append("\"><title>").append(esc(s.what()))
                            .append(": ").append(n(s.count())).append(" from ").append(esc(time(s.firstTime()))).append(" to ").append(esc(time(s.lastTime())))
                            .append("</title></rect>");
                }
                h.append("<text x=\"850\" y=\"").append(y + 11).append("\" class=\"tick end\">").append(n(s.count())).append("</text>");
            }
            h.append("<text x=\"380\" y=\"").append(ht - 4).append("\" class=\"tick\">").append(esc(time(t0))).append("</text><text x=\"840\" y=\"")
                    .append(ht - 4).append("\" class=\"tick end\">").append(esc(time(t1))).append("</text>");
            h.append("</svg>\n");
            if (f.spans().size() > shown) {
                h.append("<p class=\"note\">").append(f.spans().size() - shown).append(" more row(s) left out.</p>\n");
            }
        }
        h.append("</section>\n");
    }

    // ---- footer and data ----

    private void footer() {
        ReportModel.Footer f = r.footer();
        h.append("<footer>\n<p>").append(esc(f.version())).append("</p>\n<p class=\"cmd\"><code>").append(esc(f.commandLine())).append("</code></p>\n");
        h.append("<table id=\"inputs\"><thead><tr><th>input</th><th>SHA-256</th></tr></thead><tbody>\n");
        for (String[] in : f.inputs()) {
            h.append("<tr><td>").append(esc(in[0])).append("</td><td class=\"sha\">").append(esc(in[1])).append("</td></tr>\n");
        }
        h.append("</tbody></table>\n<p class=\"note\">A directory's SHA-256 is over its regular files in path order (relative path, NUL, content).</p>\n</footer>\n");
    }

    /** The script's data: each map cell's name and its three colours. */
    private String data() {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            long maxBytes = 1;
            for (ReportModel.Partition p : r.partitions()) {
                maxBytes = Math.max(maxBytes, p.bytes());
            }
            g.writeStartObject();
            g.writeStringField("title", r.title());
            g.writeArrayFieldStart("cells");
            for (ReportModel.Partition p : r.partitions()) {
                g.writeStartObject();
                g.writeStringField("n", p.name());
                g.writeStringField("h", MapSection.healthColour(p.health()));
                g.writeStringField("s", sizeColour(p.bytes(), maxBytes));
                g.writeStringField("d", dirtyColour(p.dirtyRatio()));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeObjectFieldStart("legend");
            g.writeStringField("h", "ok, info, warning, damaged, diverged");
            g.writeStringField("s", "size: light (small) to dark (" + bytes(maxBytes) + ")");
            g.writeStringField("d", "dirty ratio: light (0) to dark (1); grey: not compacted");
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    /** Log scale from light to dark blue. */
    static String sizeColour(long bytes, long max) {
        double t = bytes <= 0 ? 0 : Math.log1p(bytes) / Math.log1p(max);
        return mix(new int[] {0xe3, 0xf2, 0xfd}, new int[] {0x0d, 0x47, 0xa1}, t);
    }

    static String dirtyColour(double ratio) {
        if (ratio < 0) {
            return "#bdbdbd";
        }
        return mix(new int[] {0xff, 0xf3, 0xe0}, new int[] {0xbf, 0x36, 0x0c}, Math.min(1, ratio));
    }

    private static String mix(int[] a, int[] b, double t) {
        return String.format(Locale.ROOT, "#%02x%02x%02x", (int) Math.round(a[0] + (b[0] - a[0]) * t),
                (int) Math.round(a[1] + (b[1] - a[1]) * t), (int) Math.round(a[2] + (b[2] - a[2]) * t));
    }
}
