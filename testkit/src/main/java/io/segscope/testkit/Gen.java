package io.segscope.testkit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Seeded generators over {@link SplittableRandom}: the same seed gives the same values, in the same
 * order, on every machine and JDK. One {@code Gen} serves one try of a property (see {@link Tries}).
 *
 * <p>Numbers and sizes lean towards their edges: about one value in sixteen is a bound of its range
 * (or 0, 1, -1, {@code MIN_VALUE}, {@code MAX_VALUE} for unbounded ones), and sizes are small half of
 * the time, so that short inputs and boundary values come up in every run, not only by luck.
 */
public final class Gen {
    private static final int EDGE_ONE_IN = 16;
    private static final int SMALL_SIZE = 16;
    /** Characters that break naive quoting, CSV and line-based formats. */
    private static final String SPECIALS = ",\"'\\\n\r\t ;:=#{}[]";

    private final long seed;
    private final SplittableRandom rnd;

    public Gen(long seed) {
        this.seed = seed;
        this.rnd = new SplittableRandom(seed);
    }

    /** The seed this generator started from. */
    public long seed() {
        return seed;
    }

    /** The underlying generator, for what the methods here do not offer. */
    public SplittableRandom splittable() {
        return rnd;
    }

    /**
     * A {@link java.util.Random} seeded from this generator, for code that takes one (Kafka's
     * builders, the tests' own segment generators). Each call gives a new, independent one.
     */
    public Random random() {
        return new Random(rnd.nextLong());
    }

    /** A long seed for code that makes its own {@code new Random(seed)}. */
    public long seedForRandom() {
        return rnd.nextLong();
    }

    private boolean edge() {
        return rnd.nextInt(EDGE_ONE_IN) == 0;
    }

    public boolean bool() {
        return rnd.nextBoolean();
    }

    /** True about once in {@code n} calls. */
    public boolean oneIn(int n) {
        return rnd.nextInt(n) == 0;
    }

    /** An int in {@code [min, max]}, both inclusive; the bounds come up more often than the rest. */
    public int intBetween(int min, int max) {
        return (int) longBetween(min, max);
    }

    /** A long in {@code [min, max]}, both inclusive; the bounds come up more often than the rest. */
    public long longBetween(long min, long max) {
        if (min > max) {
            throw new IllegalArgumentException("min " + min + " > max " + max);
        }
        if (edge()) {
            long[] edges = {min, max, min + 1 <= max ? min + 1 : min, max - 1 >= min ? max - 1 : max, 0 >= min && 0 <= max ? 0 : min};
            return edges[rnd.nextInt(edges.length)];
        }
        return uniform(min, max);
    }

    private long uniform(long min, long max) {
        if (min == Long.MIN_VALUE && max == Long.MAX_VALUE) {
            return rnd.nextLong();
        }
        if (max == Long.MAX_VALUE) {
            return rnd.nextLong(min - 1, max) + 1;
        }
        return rnd.nextLong(min, max + 1);
    }

    /**
     * Any int: edge values now and then, otherwise half uniform and half of a random magnitude (so
     * that one-, two- and three-byte varints are as common as five-byte ones).
     */
    public int anyInt() {
        if (edge()) {
            int[] edges = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE + 1, Integer.MAX_VALUE - 1};
            return edges[rnd.nextInt(edges.length)];
        }
        return rnd.nextBoolean() ? rnd.nextInt() : rnd.nextInt() >> rnd.nextInt(32);
    }

    /** Any long, as {@link #anyInt()} does for ints. */
    public long anyLong() {
        if (edge()) {
            long[] edges = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1,
                    Integer.MIN_VALUE, Integer.MAX_VALUE};
            return edges[rnd.nextInt(edges.length)];
        }
        return rnd.nextBoolean() ? rnd.nextLong() : rnd.nextLong() >> rnd.nextInt(64);
    }

    /** Any byte, 0, -1, 0x7f and 0x80 more often than the rest. */
    public byte anyByte() {
        if (edge()) {
            byte[] edges = {0, -1, 0x7f, (byte) 0x80, 1};
            return edges[rnd.nextInt(edges.length)];
        }
        return (byte) rnd.nextInt(256);
    }

    /** A size in {@code [min, max]}: the bounds now and then, small (up to min + 16) half of the time. */
    public int size(int min, int max) {
        if (min < 0 || min > max) {
            throw new IllegalArgumentException("size range " + min + ".." + max);
        }
        if (edge()) {
            return rnd.nextBoolean() ? min : max;
        }
        int top = rnd.nextBoolean() ? Math.min(max, min + SMALL_SIZE) : max;
        return min + rnd.nextInt(top - min + 1);
    }

    /** Bytes of a length up to {@code maxLength}. */
    public byte[] bytes(int maxLength) {
        return bytes(0, maxLength);
    }

    /** Bytes of a length in {@code [minLength, maxLength]}; any byte value, edge values a little more often. */
    public byte[] bytes(int minLength, int maxLength) {
        byte[] b = new byte[size(minLength, maxLength)];
        for (int i = 0; i < b.length; i++) {
            b[i] = anyByte();
        }
        return b;
    }

    /** A string of up to {@code maxLength} chars, see {@link #string(int, int)}. */
    public String string(int maxLength) {
        return string(0, maxLength);
    }

    /**
     * A string of {@code [minLength, maxLength]} chars (UTF-16 units) drawn from a mix of printable
     * ASCII; commas, quotes, backslashes, newlines and tabs; control characters and NUL; two- and
     * three-byte UTF-8 characters (accents, CJK); supplementary characters (surrogate pairs, such as
     * emoji); and, rarely, a lone surrogate, which no UTF-8 encoder can represent.
     */
    public String string(int minLength, int maxLength) {
        int length = size(minLength, maxLength);
        StringBuilder sb = new StringBuilder(length);
        while (sb.length() < length) {
            int kind = rnd.nextInt(100);
            if (kind < 40) {
                sb.append((char) rnd.nextInt(0x20, 0x7f));
            } else if (kind < 52) {
                sb.append(SPECIALS.charAt(rnd.nextInt(SPECIALS.length())));
            } else if (kind < 58) {
                int c = rnd.nextInt(0x21);
                sb.append(c == 0x20 ? (char) 0x7f : (char) c);
            } else if (kind < 72) {
                sb.append((char) rnd.nextInt(0x80, 0x800));
            } else if (kind < 85) {
                char c;
                do {
                    c = (char) rnd.nextInt(0x800, 0x10000);
                } while (Character.isSurrogate(c));
                sb.append(c);
            } else if (kind < 97) {
                if (sb.length() + 2 <= length) {
                    sb.appendCodePoint(rnd.nextInt(0x10000, Character.MAX_CODE_POINT + 1));
                }
            } else {
                sb.append((char) rnd.nextInt(Character.MIN_SURROGATE, Character.MAX_SURROGATE + 1));
            }
        }
        return sb.toString();
    }

    /** One of the options, each as likely. */
    @SafeVarargs
    public final <T> T choose(T... options) {
        return options[rnd.nextInt(options.length)];
    }

    /** One of the options, each as likely. */
    public <T> T choose(List<T> options) {
        return options.get(rnd.nextInt(options.size()));
    }

    /** The result of one of the generators, each as likely. */
    @SafeVarargs
    public final <T> T oneOf(Function<Gen, T>... generators) {
        return generators[rnd.nextInt(generators.length)].apply(this);
    }

    /** A list of {@link #size(int, int)} elements, each made by {@code element}. */
    public <T> List<T> list(int minSize, int maxSize, Function<Gen, T> element) {
        int n = size(minSize, maxSize);
        List<T> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(element.apply(this));
        }
        return out;
    }

    /**
     * A list as {@link #list(int, int, Function)} makes, without two elements of the same key: an
     * element whose key is taken is drawn again (a few times, then left out).
     */
    public <T> List<T> uniqueList(int minSize, int maxSize, Function<Gen, T> element, Function<T, ?> key) {
        int n = size(minSize, maxSize);
        List<T> out = new ArrayList<>(n);
        Set<Object> keys = new HashSet<>();
        for (int i = 0; i < n; i++) {
            for (int attempt = 0; attempt < 100; attempt++) {
                T e = element.apply(this);
                if (keys.add(key.apply(e))) {
                    out.add(e);
                    break;
                }
            }
        }
        return out;
    }
}
