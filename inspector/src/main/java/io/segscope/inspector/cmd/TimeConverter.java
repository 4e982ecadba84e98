package io.segscope.inspector.cmd;

import picocli.CommandLine;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/** Parses a time given as epoch milliseconds or ISO-8601 (an instant, a date-time in UTC, or a date). */
public final class TimeConverter implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        String v = value.trim();
        if (v.matches("-?\\d+")) {
            return Long.parseLong(v);
        }
        try {
            return Instant.parse(v).toEpochMilli();
        } catch (DateTimeParseException ignored) {
            // try the other ISO forms
        }
        try {
            return OffsetDateTime.parse(v).toInstant().toEpochMilli();
        } catch (DateTimeParseException ignored) {
            // next
        }
        try {
            return LocalDateTime.parse(v).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException ignored) {
            // next
        }
        try {
            return LocalDate.parse(v).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is neither epoch milliseconds nor an ISO-8601 time (e.g. 2026-11-30T02:00:00Z)");
        }
    }
}
