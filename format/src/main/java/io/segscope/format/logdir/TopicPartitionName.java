package io.segscope.format.logdir;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The topic and partition a partition directory's name gives, by Kafka's
 * {@code LocalLog.parseTopicPartitionName} rules (docs/format.md 1.1):
 *
 * <ol>
 *   <li>the name must contain a {@code -};</li>
 *   <li>a name ending in {@code -delete}, {@code -future} or {@code -stray} must match
 *       {@code (\S+)-(\S+)\.(\S+)<suffix>}, and everything from its last {@code .} on is dropped
 *       (the {@code .uniqueId-suffix} tail);</li>
 *   <li>what is left splits at its last {@code -}: topic (non-empty, may hold {@code -} and
 *       {@code .}) and partition ({@code Integer.parseInt}).</li>
 * </ol>
 *
 * A {@code -delete} or {@code -stray} name is capped at 255 characters by truncating the topic,
 * so a long topic name may come back shortened.
 *
 * @param uniqueId the 32-hex-digit id of a suffixed directory, null for a live one
 */
public record TopicPartitionName(String topic, int partition, DirStatus status, String uniqueId) {
    private static final Pattern DELETE = Pattern.compile("(\\S+)-(\\S+)\\.(\\S+)-delete");
    private static final Pattern FUTURE = Pattern.compile("(\\S+)-(\\S+)\\.(\\S+)-future");
    private static final Pattern STRAY = Pattern.compile("(\\S+)-(\\S+)\\.(\\S+)-stray");

    /** The KRaft metadata log's topic, whose directory ({@code __cluster_metadata-0}) is a partition directory too. */
    public static final String METADATA_TOPIC = "__cluster_metadata";

    /**
     * A directory of segments whose name is not Kafka's: read as one partition of an unknown topic
     * (the topic is the directory name, the partition -1).
     */
    public static TopicPartitionName loose(String dirName) {
        return new TopicPartitionName(dirName, -1, DirStatus.LIVE, null);
    }

    /** True for a {@link #loose} name. */
    public boolean isLoose() {
        return partition < 0;
    }

    /**
     * Parses a directory name.
     *
     * @throws FormatException {@code name-format} when Kafka would refuse the name
     */
    public static TopicPartitionName parse(String dirName) {
        TopicPartitionName n = parseOrNull(dirName);
        if (n == null) {
            throw FormatException.at(Violation.NAME_FORMAT, dirName, FormatException.UNKNOWN).field("directory name")
                    .expected("<topic>-<partition> or <topic>-<partition>.<uniqueId>-delete|-future|-stray")
                    .actual(dirName).build();
        }
        return n;
    }

    /** Parses a directory name, or returns empty when Kafka would refuse it. */
    public static Optional<TopicPartitionName> tryParse(String dirName) {
        return Optional.ofNullable(parseOrNull(dirName));
    }

    private static TopicPartitionName parseOrNull(String name) {
        if (name == null || !name.contains("-")) {
            return null;
        }
        DirStatus status = DirStatus.LIVE;
        if (name.endsWith(DirStatus.DELETE.suffix())) {
            status = DirStatus.DELETE;
        } else if (name.endsWith(DirStatus.FUTURE.suffix())) {
            status = DirStatus.FUTURE;
        } else if (name.endsWith(DirStatus.STRAY.suffix())) {
            status = DirStatus.STRAY;
        }
        String stem = name;
        String uniqueId = null;
        if (status != DirStatus.LIVE) {
            Pattern p = status == DirStatus.DELETE ? DELETE : status == DirStatus.FUTURE ? FUTURE : STRAY;
            if (!p.matcher(name).matches()) {
                return null;
            }
            int dot = name.lastIndexOf('.');
            stem = name.substring(0, dot);
            uniqueId = name.substring(dot + 1, name.length() - status.suffix().length());
        }
        int dash = stem.lastIndexOf('-');
        String topic = stem.substring(0, dash);
        String partition = stem.substring(dash + 1);
        if (topic.isEmpty() || partition.isEmpty()) {
            return null;
        }
        try {
            return new TopicPartitionName(topic, Integer.parseInt(partition), status, uniqueId);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** True for the KRaft metadata log ({@code __cluster_metadata}). */
    public boolean isMetadataLog() {
        return METADATA_TOPIC.equals(topic);
    }

    /** {@code <topic>-<partition>}, the live directory name. */
    public String topicPartition() {
        return topic + "-" + partition;
    }
}
