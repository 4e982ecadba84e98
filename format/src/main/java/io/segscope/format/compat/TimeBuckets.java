package io.segscope.format.compat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;

/**
 * Consecutive UTC time buckets {@code [bounds[i], bounds[i + 1])} of one width: an hour, a day, a
 * week (from Monday), or one or more calendar months. {@link #covering} chooses the narrowest
 * width that covers a time span in at most a given number of buckets, so that counts per bucket
 * ({@link FormatInventory.Timeline}) stay bounded whatever the span.
 *
 * @param unit "hour", "day", "week", "month" or "N months"
 * @param bounds the buckets' bounds in epoch ms, ascending: one more than there are buckets
 */
public record TimeBuckets(String unit, long[] bounds) {
    public static final long HOUR_MS = 3_600_000L;
    public static final long DAY_MS = 24 * HOUR_MS;
    public static final long WEEK_MS = 7 * DAY_MS;
    /** 1970-01-05T00:00Z, a Monday: weeks start on Mondays. */
    private static final long FIRST_MONDAY_MS = 4 * DAY_MS;

    public TimeBuckets {
        if (bounds.length < 2) {
            throw new IllegalArgumentException("time buckets need at least two bounds");
        }
        for (int i = 1; i < bounds.length; i++) {
            if (bounds[i] <= bounds[i - 1]) {
                throw new IllegalArgumentException("time bucket bounds must ascend");
            }
        }
        bounds = bounds.clone();
    }

    /** The number of buckets. */
    public int count() {
        return bounds.length - 1;
    }

    public long start(int i) {
        return bounds[i];
    }

    /** The end of bucket {@code i}, exclusive. */
    public long end(int i) {
        return bounds[i + 1];
    }

    /** The bucket holding {@code ts}, or -1 when it is before the first or after the last (or negative: no time). */
    public int indexOf(long ts) {
        if (ts < 0 || ts < bounds[0] || ts >= bounds[bounds.length - 1]) {
            return -1;
        }
        int i = Arrays.binarySearch(bounds, ts);
        return i >= 0 ? i : -i - 2;
    }

    /**
     * The narrowest of hour, day, week, month (then 2, 3, 4, 6, 12, 24, … months) whose buckets cover
     * {@code [first, last]} in at most {@code max} buckets, aligned to the unit's UTC start.
     */
    public static TimeBuckets covering(long first, long last, int max) {
        if (max < 1) {
            throw new IllegalArgumentException("at least one bucket");
        }
        if (first < 0 || last < first) {
            throw new IllegalArgumentException("no time span: " + first + ".." + last);
        }
        long[][] fixed = {{HOUR_MS, 0}, {DAY_MS, 0}, {WEEK_MS, FIRST_MONDAY_MS}};
        String[] names = {"hour", "day", "week"};
        for (int u = 0; u < fixed.length; u++) {
            long w = fixed[u][0];
            long origin = fixed[u][1];
            long start = Math.floorDiv(first - origin, w) * w + origin;
            long n = Math.floorDiv(last - start, w) + 1;
            if (n <= max) {
                long[] b = new long[(int) n + 1];
                for (int i = 0; i <= n; i++) {
                    b[i] = start + i * w;
                }
                return new TimeBuckets(names[u], b);
            }
        }
        LocalDate a = Instant.ofEpochMilli(first).atZone(ZoneOffset.UTC).toLocalDate().withDayOfMonth(1);
        LocalDate z = Instant.ofEpochMilli(last).atZone(ZoneOffset.UTC).toLocalDate().withDayOfMonth(1);
        long months = (z.getYear() - a.getYear()) * 12L + z.getMonthValue() - a.getMonthValue() + 1;
        int[] steps = {1, 2, 3, 4, 6, 12};
        long step = 0;
        for (int s : steps) {
            if ((months + s - 1) / s <= max) {
                step = s;
                break;
            }
        }
        if (step == 0) {
            step = 12 * (((months + 11) / 12 + max - 1) / max);
        }
        if (step >= 12) {
            a = a.withMonth(1);
        } else {
            a = a.withMonth(((a.getMonthValue() - 1) / (int) step) * (int) step + 1);
        }
        long n = 0;
        while (!a.plusMonths(n * step).isAfter(z)) {
            n++;
        }
        long[] b = new long[(int) n + 1];
        for (int i = 0; i <= n; i++) {
            b[i] = a.plusMonths(i * step).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        }
        return new TimeBuckets(step == 1 ? "month" : step + " months", b);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TimeBuckets t && unit.equals(t.unit) && Arrays.equals(bounds, t.bounds);
    }

    @Override
    public int hashCode() {
        return unit.hashCode() * 31 + Arrays.hashCode(bounds);
    }

    @Override
    public long[] bounds() {
        return bounds.clone();
    }
}
