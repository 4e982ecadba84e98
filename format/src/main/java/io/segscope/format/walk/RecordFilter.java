package io.segscope.format.walk;

import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataResult;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.LogRecord;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.RecordSchema;
import io.segscope.format.coordinator.metadata.MetadataRecordSchema;
import io.segscope.format.coordinator.metadata.MetadataSchemas;
import io.segscope.format.coordinator.remote.RemoteLogMetadataSchemas;
import io.segscope.format.record.ControlRecord;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which records a walk passes on. Owner ids (group or transactional id), topics and partitions of
 * coordinator records are read from the key by schema field ({@link CoordinatorResult#ownerId()});
 * for other topics, topics and partitions pick the partition dirs. Offsets and times bound every
 * record. Types are record names or numbers: coordinator types ({@code OffsetCommit}, {@code 1}),
 * KRaft metadata types ({@code TopicRecord}, {@code TOPIC_RECORD}, {@code 2}), {@code control}
 * and control types ({@code COMMIT}, {@code ABORT}), compared without case.
 */
public final class RecordFilter {
    /** Lets everything through. */
    public static final RecordFilter ALL = new RecordFilter(null, null, null, null, Long.MIN_VALUE, Long.MAX_VALUE,
            Long.MIN_VALUE, Long.MAX_VALUE);

    private final Set<String> owners;
    private final Set<String> topics;
    private final Set<Integer> partitions;
    private final Set<String> types;
    private final long fromOffset;
    private final long toOffset;
    private final long fromTime;
    private final long toTime;

    /** Null or empty collections select everything. */
    public RecordFilter(Collection<String> owners, Collection<String> topics, Collection<Integer> partitions,
                        Collection<String> types, long fromOffset, long toOffset, long fromTime, long toTime) {
        this.owners = owners == null ? Set.of() : Set.copyOf(owners);
        this.topics = topics == null ? Set.of() : Set.copyOf(topics);
        this.partitions = partitions == null ? Set.of() : Set.copyOf(partitions);
        this.types = types == null ? Set.of() : types.stream().map(RecordFilter::normal).collect(Collectors.toSet());
        this.fromOffset = fromOffset;
        this.toOffset = toOffset;
        this.fromTime = fromTime;
        this.toTime = toTime;
    }

    /**
     * Every type name {@code --type} knows, as people write them: coordinator record names of the
     * three coordinator topics ({@code OffsetCommit}), KRaft metadata record names and their
     * {@code MetadataRecordType} names ({@code TopicRecord}, {@code TOPIC_RECORD}), {@code control}
     * and the control types, and {@code unknown} (coordinator records of types no schema defines).
     */
    public static List<String> knownTypes() {
        List<String> out = new ArrayList<>();
        for (CoordinatorTopic t : CoordinatorTopic.values()) {
            for (RecordSchema r : CoordinatorRecordDecoder.forTopic(t).schemas().records()) {
                out.add(r.name());
            }
        }
        for (MetadataRecordSchema m : MetadataSchemas.RECORDS) {
            out.add(m.name());
            out.add(m.typeName());
        }
        for (MetadataRecordSchema m : RemoteLogMetadataSchemas.RECORDS) {
            out.add(m.name());
            out.add(m.typeName());
        }
        out.add("control");
        for (ControlRecord.Type c : ControlRecord.Type.values()) {
            if (c != ControlRecord.Type.UNKNOWN) {
                out.add(c.name());
            }
        }
        out.add("unknown");
        return out;
    }

    /** True when {@code type} is a known name (any case, with or without underscores) or a type number. */
    public static boolean isKnownType(String type) {
        if (type.matches("\\d{1,5}")) {
            return true;
        }
        String n = normal(type);
        for (String k : knownTypes()) {
            if (normal(k).equals(n)) {
                return true;
            }
        }
        return false;
    }

    /** The known type names nearest to {@code type} (edit distance), best first, at most {@code max}. */
    public static List<String> nearestTypes(String type, int max) {
        String n = normal(type);
        List<String> known = new ArrayList<>(new java.util.LinkedHashSet<>(knownTypes()));
        known.sort(java.util.Comparator.comparingInt((String k) -> distance(n, normal(k))).thenComparing(k -> k));
        return known.subList(0, Math.min(max, known.size()));
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static String normal(String type) {
        return type.replace("_", "").toLowerCase(Locale.ROOT);
    }

    /** True when a filter looks inside records (so batch lines print only above matching records). */
    public boolean looksInsideRecords() {
        return !owners.isEmpty() || !types.isEmpty() || fromTime != Long.MIN_VALUE || toTime != Long.MAX_VALUE;
    }

    /** True when a filter needs the key of coordinator records. */
    public boolean looksInsideKeys() {
        return !owners.isEmpty() || !topics.isEmpty() || !partitions.isEmpty();
    }

    /** True when anything at all is filtered. */
    public boolean isFiltering() {
        return looksInsideRecords() || looksInsideKeys() || fromOffset != Long.MIN_VALUE || toOffset != Long.MAX_VALUE;
    }

    /** Whether a file is read at all: for topics other than the coordinators', by its partition dir. */
    public boolean acceptsFile(LogFile file, boolean coordinatorTopic) {
        if (coordinatorTopic || file.partition().isEmpty()) {
            return true;
        }
        if (!topics.isEmpty() && !topics.contains(file.partition().get().topic())) {
            return false;
        }
        return partitions.isEmpty() || partitions.contains(file.partition().get().partition());
    }

    public boolean batchInRange(long baseOffset, long lastOffset) {
        return lastOffset >= fromOffset && baseOffset <= toOffset;
    }

    public boolean accepts(LogRecord r, RecordContent content) {
        if (r.offset() < fromOffset || r.offset() > toOffset || r.timestamp() < fromTime || r.timestamp() > toTime) {
            return false;
        }
        if (content instanceof RecordContent.Coordinator c) {
            // without a type or key filter the record is not decoded here (a writer may not need to)
            return types.isEmpty() && !looksInsideKeys() || acceptsCoordinator(c.result());
        }
        if (content instanceof RecordContent.Control c) {
            return owners.isEmpty() && (types.isEmpty() || types.contains("control") || types.contains(normal(c.type().name())));
        }
        if (content instanceof RecordContent.Metadata m) {
            return owners.isEmpty() && (types.isEmpty() || acceptsMetadataType(m.result()));
        }
        if (content instanceof RecordContent.RemoteLogMetadata m) {
            return owners.isEmpty() && (types.isEmpty() || acceptsMetadataType(m.result()));
        }
        return owners.isEmpty() && types.isEmpty();
    }

    private boolean acceptsMetadataType(MetadataResult result) {
        if (types.contains(Short.toString(result.apiKey()))) {
            return true;
        }
        return result instanceof MetadataDecoded d && (types.contains(normal(d.typeName()))
                || types.contains(normal(d.schema().name())));
    }

    private boolean acceptsCoordinator(CoordinatorResult result) {
        if (!types.isEmpty()) {
            String name = result instanceof Decoded d ? normal(d.schema().name()) : "unknown";
            if (!types.contains(name) && !types.contains(Short.toString(result.recordType()))) {
                return false;
            }
        }
        if (!owners.isEmpty()) {
            String owner = result.ownerId();
            if (owner == null || !owners.contains(owner)) {
                return false;
            }
        }
        if (!topics.isEmpty()) {
            String topic = result.keyTopic();
            if (topic == null || !topics.contains(topic)) {
                return false;
            }
        }
        return partitions.isEmpty() || partitions.contains(result.keyPartition());
    }
}
