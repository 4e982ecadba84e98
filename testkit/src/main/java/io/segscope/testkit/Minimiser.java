package io.segscope.testkit;

import java.util.Arrays;
import java.util.function.Predicate;

/**
 * Shrinks a failing byte input while the failure persists, so that a property over bytes (a
 * damaged segment, a hostile file) reports a short input instead of the kilobytes it started from.
 *
 * <p>The steps, repeated until none helps or the budget of property runs is spent: keep only the
 * first or the second half; remove chunks of half, a quarter, an eighth ... down to single bytes;
 * then set single bytes to zero. A step is kept when the smaller input still fails (and, with
 * {@link #check(byte[], Predicate, ByteProperty)}, is still an admissible input).
 */
public final class Minimiser {
    /** How many property runs one minimisation may spend by default. */
    public static final int DEFAULT_BUDGET = 3000;
    /** How many bytes of the minimised input a failure message shows. */
    private static final int SHOWN = 512;

    private Minimiser() {
    }

    /** A property over one byte input; it fails by throwing. */
    @FunctionalInterface
    public interface ByteProperty {
        void check(byte[] input) throws Throwable;
    }

    /**
     * The smallest input reached from {@code input} for which {@code fails} holds, within
     * {@code budget} calls of {@code fails}. {@code input} itself is taken to fail; it is not changed.
     */
    public static byte[] minimise(byte[] input, Predicate<byte[]> fails, int budget) {
        int[] calls = {0};
        Predicate<byte[]> counted = b -> calls[0]++ < budget && fails.test(b);
        byte[] best = input.clone();
        boolean progress = true;
        while (progress && calls[0] < budget) {
            progress = false;
            // halving
            while (best.length > 1 && calls[0] < budget) {
                int half = best.length / 2;
                byte[] first = Arrays.copyOf(best, half);
                byte[] second = Arrays.copyOfRange(best, half, best.length);
                if (counted.test(first)) {
                    best = first;
                } else if (counted.test(second)) {
                    best = second;
                } else {
                    break;
                }
                progress = true;
            }
            // chunk removal, from large chunks to single bytes
            for (int chunk = Math.max(1, best.length / 2); chunk >= 1 && calls[0] < budget; chunk /= 2) {
                int at = 0;
                while (at < best.length && calls[0] < budget) {
                    int end = Math.min(best.length, at + chunk);
                    byte[] candidate = new byte[best.length - (end - at)];
                    System.arraycopy(best, 0, candidate, 0, at);
                    System.arraycopy(best, end, candidate, at, best.length - end);
                    if (counted.test(candidate)) {
                        best = candidate;
                        progress = true;
                    } else {
                        at = end;
                    }
                }
            }
            // simpler bytes
            for (int i = 0; i < best.length && calls[0] < budget; i++) {
                if (best[i] != 0) {
                    byte[] candidate = best.clone();
                    candidate[i] = 0;
                    if (counted.test(candidate)) {
                        best = candidate;
                        progress = true;
                    }
                }
            }
        }
        return best;
    }

    /** {@link #minimise(byte[], Predicate, int)} with the {@link #DEFAULT_BUDGET}. */
    public static byte[] minimise(byte[] input, Predicate<byte[]> fails) {
        return minimise(input, fails, DEFAULT_BUDGET);
    }

    /** {@link #check(byte[], Predicate, ByteProperty)} where every input is admissible. */
    public static void check(byte[] input, ByteProperty property) {
        check(input, b -> true, property);
    }

    /**
     * Runs {@code property} on {@code input}. If it fails, shrinks the input over the inputs that
     * are {@code admissible} and still fail with the same class of exception, and throws an
     * {@link AssertionError} that shows the original and the minimised size, the minimised bytes in
     * hex, and has the failure on the minimised input as its cause (the original failure is added
     * to it as suppressed).
     */
    public static void check(byte[] input, Predicate<byte[]> admissible, ByteProperty property) {
        Throwable original = failure(property, input.clone());
        if (original == null) {
            return;
        }
        Class<?> kind = original.getClass();
        byte[] min = minimise(input, b -> admissible.test(b) && kind.isInstance(failure(property, b.clone())));
        Throwable last = failure(property, min.clone());
        if (last == null || !kind.isInstance(last)) { // a property that is not deterministic: report the original
            last = original;
            min = input;
        } else if (last != original) {
            last.addSuppressed(original);
        }
        throw new AssertionError("fails on " + input.length + " bytes; minimised to " + min.length + " bytes: "
                + hex(min, SHOWN) + "\n" + last, last);
    }

    private static Throwable failure(ByteProperty property, byte[] input) {
        try {
            property.check(input);
            return null;
        } catch (VirtualMachineError e) {
            if (e instanceof OutOfMemoryError) {
                return e;
            }
            throw e;
        } catch (Throwable t) {
            return t;
        }
    }

    /** The first {@code max} bytes in hex, with a note of how many more there are. */
    public static String hex(byte[] b, int max) {
        StringBuilder sb = new StringBuilder(2 * Math.min(b.length, max) + 24);
        for (int i = 0; i < Math.min(b.length, max); i++) {
            sb.append(Character.forDigit((b[i] >> 4) & 0xf, 16)).append(Character.forDigit(b[i] & 0xf, 16));
        }
        if (b.length > max) {
            sb.append("... (").append(b.length - max).append(" more)");
        }
        return sb.toString();
    }
}
