package io.segscope.inspector.report;

import io.segscope.format.replay.CommitHistory;

import java.util.List;
import java.util.Locale;

import static io.segscope.inspector.report.Fmt.esc;
import static io.segscope.inspector.report.Fmt.f1;
import static io.segscope.inspector.report.Fmt.n;
import static io.segscope.inspector.report.Fmt.time;
import static io.segscope.inspector.report.Fmt.duration;
import static io.segscope.inspector.report.Fmt.shorten;

/**
 * The consumer groups: the table, and per group drawn its commit history (a line per partition over
 * time, resets, transactional aborts and pending commits, tombstones and a stop marked) and its lag
 * per partition.
 */
final class GroupsSection {
    private final StringBuilder h;
    private final ReportModel.Report r;
    private final MapSection map;

    GroupsSection(StringBuilder h, ReportModel.Report r, MapSection map) {
        this.h = h;
        this.r = r;
        this.map = map;
    }

    private static final String[] PALETTE = {"#1e88e5", "#43a047", "#fb8c00", "#8e24aa", "#00acc1", "#6d4c41", "#3949ab", "#c0ca33",
        "#d81b60", "#546e7a"};

    void write() {
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
                    .append(map.partitionLink("__consumer_offsets-" + x.coordinatorPartition())).append("</td><td data-v=\"").append(x.committedPartitions())
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


}
