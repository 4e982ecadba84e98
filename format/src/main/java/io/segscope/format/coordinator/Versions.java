package io.segscope.format.coordinator;

/**
 * A version range as Kafka's JSON schemas write it: {@code "0+"}, {@code "1"}, {@code "0-4"} or
 * {@code "none"}. {@code highest} is {@link Short#MAX_VALUE} for an open range.
 */
public record Versions(short lowest, short highest) {
    public static final Versions NONE = new Versions((short) 1, (short) 0);

    public static Versions parse(String spec) {
        if (spec == null || spec.equals("none")) {
            return NONE;
        }
        if (spec.endsWith("+")) {
            return new Versions(Short.parseShort(spec.substring(0, spec.length() - 1)), Short.MAX_VALUE);
        }
        int dash = spec.indexOf('-');
        if (dash > 0) {
            return new Versions(Short.parseShort(spec.substring(0, dash)), Short.parseShort(spec.substring(dash + 1)));
        }
        short v = Short.parseShort(spec);
        return new Versions(v, v);
    }

    public boolean contains(int version) {
        return version >= lowest && version <= highest;
    }

    public boolean isEmpty() {
        return lowest > highest;
    }

    /** The schema spelling: "none", "N+", "N" or "N-M". */
    @Override
    public String toString() {
        if (isEmpty()) {
            return "none";
        }
        if (highest == Short.MAX_VALUE) {
            return lowest + "+";
        }
        return lowest == highest ? Short.toString(lowest) : lowest + "-" + highest;
    }
}
