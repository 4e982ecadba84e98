package io.segscope.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

class TriesTest {
    private String saved;

    @AfterEach
    void restore() {
        if (saved == null) {
            System.clearProperty(Tries.SEED_PROPERTY);
        } else {
            System.setProperty(Tries.SEED_PROPERTY, saved);
        }
    }

    private void withoutSeedProperty() {
        saved = System.getProperty(Tries.SEED_PROPERTY);
        System.clearProperty(Tries.SEED_PROPERTY);
    }

    @Test
    void seedsAreFixedDistinctAndExtendable() {
        withoutSeedProperty();
        long[] a = Tries.seeds(31, 200);
        assertThat(a).hasSize(200).isEqualTo(Tries.seeds(31, 200));
        assertThat(java.util.Arrays.stream(a).distinct().count()).isEqualTo(200);
        assertThat(Tries.seeds(31, 300)).startsWith(a);
        assertThat(Tries.seeds(32, 200)).isNotEqualTo(a);
    }

    @Test
    void everyTryIsNamedWithItsSeedAndGetsAGenOfIt() throws Throwable {
        withoutSeedProperty();
        long[] seeds = Tries.seeds(7, 25);
        List<Long> seen = new ArrayList<>();
        List<DynamicTest> tests = Tries.of(7, 25, g -> seen.add(g.seed())).toList();
        assertThat(tests).hasSize(25);
        for (int i = 0; i < tests.size(); i++) {
            assertThat(tests.get(i).getDisplayName()).contains("seed=" + seeds[i]);
            tests.get(i).getExecutable().execute();
        }
        assertThat(seen).containsExactlyElementsOf(java.util.Arrays.stream(seeds).boxed().toList());
    }

    @Test
    void theSeedPropertyRestrictsTheRunToThatSeed() throws Throwable {
        saved = System.getProperty(Tries.SEED_PROPERTY);
        System.setProperty(Tries.SEED_PROPERTY, "-5397230423498245678");
        AtomicInteger runs = new AtomicInteger();
        List<DynamicTest> tests = Tries.of(7, 1000, g -> {
            assertThat(g.seed()).isEqualTo(-5397230423498245678L);
            runs.incrementAndGet();
        }).toList();
        assertThat(tests).singleElement().satisfies(t -> assertThat(t.getDisplayName()).contains("seed=-5397230423498245678"));
        tests.get(0).getExecutable().execute();
        assertThat(runs).hasValue(1);
        System.setProperty(Tries.SEED_PROPERTY, "0x10");
        assertThat(Tries.seeds(1, 50)).containsExactly(16L);
    }

    @Test
    void aFailureNamesItsSeedAndTheRerunCommand() {
        withoutSeedProperty();
        long seed = Tries.seeds(9, 1)[0];
        Executable e = Tries.of(9, 1, g -> assertThat(g.intBetween(0, 10)).isNegative()).toList().get(0).getExecutable();
        assertThatThrownBy(e::execute).isInstanceOf(AssertionError.class)
                .hasMessageContaining("seed " + seed + " fails")
                .hasMessageContaining("-Dtest=TriesTest")
                .hasMessageContaining("-Dsegscope.seed=" + seed)
                .hasMessageContaining("-pl testkit")
                .cause().isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> Tries.check(5, g -> {
            throw new IllegalStateException("boom");
        })).hasMessageContaining("seed 5 fails").hasCauseInstanceOf(IllegalStateException.class);
    }

    /** The helper as a test class uses it. */
    @TestFactory
    java.util.stream.Stream<DynamicTest> asATestFactory() {
        return Tries.of(11, 20, g -> assertThat(g.intBetween(3, 9)).isBetween(3, 9));
    }
}
