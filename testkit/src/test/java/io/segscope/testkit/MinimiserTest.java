package io.segscope.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MinimiserTest {

    private static byte[] noise(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        for (int i = 0; i < n; i++) {
            if (b[i] == 0x42) {
                b[i] = 0x41;
            }
        }
        return b;
    }

    private static boolean hasPair(byte[] b) {
        for (int i = 0; i + 1 < b.length; i++) {
            if (b[i] == 0x42 && b[i + 1] == 0x43) {
                return true;
            }
        }
        return false;
    }

    @Test
    void shrinksToTheBytesThatMatter() {
        byte[] input = noise(10_000, 1);
        input[6_789] = 0x42;
        input[6_790] = 0x43;
        byte[] min = Minimiser.minimise(input, MinimiserTest::hasPair);
        assertThat(min).containsExactly(0x42, 0x43);
        assertThat(input).hasSize(10_000);  // the input itself is left alone
    }

    @Test
    void shrinksALengthConditionToItsBound() {
        byte[] min = Minimiser.minimise(noise(5000, 2), b -> b.length >= 100);
        assertThat(min).hasSize(100).containsOnly(0);
    }

    @Test
    void shrinksTwoDistantBytes() {
        byte[] input = noise(4096, 3);
        input[17] = 0x42;
        input[4000] = 0x42;
        byte[] min = Minimiser.minimise(input, b -> {
            int n = 0;
            for (byte x : b) {
                n += x == 0x42 ? 1 : 0;
            }
            return n >= 2;
        });
        assertThat(min).containsExactly(0x42, 0x42);
    }

    @Test
    void keepsToTheBudget() {
        AtomicInteger calls = new AtomicInteger();
        Minimiser.minimise(noise(100_000, 4), b -> calls.incrementAndGet() > 0 && b.length > 3, 50);
        assertThat(calls.get()).isLessThanOrEqualTo(50);
    }

    @Test
    void checkPassesAPassingPropertyAndReportsAMinimisedFailure() {
        byte[] fine = noise(300, 5);
        Minimiser.check(fine, b -> assertThat(hasPair(b)).isFalse());

        byte[] bad = noise(3000, 6);
        bad[1500] = 0x42;
        bad[1501] = 0x43;
        assertThatThrownBy(() -> Minimiser.check(bad, b -> assertThat(hasPair(b)).isFalse()))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("fails on 3000 bytes; minimised to 2 bytes: 4243")
                .cause().isInstanceOf(AssertionError.class);
    }

    /** The failure must persist as the same kind: another exception on a smaller input does not count. */
    @Test
    void checkKeepsTheKindOfFailure() {
        byte[] bad = noise(2000, 7);
        bad[10] = 0x42;
        bad[11] = 0x43;
        Minimiser.ByteProperty p = b -> {
            if (b.length < 1000) {
                throw new IllegalStateException("too short");
            }
            if (hasPair(b)) {
                throw new AssertionError("pair");
            }
        };
        assertThatThrownBy(() -> Minimiser.check(bad, p))
                .hasMessageStartingWith("fails on 2000 bytes; minimised to 1000 bytes")
                .cause().hasMessage("pair");
    }

    @Test
    void checkOnlyTriesAdmissibleInputs() {
        byte[] bad = noise(64, 8);
        bad[0] = 0x42;
        bad[1] = 0x43;
        // only whole 8-byte words are admissible
        assertThatThrownBy(() -> Minimiser.check(bad, b -> b.length % 8 == 0, b -> assertThat(hasPair(b)).isFalse()))
                .hasMessageStartingWith("fails on 64 bytes; minimised to 8 bytes: 4243");
    }
}
