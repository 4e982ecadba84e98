package io.segscope.format.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.logdir.LogFile;
import io.segscope.testkit.Tries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** replay(log as of T) == replay(log cut at T), for a time and for an end offset, over seeded random logs. */
class AsOfPropertyTest {
    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> asOfEqualsTheCutLog() {
        return Tries.of(0xa50fL, 300, gen -> {
            RandomOffsetsLog log = new RandomOffsetsLog(gen);
            int n = log.events.size();
            List<LogFile> full = log.write(Files.createTempDirectory(tmp, "full"), n);

            // an end offset
            int cut = gen.intBetween(0, n);
            ReplayResult asOf = OffsetsReplay.replay(full, AsOf.endOffset(cut));
            ReplayResult cutLog = OffsetsReplay.replay(log.write(Files.createTempDirectory(tmp, "cut"), cut), AsOf.END);
            same(asOf, cutLog);
            assertThat(asOf.stopped()).isEqualTo(cut < n);

            // a time: the log up to the first batch written after it
            long t = n == 0 ? 0 : log.events.get(gen.intBetween(0, n - 1)).timestamp() + gen.intBetween(-1, 1);
            int first = 0;
            while (first < n && log.events.get(first).timestamp() <= t) {
                first++;
            }
            ReplayResult byTime = OffsetsReplay.replay(full, AsOf.time(t));
            ReplayResult timeCut = OffsetsReplay.replay(log.write(Files.createTempDirectory(tmp, "time"), first), AsOf.END);
            same(byTime, timeCut);
            assertThat(byTime.now()).isEqualTo(t);
        });
    }

    static void same(ReplayResult a, ReplayResult b) {
        assertThat(KafkaCoordinatorOracleTest.offsets(a)).isEqualTo(KafkaCoordinatorOracleTest.offsets(b));
        assertThat(KafkaCoordinatorOracleTest.pending(a)).isEqualTo(KafkaCoordinatorOracleTest.pending(b));
        assertThat(KafkaCoordinatorOracleTest.groups(a)).isEqualTo(KafkaCoordinatorOracleTest.groups(b));
        assertThat(a.problems().size()).isEqualTo(b.problems().size());
        assertThat(a.nextOffset()).isEqualTo(b.nextOffset());
        assertThat(a.lastBatchTimestamp()).isEqualTo(b.lastBatchTimestamp());
    }
}
