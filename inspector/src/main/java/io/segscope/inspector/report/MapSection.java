package io.segscope.inspector.report;

import java.util.List;
import java.util.Locale;

import static io.segscope.inspector.report.Fmt.bytes;
import static io.segscope.inspector.report.Fmt.esc;
import static io.segscope.inspector.report.Fmt.f1;
import static io.segscope.inspector.report.Fmt.n;
import static io.segscope.inspector.report.Fmt.time;

/**
 * The partition map: a cell per partition (the script colours it by health, size or dirty ratio
 * from the page's JSON), and each partition's details: its replicas side by side along the offset
 * axis, with segments, damaged byte and offset ranges, leader epochs, log start, high watermark,
 * log end (and as of --as-of-time).
 */
final class MapSection {
    private final StringBuilder h;
    private final ReportModel.Report r;

    MapSection(StringBuilder h, ReportModel.Report r) {
        this.h = h;
        this.r = r;
    }

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

    void write() {
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
    String partitionLink(String name) {
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
                + "<th>log end</th>" + (r.asOfTime() >= 0 ? "<th>log end as of</th><th>bytes as of</th>" : "") + "<th>segments</th></tr></thead><tbody>\n");
        for (ReportModel.Replica rep : p.replicas()) {
            h.append("<tr><td>").append(esc(rep.where())).append("</td><td>").append(esc(rep.standing())).append("</td><td>").append(rep.logStart())
                    .append("</td><td>").append(rep.highWatermark() < 0 ? "-" : Long.toString(rep.highWatermark())).append("</td><td>")
                    .append(rep.lastStable()).append("</td><td>").append(rep.logEnd()).append("</td><td>")
                    .append(r.asOfTime() >= 0 ? (rep.asOfEnd() < 0 ? "-" : Long.toString(rep.asOfEnd())) + "</td><td>"
                            + (rep.asOfBytes() < 0 ? "-" : Fmt.n(rep.asOfBytes())) + "</td><td>" : "")
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

}
