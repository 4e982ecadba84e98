package io.segscope.format.state;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Kafka's checkpoint text container (docs/format.md 1.1), with {@code CheckpointFile}'s exact
 * reading rules:
 *
 * <pre>
 * line 1     version            (Integer.parseInt of the whole line, no trimming)
 * line 2     N                  (number of entries)
 * lines 3..  one entry per line, fields split on the regex \s+
 * </pre>
 *
 * An empty file has no entries, and so has a file with a version line and nothing else. A version
 * other than the expected one is an error; every remaining line must be an entry (a blank line is
 * malformed); after all lines are read their number must equal N. Lines end at {@code \n},
 * {@code \r} or {@code \r\n}, as {@code BufferedReader.readLine} splits them. A leftover
 * {@code <name>.tmp} sibling is an unfinished write that Kafka never reads; discovery leaves it out.
 */
public final class CheckpointFile {
    /** The field separator of entry lines. */
    public static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private CheckpointFile() {
    }

    /** Turns the fields of one entry line into an entry, or returns null when the line is malformed. */
    @FunctionalInterface
    public interface EntryParser<T> {
        /**
         * @param fields the line split on {@code \s+}
         * @param line where the line is, for errors about one field
         * @return the entry, or null when the number of fields is wrong
         */
        T parse(String[] fields, Line line);
    }

    /** One line of a checkpoint file: the text and the byte position where it starts. */
    public record Line(String file, String text, long position) {
        /** A typed error about this line. */
        public FormatException malformed(String field, Object expected) {
            return FormatException.at(Violation.CHECKPOINT_FORMAT, file, position).field(field)
                    .expected(expected).actual('"' + text + '"').build();
        }

        /** {@code Integer.parseInt} of a field, or a typed error naming it. */
        public int parseInt(String value, String field) {
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw malformed(field, "an int32");
            }
        }

        /** {@code Long.parseLong} of a field, or a typed error naming it. */
        public long parseLong(String value, String field) {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw malformed(field, "an int64");
            }
        }
    }

    /**
     * Reads a checkpoint file.
     *
     * @throws FormatException {@code checkpoint-format} for a line that does not parse (or text
     *     that is not UTF-8), {@code checkpoint-version} for another version,
     *     {@code checkpoint-count} when the count is negative or differs from the entry lines
     */
    public static <T> List<T> read(ByteSource source, int expectedVersion, EntryParser<T> parser) {
        String file = source.name();
        List<SmallFiles.Line> lines = SmallFiles.lines(SmallFiles.readAll(source), file, Violation.CHECKPOINT_FORMAT);
        if (lines.isEmpty()) {
            return List.of();
        }
        Line versionLine = line(file, lines.get(0));
        int version = versionLine.parseInt(versionLine.text(), "version");
        if (version != expectedVersion) {
            throw FormatException.at(Violation.CHECKPOINT_VERSION, file, versionLine.position()).field("version")
                    .expected(expectedVersion).actual(version).build();
        }
        if (lines.size() == 1) {
            return List.of();
        }
        Line countLine = line(file, lines.get(1));
        int expectedSize = countLine.parseInt(countLine.text(), "count");
        if (expectedSize < 0) {
            // Kafka sizes a list with it and fails with an IllegalArgumentException.
            throw FormatException.at(Violation.CHECKPOINT_COUNT, file, countLine.position()).field("count")
                    .expected(">= 0").actual(expectedSize).build();
        }
        List<T> entries = new ArrayList<>(Math.min(expectedSize, lines.size()));
        for (int i = 2; i < lines.size(); i++) {
            Line line = line(file, lines.get(i));
            String[] fields = WHITESPACE.split(line.text());
            T entry = parser.parse(fields, line);
            if (entry == null) {
                throw line.malformed("entry " + (i - 2), "an entry line");
            }
            entries.add(entry);
        }
        if (entries.size() != expectedSize) {
            long at = expectedSize < entries.size() ? lines.get(2 + expectedSize).position() : countLine.position();
            throw FormatException.at(Violation.CHECKPOINT_COUNT, file, at).field("count")
                    .expected(expectedSize + " entries").actual(entries.size() + " entries").build();
        }
        return entries;
    }

    private static Line line(String file, SmallFiles.Line l) {
        return new Line(file, l.text(), l.position());
    }
}
