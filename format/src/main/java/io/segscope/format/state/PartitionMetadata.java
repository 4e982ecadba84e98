package io.segscope.format.state;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;

import io.segscope.format.io.KafkaUuid;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A partition's {@code partition.metadata} (docs/format.md 1.1): two lines, {@code version: 0}
 * and {@code topic_id: <uuid>} (no newline after the second), each split on the regex
 * {@code :\s+} into exactly two parts. As in Kafka, the key names are not checked, any version
 * of at least 0 is accepted, lines after the second are ignored, and the all-zero topic id is
 * rejected.
 */
public record PartitionMetadata(int version, KafkaUuid topicId) {
    public static final String FILE_NAME = "partition.metadata";
    private static final Pattern SEPARATOR = Pattern.compile(":\\s+");

    /**
     * @throws FormatException {@code checkpoint-format} for a missing or malformed line,
     *     {@code checkpoint-version} for a negative version, {@code uuid-format} for a topic id
     *     that is not a Kafka Uuid or is all zero
     */
    public static PartitionMetadata read(ByteSource source) {
        String file = source.name();
        List<SmallFiles.Line> lines = SmallFiles.lines(SmallFiles.readAll(source), file, Violation.CHECKPOINT_FORMAT);
        String[] versionParts = fields(lines, 0, file, "version");
        int version;
        try {
            version = Integer.parseInt(versionParts[1]);
        } catch (NumberFormatException e) {
            throw malformed(file, lines.get(0), "version", "an int32");
        }
        if (version < 0) {
            throw FormatException.at(Violation.CHECKPOINT_VERSION, file, lines.get(0).position()).field("version")
                    .expected(">= 0").actual(version).build();
        }
        String[] idParts = fields(lines, 1, file, "topic_id");
        SmallFiles.Line idLine = lines.get(1);
        KafkaUuid id;
        try {
            id = KafkaUuid.parse(idParts[1]);
        } catch (IllegalArgumentException e) {
            throw FormatException.at(Violation.UUID_FORMAT, file, idLine.position()).field("topic_id")
                    .expected("22 characters of URL-safe Base64 (16 bytes)").actual('"' + idParts[1] + '"')
                    .note(e.getMessage()).build();
        }
        if (id.isZero()) {
            throw FormatException.at(Violation.UUID_FORMAT, file, idLine.position()).field("topic_id")
                    .expected("a non-zero topic id").actual(idParts[1]).build();
        }
        return new PartitionMetadata(version, id);
    }

    private static String[] fields(List<SmallFiles.Line> lines, int index, String file, String field) {
        if (lines.size() <= index) {
            long end = lines.isEmpty() ? 0 : lines.get(lines.size() - 1).position() + lines.get(lines.size() - 1).text().length();
            throw FormatException.at(Violation.CHECKPOINT_FORMAT, file, end).field(field)
                    .expected("line " + (index + 1) + " \"" + field + ": ...\"").actual("end of file").build();
        }
        String[] parts = SEPARATOR.split(lines.get(index).text());
        if (parts.length != 2) {
            throw malformed(file, lines.get(index), field, "\"" + field + ": <value>\"");
        }
        return parts;
    }

    private static FormatException malformed(String file, SmallFiles.Line line, String field, String expected) {
        return FormatException.at(Violation.CHECKPOINT_FORMAT, file, line.position()).field(field)
                .expected(expected).actual('"' + line.text() + '"').build();
    }
}
