package io.segscope.inspector.output;

import io.segscope.format.json.JsonOut;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Times#iso(JsonOut, long)} writes {@code Instant.toString()} for every kind of millisecond. */
class TimesTest {
    private static final Times.Last LAST = new Times.Last();

    private static void same(long ms) {
        JsonOut o = new JsonOut(32);
        Times.iso(o, ms);
        assertThat(o.toString()).as("%d", ms).isEqualTo(ms < 0 ? "-" : Instant.ofEpochMilli(ms).toString());
        for (int i = 0; i < 2; i++) { // the remembered text, and the same instant again
            JsonOut remembered = new JsonOut(32);
            LAST.iso(remembered, ms);
            assertThat(remembered.toString()).as("%d remembered", ms).isEqualTo(o.toString());
        }
    }

    @Test
    void asInstantToString() {
        long[] edges = {-1, Long.MIN_VALUE, 0, 1, 999, 1000, 86_399_999, 86_400_000, 951_782_400_000L /* 2000-02-29 */,
            4_107_542_400_000L /* 2100-03-01 */, 253_402_300_799_999L, 253_402_300_800_000L, Long.MAX_VALUE,
            1_795_996_800_016L, 1_795_996_800_100L, 1_795_996_800_000L};
        for (long ms : edges) {
            same(ms);
        }
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 200_000; i++) {
            same(random.nextLong(0, 300_000_000_000_000L));
        }
    }
}
