package io.segscope.inspector.cmd;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * A size in bytes: a number, optionally followed by a unit, k/K or KiB (1024), m or MiB, g or GiB
 * (powers of 1024, as Kafka's sizes are usually given: 134217728 = 128MiB).
 */
public final class ByteSizeConverter implements CommandLine.ITypeConverter<Long> {
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(|b|k|kb|kib|m|mb|mib|g|gb|gib)");

    @Override
    public Long convert(String value) {
        Matcher m = SIZE.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a size: a number of bytes, or a number and KiB, MiB or GiB (e.g. 128MiB)");
        }
        int shift = switch (m.group(2)) {
            case "", "b" -> 0;
            case "k", "kb", "kib" -> 10;
            case "m", "mb", "mib" -> 20;
            default -> 30;
        };
        try {
            long n = Long.parseLong(m.group(1));
            if (n > Long.MAX_VALUE >> shift) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is too large");
        }
    }
}
