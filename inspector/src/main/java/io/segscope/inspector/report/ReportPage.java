package io.segscope.inspector.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.replay.CommitHistory;
import io.segscope.inspector.output.Times;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

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

    private ReportPage(ReportModel.Report r) {
        this.r = r;
    }

    /** The page of {@code report}. */
    public static String render(ReportModel.Report report) {
        return new ReportPage(report).page();
    }

    private static String esc(String s) {
        return Html.text(s);
    }

    private static String n(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    static String bytes(long b) {
        if (b < 1024) {
            return b + " B";
        }
        String[] u = {"KiB", "MiB", "GiB", "TiB"};
        double v = b;
        int i = -1;
        while (v >= 1024 && i < u.length - 1) {
            v /= 1024;
            i++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, u[i]);
    }

    private static String time(long ms) {
        return ms < 0 ? "-" : Times.iso(ms);
    }

    private static String f1(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
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
        partitions();
        groups();
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
        fig("bytes", bytes(o.bytes()) + " (" + n(o.bytes()) + ")");
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

    // ---- partition map ----

    static final String[] HEALTH = {"ok", "info", "warning", "damaged", "diverged"};
    static final String[] HEALTH_COLOURS = {"#43a047", "#9ccc65", "#fbc02d", "#e53935", "#8e24aa"};

    static String healthColour(String health) {
        for (int i = 0; i < HEALTH.length; i++) {
            if (HEALTH[i].equals(health)) {
                return HEALTH_COLOURS[i];
            }
        }
        return "#9e9e9e";
    }

    private void partitions() {
        List<ReportModel.Partition> ps = r.partitions();
        int[] byHealth = new int[HEALTH.length];
        for (ReportModel.Partition p : ps) {
            for (int i = 0; i < HEALTH.length; i++) {
                if (HEALTH[i].equals(p.health())) {
                    byHealth[i]++;
                }
            }
        }
        h.append("<section id=\"partitions\">\n<h2>Partition map</h2>\n<p class=\"verdict\">");
        int bad = byHealth[3] + byHealth[4];
        h.append(bad > 0 ? n(bad) + " partition(s) damaged or diverged" : byHealth[2] > 0 ? "No partition damaged, "
                + n(byHealth[2]) + " with warnings" : "Every partition reads without damage")
                .append(": ").append(n(ps.size())).append(" partition(s) drawn");
        for (int i = 0; i < HEALTH.length; i++) {
            h.append(", ").append(byHealth[i]).append(' ').append(HEALTH[i]);
        }
        h.append(".</p>\n");
        if (r.partitionsLeftOut() > 0) {
            h.append("<p class=\"note\">").append(n(r.partitionsLeftOut())).append(" partition(s) left out of the map.</p>\n");
        }
        h.append("<p><label>Colour by <select id=\"map-mode\"><option value=\"h\">health</option><option value=\"s\">size</option>"
                + "<option value=\"d\">dirty ratio</option></select></label> <input type=\"search\" id=\"map-filter\" placeholder=\"filter partitions\""
                + " aria-label=\"filter partitions\"> <span id=\"map-legend\" class=\"legend\">");
        for (int i = 0; i < HEALTH.length; i++) {
            h.append("<span class=\"key k").append(i).append("\">").append(HEALTH[i]).append("</span> ");
        }
        h.append("</span></p>\n");
        int cols = 40;
        int cell = 18;
        int rows = Math.max(1, (ps.size() + cols - 1) / cols);
        int width = cols * cell;
        // one row label per topic change is not drawn: names are in each cell's title
        h.append("<svg class=\"chart\" id=\"map\" width=\"").append(width).append("\" height=\"").append(rows * cell)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(rows * cell).append("\" role=\"img\" aria-label=\"partition map\">");
        for (int i = 0; i < ps.size(); i++) {
            ReportModel.Partition p = ps.get(i);
            h.append("<rect class=\"cell\" data-i=\"").append(i).append("\" x=\"").append((i % cols) * cell).append("\" y=\"")
                    .append((i / cols) * cell).append("\" width=\"").append(cell - 2).append("\" height=\"").append(cell - 2)
                    .append("\"><title>").append(esc(p.name())).append(": ").append(esc(p.health())).append(", ").append(esc(bytes(p.bytes())))
                    .append(p.dirtyRatio() >= 0 ? ", dirty ratio " + String.format(Locale.ROOT, "%.3f", p.dirtyRatio()) : "")
                    .append("</title></rect>");
        }
        h.append("</svg>\n<p class=\"note\">Click a cell for the partition's segments, damaged ranges, leader epochs and replicas.</p>\n");
        for (int i = 0; i < ps.size(); i++) {
            if (hasDetail(ps.get(i))) {
                partitionDetail(i, ps.get(i));
            }
        }
        h.append("</section>\n");
    }

    private static boolean hasDetail(ReportModel.Partition p) {
        return !p.replicas().isEmpty() && !(p.replicas().get(0).segments().isEmpty() && p.damage().isEmpty());
    }

    /** The map index of a partition that has details, by name ("topic-partition"), for links; -1 when none. */
    private int detailIndex(String name) {
        if (detailIndex == null) {
            detailIndex = new java.util.HashMap<>();
            for (int i = 0; i < r.partitions().size(); i++) {
                if (hasDetail(r.partitions().get(i))) {
                    detailIndex.put(r.partitions().get(i).name(), i);
                }
            }
        }
        return detailIndex.getOrDefault(name, -1);
    }

    private java.util.Map<String, Integer> detailIndex;

    /** A partition's name, linked to its details on the map when it has them. */
    private String partitionLink(String name) {
        int i = detailIndex(name);
        return i < 0 ? esc(name) : "<a href=\"#pd-" + i + "\" class=\"show-partition\" data-p=\"" + i + "\">" + esc(name) + "</a>";
    }

    private void partitionDetail(int i, ReportModel.Partition p) {
        h.append("<div class=\"pdetail\" id=\"pd-").append(i).append("\" hidden>\n<h3>").append(esc(p.name())).append(" (")
                .append(esc(p.health())).append(")</h3>\n");
        long lo = Long.MAX_VALUE;
        long hi = 0;
        for (ReportModel.Replica rep : p.replicas()) {
            lo = Math.min(lo, rep.logStart());
            hi = Math.max(hi, rep.logEnd());
            for (ReportModel.Segment s : rep.segments()) {
                lo = Math.min(lo, s.baseOffset());
                hi = Math.max(hi, s.endOffset());
            }
        }
        if (lo == Long.MAX_VALUE) {
            lo = 0;
        }
        if (hi <= lo) {
            hi = lo + 1;
        }
        int w = 860;
        int left = 110;
        int rowH = 56;
        int height = 30 + rowH * p.replicas().size();
        double scale = (double) (w - left - 10) / (hi - lo);
        long flo = lo;
        java.util.function.LongFunction<String> x = o -> f1(left + (Math.max(flo, o) - flo) * scale);
        h.append("<svg class=\"chart offsets\" width=\"").append(w).append("\" height=\"").append(height).append("\" viewBox=\"0 0 ")
                .append(w).append(' ').append(height).append("\" role=\"img\" aria-label=\"segments along the offset axis\">");
        for (int k = 0; k < p.replicas().size(); k++) {
            ReportModel.Replica rep = p.replicas().get(k);
            int y = 10 + k * rowH;
            h.append("<text x=\"0\" y=\"").append(y + 14).append("\" class=\"lbl\">").append(esc(rep.broker() >= 0 ? "broker " + rep.broker() : "replica"))
                    .append("</text><text x=\"0\" y=\"").append(y + 28).append("\" class=\"tick\">").append(esc(rep.standing())).append("</text>");
            for (ReportModel.Segment s : rep.segments()) {
                h.append("<rect class=\"segment\" x=\"").append(x.apply(s.baseOffset())).append("\" y=\"").append(y).append("\" width=\"")
                        .append(f1(Math.max(1, (s.endOffset() - s.baseOffset()) * scale - 1))).append("\" height=\"24\" fill=\"#90caf9\" stroke=\"#1565c0\"><title>")
                        .append(esc(s.file())).append(": offsets ").append(s.baseOffset()).append(" to ").append(s.endOffset())
                        .append(", ").append(esc(bytes(s.bytes()))).append("</title></rect>");
            }
            // damage of this replica's files: offsets when known, else the byte range placed in its segment
            for (ReportModel.Damage d : p.damage()) {
                if (!sameReplica(rep, d)) {
                    continue;
                }
                double x0;
                double x1;
                if (d.offsetFrom() >= 0) {
                    x0 = left + (Math.max(flo, d.offsetFrom()) - flo) * scale;
                    long to = d.offsetTo() >= 0 ? d.offsetTo() + 1 : segmentEnd(rep, d.segmentBase(), hi);
                    x1 = left + (Math.max(flo, to) - flo) * scale;
                } else {
                    ReportModel.Segment s = segmentOf(rep, d.segmentBase());
                    if (s == null || s.bytes() <= 0 || d.byteFrom() < 0) {
                        x0 = left + (Math.max(flo, Math.max(0, d.segmentBase())) - flo) * scale;
                        x1 = x0 + 3;
                    } else {
                        double sx = left + (s.baseOffset() - flo) * scale;
                        double sw = (s.endOffset() - s.baseOffset()) * scale;
                        x0 = sx + sw * Math.min(1, (double) d.byteFrom() / s.bytes());
                        x1 = sx + sw * Math.min(1, (double) Math.max(d.byteFrom() + 1, d.byteTo()) / s.bytes());
                    }
                }
                h.append("<rect class=\"damage\" x=\"").append(f1(x0)).append("\" y=\"").append(y - 2).append("\" width=\"")
                        .append(f1(Math.max(3, x1 - x0))).append("\" height=\"28\" fill=\"").append(d.severity().equals("error") ? "#e53935" : "#fbc02d")
                        .append("\" opacity=\"0.85\"><title>").append(esc(d.kind())).append(" (").append(esc(d.severity())).append(") ")
                        .append(esc(d.file())).append(d.byteFrom() >= 0 ? " bytes " + d.byteFrom() + (d.byteTo() >= 0 ? " to " + d.byteTo() : "") : "")
                        .append(d.offsetFrom() >= 0 ? ", offsets " + d.offsetFrom() + " to " + (d.offsetTo() >= 0 ? d.offsetTo() : "?") : "")
                        .append(": ").append(esc(d.message())).append("</title></rect>");
            }
            for (long[] e : rep.epochs()) {
                if (e[1] >= lo && e[1] <= hi) {
                    h.append("<line class=\"epoch\" x1=\"").append(x.apply(e[1])).append("\" x2=\"").append(x.apply(e[1])).append("\" y1=\"")
                            .append(y + 24).append("\" y2=\"").append(y + 32).append("\" stroke=\"#37474f\"><title>leader epoch ").append(e[0])
                            .append(" from offset ").append(e[1]).append("</title></line><text x=\"").append(x.apply(e[1])).append("\" y=\"")
                            .append(y + 42).append("\" class=\"tick\">e").append(e[0]).append("</text>");
                }
            }
            marker(x.apply(rep.logStart()), y, "#1e88e5", "log start " + rep.logStart());
            if (rep.highWatermark() >= 0) {
                marker(x.apply(rep.highWatermark()), y, "#2e7d32", "high watermark " + rep.highWatermark());
            }
            marker(x.apply(rep.logEnd()), y, "#212121", "log end " + rep.logEnd());
            if (rep.asOfEnd() >= 0) {
                h.append("<line class=\"marker asof\" x1=\"").append(x.apply(rep.asOfEnd())).append("\" x2=\"").append(x.apply(rep.asOfEnd()))
                        .append("\" y1=\"").append(y - 6).append("\" y2=\"").append(y + 30)
                        .append("\" stroke=\"#ef6c00\" stroke-width=\"2\" stroke-dasharray=\"3 2\"><title>log end as of ")
                        .append(esc(time(r.asOfTime()))).append(": ").append(rep.asOfEnd()).append("</title></line>");
            }
        }
        h.append("<text x=\"").append(left).append("\" y=\"").append(height - 4).append("\" class=\"tick\">").append(lo)
                .append("</text><text x=\"").append(w - 10).append("\" y=\"").append(height - 4).append("\" class=\"tick end\">").append(hi).append("</text>");
        h.append("</svg>\n<table><thead><tr><th>replica</th><th>standing</th><th>log start</th><th>high watermark</th><th>last stable</th>"
                + "<th>log end</th>" + (r.asOfTime() >= 0 ? "<th>log end as of</th>" : "") + "<th>segments</th></tr></thead><tbody>\n");
        for (ReportModel.Replica rep : p.replicas()) {
            h.append("<tr><td>").append(esc(rep.where())).append("</td><td>").append(esc(rep.standing())).append("</td><td>").append(rep.logStart())
                    .append("</td><td>").append(rep.highWatermark() < 0 ? "-" : Long.toString(rep.highWatermark())).append("</td><td>")
                    .append(rep.lastStable()).append("</td><td>").append(rep.logEnd()).append("</td><td>")
                    .append(r.asOfTime() >= 0 ? (rep.asOfEnd() < 0 ? "-" : Long.toString(rep.asOfEnd())) + "</td><td>" : "")
                    .append(rep.segments().size()).append("</td></tr>\n");
        }
        h.append("</tbody></table>\n");
        if (!p.damage().isEmpty()) {
            h.append("<table class=\"damage-table\"><thead><tr><th>file</th><th>kind</th><th>severity</th><th>bytes</th><th>offsets lost</th>"
                    + "<th>message</th></tr></thead><tbody>\n");
            for (ReportModel.Damage d : p.damage()) {
                h.append("<tr><td>").append(esc(d.file())).append("</td><td>").append(esc(d.kind())).append("</td><td>").append(esc(d.severity()))
                        .append("</td><td class=\"bytes\">").append(d.byteFrom() < 0 ? "-" : d.byteTo() < 0 ? "at " + d.byteFrom() : "[" + d.byteFrom() + ", " + d.byteTo() + ")")
                        .append("</td><td class=\"offsets\">").append(d.offsetFrom() < 0 ? "-" : "[" + d.offsetFrom() + ", " + (d.offsetTo() < 0 ? "?" : Long.toString(d.offsetTo())) + "]")
                        .append("</td><td>").append(esc(d.message())).append("</td></tr>\n");
            }
            h.append("</tbody></table>\n");
        }
        for (ReportModel.Replica rep : p.replicas()) {
            for (String note : rep.notes()) {
                h.append("<p class=\"note\">").append(esc(rep.where())).append(": ").append(esc(note)).append("</p>\n");
            }
        }
        h.append("</div>\n");
    }

    private static boolean sameReplica(ReportModel.Replica rep, ReportModel.Damage d) {
        String where = rep.where();
        int open = where.lastIndexOf('(');
        String dir = open >= 0 && where.endsWith(")") ? where.substring(open + 1, where.length() - 1) : where;
        return d.file().startsWith(dir + "/");
    }

    private static ReportModel.Segment segmentOf(ReportModel.Replica rep, long base) {
        for (ReportModel.Segment s : rep.segments()) {
            if (s.baseOffset() == base) {
                return s;
            }
        }
        return null;
    }

    private static long segmentEnd(ReportModel.Replica rep, long base, long fallback) {
        ReportModel.Segment s = segmentOf(rep, base);
        return s == null ? fallback : s.endOffset();
    }

    private void marker(String x, int y, String colour, String what) {
        h.append("<line class=\"marker\" x1=\"").append(x).append("\" x2=\"").append(x).append("\" y1=\"").append(y - 4).append("\" y2=\"")
                .append(y + 28).append("\" stroke=\"").append(colour).append("\" stroke-width=\"2\"><title>").append(esc(what)).append("</title></line>");
    }

    // ---- groups ----

    private static final String[] PALETTE = {"#1e88e5", "#43a047", "#fb8c00", "#8e24aa", "#00acc1", "#6d4c41", "#3949ab", "#c0ca33",
        "#d81b60", "#546e7a"};

    private void groups() {
        ReportModel.Groups g = r.groups();
        int stopped = 0;
        int empty = 0;
        for (ReportModel.Group x : g.table()) {
            if (x.stopped()) {
                stopped++;
            }
            if (x.members() == 0) {
                empty++;
            }
        }
        h.append("<section id=\"groups\">\n<h2>Consumer groups</h2>\n<p class=\"verdict\">");
        if (g.coordinatorPartitions() == 0) {
            h.append("No __consumer_offsets partition among the inputs.");
        } else {
            h.append(n(g.total())).append(" group(s) in ").append(g.coordinatorPartitions()).append(" partition(s) of __consumer_offsets; ")
                    .append(stopped).append(" stopped committing (last commit older than ").append(esc(duration(g.staleAfterMs())))
                    .append(" before the end of the data), ").append(empty).append(" without members.");
        }
        h.append("</p>\n");
        for (String p : g.problems()) {
            h.append("<p class=\"note\">").append(esc(p)).append("</p>\n");
        }
        if (g.tableLeftOut() > 0) {
            h.append("<p class=\"note\">").append(n(g.tableLeftOut())).append(" group(s) left out of the table.</p>\n");
        }
        if (g.table().isEmpty()) {
            h.append("</section>\n");
            return;
        }
        h.append("<p><input type=\"search\" class=\"filter\" data-table=\"groups-table\" placeholder=\"filter groups\" aria-label=\"filter groups\"></p>\n");
        h.append("<table class=\"sortable\" id=\"groups-table\"><thead><tr><th>group</th><th>type</th><th>state</th><th>members</th>"
                + "<th>last commit</th><th>total lag</th><th>coordinator partition</th><th>committed partitions</th><th>pending</th>"
                + "<th>history</th></tr></thead><tbody>\n");
        for (int i = 0; i < g.table().size(); i++) {
            ReportModel.Group x = g.table().get(i);
            h.append("<tr").append(x.stopped() ? " class=\"stopped\"" : "").append("><td class=\"gid\">").append(esc(x.id())).append("</td><td>")
                    .append(esc(x.type())).append("</td><td>").append(esc(x.state())).append("</td><td data-v=\"").append(x.members()).append("\">")
                    .append(x.members()).append("</td><td data-v=\"").append(x.lastCommit()).append("\">").append(time(x.lastCommit()))
                    .append(x.stopped() ? " (stopped)" : "").append("</td><td data-v=\"").append(x.totalLag()).append("\">")
                    .append(x.totalLag() < 0 ? "-" : n(x.totalLag())).append("</td><td data-v=\"").append(x.coordinatorPartition()).append("\">")
                    .append(partitionLink("__consumer_offsets-" + x.coordinatorPartition())).append("</td><td data-v=\"").append(x.committedPartitions())
                    .append("\">").append(x.committedPartitions()).append("</td><td data-v=\"").append(x.pending()).append("\">").append(x.pending())
                    .append("</td><td>").append(x.drawn() ? "<a href=\"#gd-" + i + "\" class=\"show-group\" data-g=\"" + i + "\">show</a>" : "-")
                    .append("</td></tr>\n");
        }
        h.append("</tbody></table>\n");
        for (int i = 0; i < g.table().size(); i++) {
            ReportModel.Group x = g.table().get(i);
            if (x.drawn()) {
                groupDetail(i, x);
            }
        }
        h.append("</section>\n");
    }

    static String duration(long ms) {
        if (ms % 86_400_000L == 0 && ms > 0) {
            return ms / 86_400_000L + "d";
        }
        if (ms % 3_600_000L == 0 && ms > 0) {
            return ms / 3_600_000L + "h";
        }
        if (ms % 60_000L == 0 && ms > 0) {
            return ms / 60_000L + "m";
        }
        return ms + "ms";
    }

    private static final int MAX_LINES = 40;

    private void groupDetail(int i, ReportModel.Group x) {
        h.append("<div class=\"gdetail\" id=\"gd-").append(i).append("\" hidden>\n<h3>").append(esc(x.id())).append("</h3>\n");
        List<CommitHistory.Series> series = x.history();
        long t0 = Long.MAX_VALUE;
        long t1 = Long.MIN_VALUE;
        long maxOffset = 1;
        int marks = 0;
        for (int k = 0; k < series.size() && k < MAX_LINES; k++) {
            for (CommitHistory.Point p : series.get(k).points()) {
                t0 = Math.min(t0, p.time());
                t1 = Math.max(t1, p.time());
                maxOffset = Math.max(maxOffset, p.offset());
                if (p.mark() != CommitHistory.Mark.COMMIT) {
                    marks++;
                }
            }
        }
        if (series.isEmpty()) {
            h.append("<p class=\"note\">No commit of this group in the log (its commits were compacted away or it never committed).</p>\n");
        } else {
            if (t1 <= t0) {
                t1 = t0 + 1;
            }
            int w = 860;
            int ht = 240;
            int left = 70;
            int top = 10;
            int plotH = 190;
            double sx = (double) (w - left - 10) / (t1 - t0);
            double sy = (double) plotH / maxOffset;
            long ft0 = t0;
            long fmax = maxOffset;
            h.append("<p class=\"note\">Committed offset over commit time, one line per partition; marks: resets (red circle), aborted"
                    + " transactional commits (cross), pending ones (hollow circle), tombstones (square).</p>\n");
            h.append("<svg class=\"chart history\" width=\"").append(w).append("\" height=\"").append(ht).append("\" viewBox=\"0 0 ").append(w)
                    .append(' ').append(ht).append("\" role=\"img\" aria-label=\"commit history\">");
            h.append("<line x1=\"").append(left).append("\" y1=\"").append(top + plotH).append("\" x2=\"").append(w - 10).append("\" y2=\"")
                    .append(top + plotH).append("\" stroke=\"#757575\"></line>");
            h.append("<text x=\"").append(left - 4).append("\" y=\"").append(top + 8).append("\" class=\"tick end\">").append(n(fmax))
                    .append("</text><text x=\"").append(left - 4).append("\" y=\"").append(top + plotH).append("\" class=\"tick end\">0</text>");
            h.append("<text x=\"").append(left).append("\" y=\"").append(ht - 4).append("\" class=\"tick\">").append(esc(time(t0)))
                    .append("</text><text x=\"").append(w - 10).append("\" y=\"").append(ht - 4).append("\" class=\"tick end\">").append(esc(time(t1))).append("</text>");
            for (int k = 0; k < series.size() && k < MAX_LINES; k++) {
                CommitHistory.Series s = series.get(k);
                String colour = PALETTE[k % PALETTE.length];
                StringBuilder pts = new StringBuilder();
                for (CommitHistory.Point p : s.points()) {
                    if (p.offset() < 0 || p.mark() == CommitHistory.Mark.TXN_ABORTED || p.mark() == CommitHistory.Mark.TXN_PENDING) {
                        continue;
                    }
                    pts.append(pts.isEmpty() ? "" : " ").append(f1(left + (p.time() - ft0) * sx)).append(',')
                            .append(f1(top + plotH - p.offset() * sy));
                }
                String label = esc(s.topic() + "-" + s.partition()) + ": " + s.points().size() + " point(s)"
                        + (s.dropped() > 0 ? ", " + s.dropped() + " plain commits thinned out" : "");
                h.append("<polyline class=\"line\" fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"1.5\" points=\"")
                        .append(pts).append("\"><title>").append(label).append("</title></polyline>");
                if (pts.indexOf(" ") < 0 && !pts.isEmpty()) {
                    // a single commit: a dot, as a line of one point draws nothing
                    int comma = pts.indexOf(",");
                    h.append("<circle class=\"dot\" cx=\"").append(pts, 0, comma).append("\" cy=\"").append(pts, comma + 1, pts.length())
                            .append("\" r=\"2.5\" fill=\"").append(colour).append("\"><title>").append(label).append("</title></circle>");
                }
                for (CommitHistory.Point p : s.points()) {
                    if (p.mark() == CommitHistory.Mark.COMMIT || p.mark() == CommitHistory.Mark.TXN_COMMITTED) {
                        continue;
                    }
                    double px = left + (p.time() - ft0) * sx;
                    double py = top + plotH - Math.max(0, p.offset()) * sy;
                    String title = esc(s.topic() + "-" + s.partition()) + ": " + p.mark().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                            + (p.offset() >= 0 ? " to " + p.offset() : "") + " at " + esc(time(p.time())) + " (log offset " + p.logOffset() + ")";
                    switch (p.mark()) {
                        case RESET -> h.append("<circle class=\"mark reset\" cx=\"").append(f1(px)).append("\" cy=\"").append(f1(py))
                                .append("\" r=\"4\" fill=\"#e53935\"><title>").append(title).append("</title></circle>");
                        case TXN_ABORTED -> h.append("<path class=\"mark aborted\" d=\"M").append(f1(px - 4)).append(' ').append(f1(py - 4))
                                .append("L").append(f1(px + 4)).append(' ').append(f1(py + 4)).append("M").append(f1(px - 4)).append(' ')
                                .append(f1(py + 4)).append("L").append(f1(px + 4)).append(' ').append(f1(py - 4))
                                .append("\" stroke=\"#b71c1c\" stroke-width=\"2\"><title>").append(title).append("</title></path>");
                        case TXN_PENDING -> h.append("<circle class=\"mark pending\" cx=\"").append(f1(px)).append("\" cy=\"").append(f1(py))
                                .append("\" r=\"4\" fill=\"none\" stroke=\"#f57c00\" stroke-width=\"2\"><title>").append(title).append("</title></circle>");
                        default -> h.append("<rect class=\"mark tombstone\" x=\"").append(f1(px - 3)).append("\" y=\"").append(f1(py - 3))
                                .append("\" width=\"6\" height=\"6\" fill=\"#424242\"><title>").append(title).append("</title></rect>");
                    }
                }
            }
            if (x.stopped() && x.lastCommit() >= t0 && x.lastCommit() <= t1) {
                double px = left + (x.lastCommit() - ft0) * sx;
                h.append("<line class=\"stop\" x1=\"").append(f1(px)).append("\" x2=\"").append(f1(px)).append("\" y1=\"").append(top)
                        .append("\" y2=\"").append(top + plotH).append("\" stroke=\"#e53935\" stroke-dasharray=\"4 3\"><title>last commit ")
                        .append(esc(time(x.lastCommit()))).append(": stopped</title></line>");
            }
            h.append("</svg>\n<p class=\"lines\">");
            for (int k = 0; k < series.size() && k < MAX_LINES; k++) {
                h.append("<span class=\"swatch c").append(k % PALETTE.length).append("\">\u25a0</span> ")
                        .append(esc(series.get(k).topic() + "-" + series.get(k).partition())).append(' ');
            }
            h.append("</p>\n");
            if (series.size() > MAX_LINES) {
                h.append("<p class=\"note\">").append(series.size() - MAX_LINES).append(" more partition line(s) left out.</p>\n");
            }
            h.append("<p class=\"note\">").append(marks).append(" marked point(s).</p>\n");
        }
        // lag per partition
        List<ReportModel.Lag> lag = x.lag();
        if (!lag.isEmpty()) {
            int shown = Math.min(lag.size(), 60);
            long max = 1;
            for (int k = 0; k < shown; k++) {
                max = Math.max(max, lag.get(k).lag());
            }
            int ht = 16 * shown + 10;
            h.append("<h4>Lag per partition (high watermark, else log end, minus the committed offset)</h4>\n");
            h.append("<svg class=\"chart lag\" width=\"860\" height=\"").append(ht).append("\" viewBox=\"0 0 860 ").append(ht)
                    .append("\" role=\"img\" aria-label=\"lag per partition\">");
            for (int k = 0; k < shown; k++) {
                ReportModel.Lag l = lag.get(k);
                double w = l.lag() <= 0 ? 0 : Math.max(1, 500.0 * l.lag() / max);
                int y = 4 + 16 * k;
                h.append("<text x=\"0\" y=\"").append(y + 11).append("\" class=\"tick\">").append(esc(shorten(l.topic() + "-" + l.partition(), 40)))
                        .append("</text><rect class=\"bar\" x=\"260\" y=\"").append(y).append("\" width=\"").append(f1(w))
                        .append("\" height=\"12\" fill=\"#5c6bc0\"><title>").append(esc(l.topic() + "-" + l.partition())).append(": committed ")
                        .append(l.committed()).append(", log end ").append(l.end() < 0 ? "unknown" : Long.toString(l.end())).append(", lag ")
                        .append(l.lag() < 0 ? "unknown" : Long.toString(l.lag())).append("</title></rect><text x=\"").append(f1(266 + w))
                        .append("\" y=\"").append(y + 11).append("\" class=\"tick\">").append(l.lag() < 0 ? "?" : n(l.lag())).append("</text>");
            }
            h.append("</svg>\n");
            if (lag.size() > shown) {
                h.append("<p class=\"note\">").append(lag.size() - shown).append(" more partition(s) not drawn.</p>\n");
            }
        }
        h.append("</div>\n");
    }

    private static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "\u2026";
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
                h.append("<tr").append(t.hanging() ? " class=\"hanging\"" : "").append("><td>").append(partitionLink(t.partition())).append("</td><td>")
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

    static String age(long ms) {
        long s = ms / 1000;
        if (s < 120) {
            return s + " s";
        }
        if (s < 7200) {
            return s / 60 + " min";
        }
        if (s < 172_800) {
            return s / 3600 + " h";
        }
        return s / 86400 + " d";
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
            h.append(pick == null ? "The cleaner would pick none now (no dirty ratio above 0.5 and none past its max compaction lag)."
                    : "The cleaner's next pick: " + esc(pick.partition()) + " (dirty ratio " + String.format(Locale.ROOT, "%.3f", pick.dirtyRatio()) + ").");
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
                    + "<th>bytes after</th><th>records after</th><th>dirty ratio</th><th>cleaner</th><th>note</th></tr></thead><tbody>\n");
            for (ReportModel.Compaction c : cs) {
                h.append("<tr><td>").append(partitionLink(c.partition())).append("</td><td data-v=\"").append(c.bytesNow()).append("\">").append(n(c.bytesNow()))
                        .append("</td><td data-v=\"").append(c.recordsNow()).append("\">").append(c.recordsNow() < 0 ? "-" : n(c.recordsNow()))
                        .append("</td><td data-v=\"").append(c.bytesAfter()).append("\">").append(c.bytesAfter() < 0 ? "-" : n(c.bytesAfter()))
                        .append("</td><td data-v=\"").append(c.recordsAfter()).append("\">").append(c.recordsAfter() < 0 ? "-" : n(c.recordsAfter()))
                        .append("</td><td data-v=\"").append(String.format(Locale.ROOT, "%.6f", c.dirtyRatio())).append("\">")
                        .append(c.dirtyRatio() < 0 ? "-" : String.format(Locale.ROOT, "%.3f", c.dirtyRatio())).append("</td><td>")
                        .append(c.nextPick() ? "next pick" : c.wouldClean() ? "would clean" : "-").append("</td><td>").append(esc(c.note()))
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
                g.writeStringField("h", healthColour(p.health()));
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
