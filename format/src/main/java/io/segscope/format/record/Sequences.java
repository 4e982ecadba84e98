package io.segscope.format.record;

/**
 * Kafka's producer sequence arithmetic (DefaultRecordBatch.incrementSequence and
 * decrementSequence): sequences wrap from Integer.MAX_VALUE to 0.
 */
public final class Sequences {
    private Sequences() {
    }

    /** {@code sequence + increment}, wrapping past Integer.MAX_VALUE to 0. */
    public static int increment(int sequence, int increment) {
        if (sequence > Integer.MAX_VALUE - increment) {
            return increment - (Integer.MAX_VALUE - sequence) - 1;
        }
        return sequence + increment;
    }

    /** {@code sequence - decrement}, wrapping below 0 to Integer.MAX_VALUE (the inverse of {@link #increment}). */
    public static int decrement(int sequence, int decrement) {
        if (sequence < decrement) {
            return Integer.MAX_VALUE - (decrement - sequence) + 1;
        }
        return sequence - decrement;
    }
}
