package io.segscope.testkit;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.TestAbortedException;

/**
 * Turns a property into JUnit 5 tries: {@code count} seeds derived from a fixed base seed, one
 * dynamic test per seed, each named {@code "#<i> seed=<seed>"} and handed a fresh {@link Gen} of
 * that seed.
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicTest> hashAndEqualityMatchJavaStrings() {
 *     return Tries.of(31, 2000, gen -> {
 *         String s = gen.string(255);
 *         ...assertions...
 *     });
 * }
 * }</pre>
 *
 * <h2>Rerunning one seed</h2>
 * A failing try names its seed, and its failure message carries the command that reruns it. Set the
 * system property {@value #SEED_PROPERTY} and every property of the run tries that one seed only,
 * instead of its own list:
 * <pre>
 * mvn -B -pl format -am test -Dtest=Utf8SliceTest -Dsurefire.failIfNoSpecifiedTests=false -Dsegscope.seed=-5397230423498245678
 * </pre>
 * (Surefire passes {@code -D} user properties on to the forked test JVM.) The seeds are plain longs,
 * in decimal; {@code 0x}-prefixed hex is accepted too.
 *
 * <p>Seeds come from {@code new SplittableRandom(baseSeed)}, so a property's tries are the same in
 * every run, and raising {@code count} keeps the earlier seeds and adds new ones after them.
 */
public final class Tries {
    /** The system property that restricts every property of a run to one seed. */
    public static final String SEED_PROPERTY = "segscope.seed";

    private Tries() {
    }

    /** A property over one {@link Gen}; it fails by throwing. */
    @FunctionalInterface
    public interface Property {
        void check(Gen gen) throws Throwable;
    }

    /**
     * The seeds of a property: {@code count} longs drawn from {@code new SplittableRandom(baseSeed)},
     * or only the seed in {@value #SEED_PROPERTY} when that property is set.
     */
    public static long[] seeds(long baseSeed, int count) {
        String only = System.getProperty(SEED_PROPERTY);
        if (only != null && !only.isBlank()) {
            return new long[] {parseSeed(only.trim())};
        }
        if (count < 1) {
            throw new IllegalArgumentException("count " + count);
        }
        SplittableRandom r = new SplittableRandom(baseSeed);
        return LongStream.generate(r::nextLong).limit(count).toArray();
    }

    /** The seeds as a stream, for a {@code @MethodSource} of a {@code @ParameterizedTest(name = "seed={0}")}. */
    public static LongStream seedStream(long baseSeed, int count) {
        return LongStream.of(seeds(baseSeed, count));
    }

    static long parseSeed(String s) {
        if (s.startsWith("0x") || s.startsWith("0X")) {
            return Long.parseUnsignedLong(s.substring(2), 16);
        }
        return Long.parseLong(s);
    }

    /** The display name of a try: it contains the seed. */
    public static String displayName(int index, long seed) {
        return "#" + index + " seed=" + seed;
    }

    /**
     * {@code count} tries of {@code property}, one dynamic test per seed (see {@link #seeds}). A
     * failure is rethrown as an {@link AssertionError} that names the seed and the command to rerun
     * it, with the original failure as its cause.
     */
    public static Stream<DynamicTest> of(long baseSeed, int count, Property property) {
        String rerun = rerunCommand(StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).getCallerClass());
        long[] seeds = seeds(baseSeed, count);
        return IntStream.range(0, seeds.length).mapToObj(i -> DynamicTest.dynamicTest(displayName(i, seeds[i]),
                () -> check(seeds[i], rerun, property)));
    }

    /** Runs one try of {@code property} with the seed; a failure names the seed, as {@link #of} does. */
    public static void check(long seed, Property property) {
        check(seed, rerunCommand(StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).getCallerClass()), property);
    }

    private static void check(long seed, String rerun, Property property) {
        try {
            property.check(new Gen(seed));
        } catch (TestAbortedException e) {
            throw e;
        } catch (Throwable t) {
            if (t instanceof VirtualMachineError && !(t instanceof OutOfMemoryError)) {
                throw (VirtualMachineError) t;
            }
            throw new AssertionError("seed " + seed + " fails; rerun only it with: " + rerun + seed + "\n" + t, t);
        }
    }

    /** The command line that reruns a test class with one seed, less the seed itself. */
    static String rerunCommand(Class<?> testClass) {
        return "mvn -B -pl " + module(testClass) + " -am test -Dtest=" + testClass.getSimpleName()
                + " -Dsurefire.failIfNoSpecifiedTests=false -D" + SEED_PROPERTY + "=";
    }

    /** The Maven module a test class was compiled in ({@code <module>/target/test-classes}), or "MODULE". */
    private static String module(Class<?> c) {
        try {
            CodeSource cs = c.getProtectionDomain().getCodeSource();
            if (cs != null) {
                Path p = Path.of(cs.getLocation().toURI());
                if (p.getFileName() != null && p.getFileName().toString().endsWith("classes")
                        && p.getParent() != null && p.getParent().getFileName().toString().equals("target")
                        && p.getParent().getParent() != null) {
                    return p.getParent().getParent().getFileName().toString();
                }
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall through: the command is a hint
        }
        return "MODULE";
    }
}
