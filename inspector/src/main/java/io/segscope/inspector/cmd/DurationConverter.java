package io.segscope.inspector.cmd;

import picocli.CommandLine;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses a positive duration: a number with a unit, {@code ms}, {@code s}, {@code m}, {@code h} or {@code d} ({@code 7d}, {@code 168h}, {@code 10080m}), into ms. */
public final class DurationConverter implements CommandLine.ITypeConverter<Long> {
    private static final Pattern DURATION = Pattern.compile("(\\d{1,15})(ms|s|m|h|d)");

    @Override
    public Long convert(String value) {
        Matcher m = DURATION.matcher(value.trim());
        if (!m.matches()) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a duration: a number and a unit, ms, s, m, h or d (e.g. 7d, 168h, 10080m)");
        }
        long n = Long.parseLong(m.group(1));
        long unit = switch (m.group(2)) {
            case "ms" -> 1L;
            case "s" -> 1000L;
            case "m" -> 60_000L;
            case "h" -> 3_600_000L;
            default -> 86_400_000L;
        };
        if (n <= 0) {
            throw new CommandLine.TypeConversionException("'" + value + "': the duration must be positive");
        }
        try {
            return Math.multiplyExact(n, unit);
        } catch (ArithmeticException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is too long");
        }
    }
}
