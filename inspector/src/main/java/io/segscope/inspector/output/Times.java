package io.segscope.inspector.output;

import io.segscope.format.json.JsonOut;

import java.time.Instant;

/** Times as people read them: ISO-8601 UTC, or "-" for Kafka's "no timestamp" (-1). */
public final class Times {
    /** 9999-12-31T23:59:59.999Z: later instants print with a sign ({@link Instant#toString()}). */
    private static final long LAST_FOUR_DIGIT_YEAR_MS = 253402300799999L;

    private Times() {
    }

    public static String iso(long epochMs) {
        if (epochMs < 0) {
            return "-";
        }
        return Instant.ofEpochMilli(epochMs).toString();
    }

    /** {@link #iso(JsonOut, long)} that remembers the last instant's text (a batch's records share it). */
    static final class Last {
        private long epochMs = Long.MIN_VALUE;
        private final JsonOut text = new JsonOut(32);

        void iso(JsonOut o, long ms) {
            if (ms != epochMs) {
                text.reset();
                Times.iso(text, ms);
                epochMs = ms;
            }
            o.raw(text.array(), 0, text.size());
        }
    }

    /**
     * Appends exactly {@link #iso(long)}'s text ({@code Instant.toString()}: the milliseconds only
     * when not zero), computed without objects for the years 1970 to 9999.
     */
    public static void iso(JsonOut o, long epochMs) {
        if (epochMs < 0 || epochMs > LAST_FOUR_DIGIT_YEAR_MS) {
            o.raw(iso(epochMs));
            return;
        }
        long secs = epochMs / 1000;
        int ms = (int) (epochMs - secs * 1000);
        long days = secs / 86400;
        int sod = (int) (secs - days * 86400);
        // civil date from days since 1970-01-01 (proleptic Gregorian; days >= 0 here)
        long z = days + 719468;
        long era = z / 146097;
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int day = (int) (doy - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        int year = (int) (yoe + era * 400 + (month <= 2 ? 1 : 0));
        o.digits(year, 4).raw('-').digits(month, 2).raw('-').digits(day, 2).raw('T')
                .digits(sod / 3600, 2).raw(':').digits(sod / 60 % 60, 2).raw(':').digits(sod % 60, 2);
        if (ms != 0) {
            o.raw('.').digits(ms, 3);
        }
        o.raw('Z');
    }
}
