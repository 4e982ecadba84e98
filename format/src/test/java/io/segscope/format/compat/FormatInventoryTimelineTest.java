package io.segscope.format.compat;

import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.record.ReaderOptions;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link FormatInventory}'s counts per time bucket: on the busy offsets partition of the 4.4.0 corpus
 * runs, every bucket's batches by magic and codec (by the batch's max timestamp) and records by
 * (record type, value version) (by the record's timestamp) equal those counted in Kafka's own
 * DumpLogSegments output; {@link TimeBuckets#covering} picks hour, day, week or months.
 */
class FormatInventoryTimelineTest {
    private static final Pattern BATCH = Pattern.compile("^baseOffset: \\d+ .* isControl: (\\w+) .*(?:CreateTime|LogAppendTime): (-?\\d+) .* magic: (\\d) compresscodec: (\\w+) ");
    private static final Pattern RECORD = Pattern.compile("^\\| offset: \\d+ (?:CreateTime|LogAppendTime): (-?\\d+) .* key: \\{\"type\":\"(\\d+)\".* payload: (null|<DELETE>|\\{\"version\":\"(\\d+)\")");

    @ParameterizedTest
    @ValueSource(strings = {"kraft-4.4.0-plain", "kraft-4.4.0-compressed"})
    void bucketsEqualKafkasDump(String run) throws IOException {
        Path dumps = Corpus.corpus().resolve(run).resolve("dump/__consumer_offsets-40");
        List<String> lines;
        try (Stream<Path> s = Files.list(dumps)) {
            lines = s.filter(p -> p.getFileName().toString().endsWith(".log.txt")).sorted().flatMap(p -> {
                try {
                    return Files.readAllLines(p).stream();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
        long first = Long.MAX_VALUE;
        long last = -1;
        for (String l : lines) {
            Matcher m = BATCH.matcher(l);
            if (m.find()) {
                first = Math.min(first, Long.parseLong(m.group(2)));
                last = Math.max(last, Long.parseLong(m.group(2)));
            }
        }
        assertThat(last).isGreaterThan(first);
        // 12 buckets of equal width over the batches' times
        long width = (last - first) / 12 + 1;
        long[] bounds = new long[13];
        for (int i = 0; i <= 12; i++) {
            bounds[i] = first + i * width;
        }
        TimeBuckets buckets = new TimeBuckets("test", bounds);
        Map<String, long[]> magic = new TreeMap<>();
        Map<String, long[]> codec = new TreeMap<>();
        Map<String, long[]> versions = new TreeMap<>();
        boolean control = false;
        for (String l : lines) {
            Matcher b = BATCH.matcher(l);
            if (b.find()) {
                control = b.group(1).equals("true");
                int i = buckets.indexOf(Long.parseLong(b.group(2)));
                magic.computeIfAbsent(b.group(3), k -> new long[12])[i]++;
                codec.computeIfAbsent(b.group(3) + "/" + b.group(4), k -> new long[12])[i]++;
                continue;
            }
            Matcher r = RECORD.matcher(l);
            if (r.find() && !control) {
                String version = r.group(4) == null ? "-1" : r.group(4);
                versions.computeIfAbsent(r.group(2) + "/" + version, k -> new long[12])[buckets.indexOf(Long.parseLong(r.group(1)))]++;
            }
        }
        assertThat(versions).isNotEmpty();
        PartitionDir p = LogDir.open(Corpus.corpus().resolve(run).resolve("logdir")).partitions().stream()
                .filter(d -> d.topic().equals("__consumer_offsets") && d.partition() == 40).findFirst().orElseThrow();
        FormatInventory.Counts c = FormatInventory.of(p, ReaderOptions.defaults(), false, buckets);
        FormatInventory.Timeline t = c.timeline();
        assertThat(t.buckets()).isEqualTo(buckets);
        assertThat(t.undated()).isZero();
        assertThat(asMap(t.magics())).isEqualTo(magic);
        assertThat(asMap(t.codecs())).isEqualTo(codec);
        assertThat(asMap(t.recordVersions())).isEqualTo(versions);
        // the totals are the inventory's own counts
        for (FormatInventory.Series s : t.magics()) {
            assertThat(s.total()).isEqualTo(c.batchesByMagic()[Integer.parseInt(s.key())]);
        }
        for (FormatInventory.Series s : t.recordVersions()) {
            FormatInventory.RecordVersion v = c.recordVersions().get(s.key());
            assertThat(s.total()).isEqualTo(v.count());
            assertThat(s.first()).isLessThanOrEqualTo(v.firstTimestamp());
        }
        // without buckets, no timeline
        assertThat(FormatInventory.of(p, ReaderOptions.defaults()).timeline()).isNull();
    }

    /** Series as key to counts (arrays compared by content). */
    private static Map<String, long[]> asMap(List<FormatInventory.Series> series) {
        Map<String, long[]> out = new TreeMap<>();
        series.forEach(s -> out.put(s.key(), s.counts()));
        return new TreeMap<>(out) {
            @Override
            public boolean equals(Object o) {
                if (!(o instanceof Map<?, ?> m) || !m.keySet().equals(keySet())) {
                    return false;
                }
                for (Map.Entry<String, long[]> e : entrySet()) {
                    if (!java.util.Arrays.equals(e.getValue(), (long[]) m.get(e.getKey()))) {
                        return false;
                    }
                }
                return true;
            }
        };
    }

    private static long ms(String iso) {
        return Instant.parse(iso).toEpochMilli();
    }

    @Test
    void coveringPicksTheNarrowestWidth() {
        // two minutes: one hour
        TimeBuckets h = TimeBuckets.covering(ms("2026-11-30T03:03:10Z"), ms("2026-11-30T03:05:10Z"), 60);
        assertThat(h.unit()).isEqualTo("hour");
        assertThat(h.bounds()).containsExactly(ms("2026-11-30T03:00:00Z"), ms("2026-11-30T04:00:00Z"));
        // 59 hours and a bit: 60 hourly buckets; 61 hours: days
        assertThat(TimeBuckets.covering(ms("2026-11-30T00:30:00Z"), ms("2026-12-02T11:59:59Z"), 60).count()).isEqualTo(60);
        TimeBuckets d = TimeBuckets.covering(ms("2026-11-30T00:30:00Z"), ms("2026-12-02T12:00:00Z"), 60);
        assertThat(d.unit()).isEqualTo("day");
        assertThat(d.bounds()).containsExactly(ms("2026-11-30T00:00:00Z"), ms("2026-12-01T00:00:00Z"), ms("2026-12-02T00:00:00Z"),
                ms("2026-12-03T00:00:00Z"));
        // 100 days: weeks from Monday
        TimeBuckets w = TimeBuckets.covering(ms("2026-09-02T10:00:00Z"), ms("2026-12-10T10:00:00Z"), 60);
        assertThat(w.unit()).isEqualTo("week");
        assertThat(w.start(0)).isEqualTo(ms("2026-08-31T00:00:00Z"));
        assertThat(w.count()).isEqualTo(15);
        // three years: months; twenty years: half-years
        TimeBuckets m = TimeBuckets.covering(ms("2024-02-15T00:00:00Z"), ms("2026-12-31T23:59:59Z"), 60);
        assertThat(m.unit()).isEqualTo("month");
        assertThat(m.count()).isEqualTo(35);
        assertThat(m.start(1)).isEqualTo(ms("2024-03-01T00:00:00Z"));
        TimeBuckets q = TimeBuckets.covering(ms("2006-05-01T00:00:00Z"), ms("2026-12-31T00:00:00Z"), 60);
        assertThat(q.unit()).isEqualTo("6 months");
        assertThat(q.start(0)).isEqualTo(ms("2006-01-01T00:00:00Z"));
        assertThat(q.count()).isLessThanOrEqualTo(60);
        assertThat(q.indexOf(ms("2006-07-01T00:00:00Z"))).isEqualTo(1);
        assertThat(q.indexOf(ms("2005-12-31T23:59:59Z"))).isEqualTo(-1);
        assertThat(q.indexOf(-1)).isEqualTo(-1);
        assertThatThrownBy(() -> new TimeBuckets("x", new long[] {5, 5})).isInstanceOf(IllegalArgumentException.class);
    }
}
