package io.segscope.inspector.report;

import io.segscope.inspector.output.Times;

import java.util.Locale;

/** How the page writes numbers, sizes, times and durations; every text through {@link Html#text}. */
final class Fmt {
    private Fmt() {
    }

    static String esc(String s) {
        return Html.text(s);
    }

    static String n(long v) {
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

    static String time(long ms) {
        return ms < 0 ? "-" : Times.iso(ms);
    }

    static String f1(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "\u2026";
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
}
