package io.segscope.format.inventory;

import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.io.KafkaUuid;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.walk.DecoderChoice;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordFilter;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The topics the KRaft metadata log knows, replayed from its files (docs/format.md 1.1): the
 * latest KRaft snapshot, then the log's records past it. {@code TopicRecord} names a topic id,
 * {@code PartitionRecord} adds a partition, {@code RemoveTopicRecord} deletes the topic. What is
 * not in the files (a controller's state never written to this broker's copy) is not known.
 * {@code ConfigRecord}s of topics (resource type 2) give each topic's configs set at creation or
 * since (a null value removes one).
 */
public final class MetadataTopics {
    /** One topic: its id and partition count. */
    public record Topic(String name, KafkaUuid id, int partitions) {
    }

    private final Map<KafkaUuid, String> names = new HashMap<>();
    private final Map<KafkaUuid, Integer> partitions = new HashMap<>();
    private final Map<String, Map<String, String>> configs = new HashMap<>();
    /** topic id → partition → the last leader recorded (a partition left with none keeps its last), from PartitionRecord and PartitionChangeRecord. */
    private final Map<KafkaUuid, Map<Integer, Integer>> leaders = new HashMap<>();
    /** topic id → partition → the last in-sync replica set recorded (PartitionRecord, then each PartitionChangeRecord that sets one). */
    private final Map<KafkaUuid, Map<Integer, List<Integer>>> isrs = new HashMap<>();
    private static final int TOPIC_RESOURCE = 2;
    private long records;

    private MetadataTopics() {
    }

    /**
     * Replays the given files of one {@code __cluster_metadata} partition dir (its segments and
     * KRaft snapshots, in any order).
     */
    public static MetadataTopics replay(List<LogFile> metadataFiles) {
        LogFile snapshot = null;
        List<LogFile> segments = new ArrayList<>();
        for (LogFile f : metadataFiles) {
            if (f.kind() == FileKind.KRAFT_SNAPSHOT && (snapshot == null || f.baseOffset() > snapshot.baseOffset())) {
                snapshot = f;
            } else if (f.kind() == FileKind.LOG) {
                segments.add(f);
            }
        }
        segments.sort(Comparator.comparingLong(LogFile::baseOffset));
        long from = snapshot == null ? Long.MIN_VALUE : snapshot.baseOffset();
        List<LogFile> order = new ArrayList<>();
        if (snapshot != null) {
            order.add(snapshot);
        }
        order.addAll(segments);
        MetadataTopics topics = new MetadataTopics();
        RecordWalk walk = new RecordWalk(ReaderOptions.defaults(), DecoderChoice.METADATA, RecordFilter.ALL, Long.MAX_VALUE);
        walk.walk(order, new RecordSink() {
            @Override
            public void record(LogFile file, Batch batch, LogRecord record, RecordContent content) {
                // a snapshot holds the state at its end offset; the log adds what came after it
                if (file.kind() == FileKind.LOG && record.offset() < from) {
                    return;
                }
                if (content instanceof RecordContent.Metadata m && m.result() instanceof MetadataDecoded d) {
                    topics.apply(d);
                }
            }
        });
        return topics;
    }

    private void apply(MetadataDecoded d) {
        records++;
        StructValue v = d.value();
        switch (d.schema().name()) {
            case "TopicRecord" -> names.put((KafkaUuid) v.get("TopicId"), (String) v.get("Name"));
            case "PartitionRecord" -> {
                KafkaUuid id = (KafkaUuid) v.get("TopicId");
                partitions.merge(id, (Integer) v.get("PartitionId") + 1, Math::max);
                int leader = ((Number) v.get("Leader")).intValue();
                if (leader >= 0) {
                    leaders.computeIfAbsent(id, x -> new HashMap<>()).put((Integer) v.get("PartitionId"), leader);
                }
                putIsr(id, (Integer) v.get("PartitionId"), v.get("Isr"));
            }
            case "PartitionChangeRecord" -> {
                int leader = ((Number) v.get("Leader")).intValue();
                if (leader >= 0) {   // -2: the leader did not change; -1: none (the last one is kept)
                    leaders.computeIfAbsent((KafkaUuid) v.get("TopicId"), x -> new HashMap<>())
                            .put((Integer) v.get("PartitionId"), leader);
                }
                putIsr((KafkaUuid) v.get("TopicId"), (Integer) v.get("PartitionId"), v.get("Isr"));   // null: unchanged
            }
            case "RemoveTopicRecord" -> {
                KafkaUuid id = (KafkaUuid) v.get("TopicId");
                String name = names.remove(id);
                partitions.remove(id);
                leaders.remove(id);
                isrs.remove(id);
                if (name != null) {
                    configs.remove(name);
                }
            }
            case "ConfigRecord" -> {
                if (((Number) v.get("ResourceType")).intValue() == TOPIC_RESOURCE) {
                    String topic = (String) v.get("ResourceName");
                    String value = (String) v.get("Value");
                    if (value == null) {
                        Map<String, String> c = configs.get(topic);
                        if (c != null) {
                            c.remove((String) v.get("Name"));
                        }
                    } else {
                        configs.computeIfAbsent(topic, x -> new TreeMap<>()).put((String) v.get("Name"), value);
                    }
                }
            }
            default -> {
            }
        }
    }

    private void putIsr(KafkaUuid id, int partition, Object isr) {
        if (isr instanceof List<?> l) {
            List<Integer> ids = new ArrayList<>(l.size());
            for (Object o : l) {
                ids.add(((Number) o).intValue());
            }
            isrs.computeIfAbsent(id, x -> new HashMap<>()).put(partition, List.copyOf(ids));
        }
    }

    /** The metadata records replayed. */
    public long records() {
        return records;
    }

    /** The topic of this name, if the metadata log knows it. */
    public Optional<Topic> topic(String name) {
        for (Map.Entry<KafkaUuid, String> e : names.entrySet()) {
            if (e.getValue().equals(name)) {
                return Optional.of(new Topic(name, e.getKey(), partitions.getOrDefault(e.getKey(), 0)));
            }
        }
        return Optional.empty();
    }

    /**
     * The last leader of a partition the metadata log recorded (when the last brokers shut down, the
     * partition is left with none: the one before), if it knows the topic and partition.
     */
    public java.util.OptionalInt leader(String topic, int partition) {
        Optional<Topic> t = topic(topic);
        if (t.isEmpty()) {
            return java.util.OptionalInt.empty();
        }
        Integer l = leaders.getOrDefault(t.get().id(), Map.of()).get(partition);
        return l == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(l);
    }

    /**
     * The last in-sync replica set the metadata log recorded for a partition (the brokers' node ids),
     * if it knows the topic and partition.
     */
    public Optional<List<Integer>> isr(String topic, int partition) {
        Optional<Topic> t = topic(topic);
        if (t.isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(isrs.getOrDefault(t.get().id(), Map.of()).get(partition));
    }

    /** The name of the topic with this id, if the metadata log knows it. */
    public Optional<String> name(KafkaUuid id) {
        return Optional.ofNullable(names.get(id));
    }

    /** The configs a topic was given (creation and since), by name; empty when none are known. */
    public Map<String, String> configs(String topic) {
        Map<String, String> c = configs.get(topic);
        return c == null ? Map.of() : java.util.Collections.unmodifiableMap(c);
    }

    /** Every topic, by name. */
    public Map<String, Topic> topics() {
        Map<String, Topic> out = new TreeMap<>();
        names.forEach((id, name) -> out.put(name, new Topic(name, id, partitions.getOrDefault(id, 0))));
        return out;
    }
}
