package io.segscope.inspector.report;

import java.util.List;

import static io.segscope.inspector.report.Fmt.esc;
import static io.segscope.inspector.report.Fmt.f1;
import static io.segscope.inspector.report.Fmt.n;
import static io.segscope.inspector.report.Fmt.shorten;
import static io.segscope.inspector.report.Fmt.time;

/**
 * The formats section's counts over time: per family (magic, codec, {@code __consumer_offsets}
 * record versions, the other state logs' record versions) one inline SVG of stacked bars, a bar per
 * time bucket and a colour per series, under the family's verdict lines (since when, until when).
 */
final class FormatsTimeline {
    /** Series drawn per family; the rest are summed into one "other" series. */
    static final int MAX_SERIES = 12;
    private static final String[] PALETTE = {"#5c6bc0", "#26a69a", "#ffa726", "#ef5350", "#8d6e63", "#ab47bc", "#66bb6a",
        "#29b6f6", "#ec407a", "#d4e157", "#78909c", "#ffca28", "#bdbdbd"};

    private FormatsTimeline() {
    }

    static void render(StringBuilder h, ReportModel.Formats f) {
        if (f.timelines().isEmpty()) {
            h.append("<p class=\"note\">No batch has a timestamp: nothing to draw over time.</p>\n");
            return;
        }
        ReportModel.Timeline first = f.timelines().get(0);
        h.append("<h3>Over time</h3>\n<p class=\"note\">Counts per ").append(esc(first.unit())).append(" (UTC): batches by the batch's"
                + " largest timestamp, records by their own.");
        if (f.undated() > 0) {
            h.append(' ').append(n(f.undated())).append(" batch(es) with no timestamp or one outside the data's span are not drawn.");
        }
        h.append("</p>\n");
        int k = 0;
        for (ReportModel.Timeline t : f.timelines()) {
            chart(h, t, k++);
        }
    }

    private static void chart(StringBuilder h, ReportModel.Timeline t, int k) {
        List<ReportModel.Series> series = t.series();
        if (series.size() > MAX_SERIES) {
            List<ReportModel.Series> kept = new java.util.ArrayList<>(series.stream()
                    .sorted(java.util.Comparator.comparingLong(ReportModel.Series::total).reversed()).limit(MAX_SERIES - 1).toList());
            long[] rest = new long[t.bounds().length - 1];
            long rf = Long.MAX_VALUE;
            long rl = -1;
            int others = 0;
            for (ReportModel.Series s : series) {
                if (!kept.contains(s)) {
                    others++;
                    for (int i = 0; i < rest.length; i++) {
                        rest[i] += s.counts()[i];
                    }
                    if (s.first() >= 0) {
                        rf = Math.min(rf, s.first());
                    }
                    rl = Math.max(rl, s.last());
                }
            }
            kept.sort(java.util.Comparator.comparingLong(ReportModel.Series::first));
            kept.add(new ReportModel.Series(others + " other(s)", rest, rf == Long.MAX_VALUE ? -1 : rf, rl));
            series = kept;
        }
        h.append("<h4>").append(esc(t.family())).append("</h4>\n<ul class=\"verdicts\">");
        for (String v : t.verdicts()) {
            h.append("<li>").append(esc(v)).append("</li>");
        }
        h.append("</ul>\n");
        int buckets = t.bounds().length - 1;
        long max = 1;
        for (int i = 0; i < buckets; i++) {
            long sum = 0;
            for (ReportModel.Series s : series) {
                sum += s.counts()[i];
            }
            max = Math.max(max, sum);
        }
        int legendRows = (series.size() + 2) / 3;
        int plotTop = 8;
        int plotH = 140;
        int ht = plotTop + plotH + 20 + 16 * legendRows + 4;
        double x0 = 60;
        double bw = 790.0 / buckets;
        h.append("<svg class=\"chart formats-time\" id=\"formats-time-").append(k).append("\" width=\"860\" height=\"").append(ht)
                .append("\" viewBox=\"0 0 860 ").append(ht).append("\" role=\"img\" aria-label=\"").append(esc(t.family()))
                .append(" per ").append(esc(t.unit())).append("\">");
        h.append("<text x=\"55\" y=\"").append(plotTop + 10).append("\" class=\"tick end\">").append(n(max)).append("</text>")
                .append("<text x=\"55\" y=\"").append(plotTop + plotH).append("\" class=\"tick end\">0</text>")
                .append("<line x1=\"60\" x2=\"850\" y1=\"").append(plotTop + plotH).append("\" y2=\"").append(plotTop + plotH)
                .append("\" stroke=\"#9e9e9e\"/>");
        for (int i = 0; i < buckets; i++) {
            double y = plotTop + plotH;
            for (int j = 0; j < series.size(); j++) {
                long c = series.get(j).counts()[i];
                if (c == 0) {
                    continue;
                }
                double bh = Math.max(1, (double) plotH * c / max);
                y -= bh;
                h.append("<rect class=\"bar\" x=\"").append(f1(x0 + i * bw + 0.5)).append("\" y=\"").append(f1(y)).append("\" width=\"")
                        .append(f1(Math.max(1, bw - 1))).append("\" height=\"").append(f1(bh)).append("\" fill=\"").append(PALETTE[j % PALETTE.length])
                        .append("\"><title>").append(esc(series.get(j).label())).append(": ").append(n(c)).append(' ').append(t.counted())
                        .append(" from ").append(esc(time(t.bounds()[i]))).append(" to ").append(esc(time(t.bounds()[i + 1])))
                        .append("</title></rect>");
            }
        }
        int axis = plotTop + plotH + 14;
        h.append("<text x=\"60\" y=\"").append(axis).append("\" class=\"tick\">").append(esc(time(t.bounds()[0]))).append("</text><text x=\"850\" y=\"")
                .append(axis).append("\" class=\"tick end\">").append(esc(time(t.bounds()[buckets]))).append("</text>");
        for (int j = 0; j < series.size(); j++) {
            int lx = 60 + 265 * (j % 3);
            int ly = axis + 8 + 16 * (j / 3);
            h.append("<rect class=\"key\" x=\"").append(lx).append("\" y=\"").append(ly).append("\" width=\"10\" height=\"10\" fill=\"")
                    .append(PALETTE[j % PALETTE.length]).append("\"/><text x=\"").append(lx + 14).append("\" y=\"").append(ly + 9)
                    .append("\" class=\"tick\">").append(esc(shorten(series.get(j).label(), 36))).append(" (").append(n(series.get(j).total()))
                    .append(")</text>");
        }
        h.append("</svg>\n");
    }
}
