package io.segscope.inspector.cmd;

import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.coordinator.Unknown;
import io.segscope.format.record.LogRecord;
import io.segscope.inspector.input.Target;
import io.segscope.inspector.output.RecordContent;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The record filters of {@code dump}. {@code --group}, {@code --type} and (for coordinator topics)
 * {@code --topic}/{@code --partition} look inside coordinator record keys; for other topics
 * {@code --topic}/{@code --partition} pick the partition dirs. Offsets and times bound every record.
 */
final class RecordFilter {
    private final Set<String> groups;
    private final Set<String> topics;
    private final Set<Integer> partitions;
    private final Set<String> types;
    private final long fromOffset;
    private final long toOffset;
    private final long fromTime;
    private final long toTime;

    RecordFilter(List<String> groups, List<String> topics, List<Integer> partitions, List<String> types,
                 long fromOffset, long toOffset, long fromTime, long toTime) {
        this.groups = groups == null ? Set.of() : Set.copyOf(groups);
        this.topics = topics == null ? Set.of() : Set.copyOf(topics);
        this.partitions = partitions == null ? Set.of() : Set.copyOf(partitions);
        this.types = types == null ? Set.of() : types.stream().map(t -> t.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        this.fromOffset = fromOffset;
        this.toOffset = toOffset;
        this.fromTime = fromTime;
        this.toTime = toTime;
    }

    /** True when a filter looks inside records (so batch lines print only above matching records). */
    boolean looksInsideRecords() {
        return !groups.isEmpty() || !types.isEmpty() || fromTime != Long.MIN_VALUE || toTime != Long.MAX_VALUE;
    }

    /** Whether a partition dir's files are read at all. */
    boolean acceptsTarget(Target t, boolean coordinatorTopic) {
        if (coordinatorTopic || t.partition().isEmpty()) {
            return true;
        }
        if (!topics.isEmpty() && !topics.contains(t.partition().get().topic())) {
            return false;
        }
        return partitions.isEmpty() || partitions.contains(t.partition().get().partition());
    }

    boolean batchInRange(long baseOffset, long lastOffset) {
        return lastOffset >= fromOffset && baseOffset <= toOffset;
    }

    boolean accepts(LogRecord r, RecordContent content) {
        if (r.offset() < fromOffset || r.offset() > toOffset || r.timestamp() < fromTime || r.timestamp() > toTime) {
            return false;
        }
        if (content instanceof RecordContent.Coordinator c) {
            return acceptsCoordinator(c.result());
        }
        if (content instanceof RecordContent.Control c) {
            return groups.isEmpty() && (types.isEmpty() || types.contains("control")
                    || types.contains(c.type().name().toLowerCase(Locale.ROOT)));
        }
        return groups.isEmpty() && types.isEmpty();
    }

    private boolean acceptsCoordinator(CoordinatorResult result) {
        StructValue key = result instanceof Decoded d ? d.key() : ((Unknown) result).decodedKey();
        if (!types.isEmpty()) {
            String name = result instanceof Decoded d ? d.schema().name().toLowerCase(Locale.ROOT) : "unknown";
            if (!types.contains(name) && !types.contains(Short.toString(result.recordType()))) {
                return false;
            }
        }
        if (!groups.isEmpty() && !groups.contains(field(key, "group", "groupId", "transactionalId"))) {
            return false;
        }
        if (!topics.isEmpty() && !topics.contains(field(key, "topic"))) {
            return false;
        }
        if (!partitions.isEmpty()) {
            Object p = key == null ? null : valueOf(key, "partition");
            return p instanceof Number n && partitions.contains(n.intValue());
        }
        return true;
    }

    private static String field(StructValue key, String... names) {
        if (key == null) {
            return null;
        }
        for (String n : names) {
            Object v = valueOf(key, n);
            if (v instanceof String s) {
                return s;
            }
        }
        return null;
    }

    private static Object valueOf(StructValue key, String name) {
        int i = key.schema().indexOf(name);
        return i < 0 ? null : key.get(i);
    }
}
