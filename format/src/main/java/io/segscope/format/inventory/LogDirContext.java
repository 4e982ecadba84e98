package io.segscope.format.inventory;

import io.segscope.format.error.FormatException;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.LogDir;
import io.segscope.format.state.CleanShutdown;
import io.segscope.format.state.MetaProperties;
import io.segscope.format.state.OffsetCheckpoint;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What a broker log dir's root files say about its partitions, read once per log dir: the broker
 * ({@code meta.properties}), whether it shut down cleanly, and the four offset checkpoints
 * (docs/format.md 1.8). A partition dir given on its own has {@link #NONE}: nothing is known.
 *
 * @param path the log dir ("" for none)
 * @param meta its {@code meta.properties}, when readable
 * @param cleanShutdown true or false when the log dir is known, null for a partition dir on its own
 * @param checkpoints file name → ("topic-partition" → offset), for the checkpoint files present
 * @param problems root files that could not be read
 */
public record LogDirContext(String path, Optional<MetaProperties> meta, Boolean cleanShutdown,
                            Map<String, Map<String, Long>> checkpoints, List<FormatException> problems) {

    /** A partition dir with no log dir around it. */
    public static final LogDirContext NONE = new LogDirContext("", Optional.empty(), null, Map.of(), List.of());

    /** Reads a log dir's root files (errors are kept, not thrown). */
    public static LogDirContext read(LogDir dir) {
        List<FormatException> problems = new ArrayList<>();
        Optional<MetaProperties> meta = Optional.empty();
        Optional<FileEntry> mp = dir.metaProperties();
        if (mp.isPresent()) {
            try (ByteSource s = mp.get().open()) {
                meta = Optional.of(MetaProperties.read(s));
            } catch (FormatException e) {
                problems.add(e);
            }
        }
        Boolean clean = dir.cleanShutdown().isPresent();
        if (clean) {
            try (ByteSource s = dir.cleanShutdown().get().open()) {
                CleanShutdown.read(s);
            } catch (FormatException e) {
                problems.add(e);   // Kafka still takes the file's presence as a clean shutdown
            }
        }
        Map<String, Map<String, Long>> checkpoints = new java.util.HashMap<>();
        for (String name : OffsetCheckpoint.FILE_NAMES) {
            Optional<FileEntry> f = dir.file(name);
            if (f.isEmpty()) {
                continue;
            }
            try (ByteSource s = f.get().open()) {
                checkpoints.put(name, OffsetCheckpoint.toMap(OffsetCheckpoint.read(s)));
            } catch (FormatException e) {
                problems.add(e);
            }
        }
        return new LogDirContext(dir.root().path(), meta, clean, Map.copyOf(checkpoints), List.copyOf(problems));
    }

    /** Whether the log dir holds the checkpoint file {@code name} (readable). */
    public boolean has(String checkpoint) {
        return checkpoints.containsKey(checkpoint);
    }

    /** The entry of {@code topicPartition} ("topic-partition") in {@code checkpoint}, if any. */
    public OptionalLong offset(String checkpoint, String topicPartition) {
        Map<String, Long> m = checkpoints.get(checkpoint);
        Long v = m == null ? null : m.get(topicPartition);
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    /** The broker's node id ({@code node.id}, or {@code broker.id} in ZooKeeper mode). */
    public OptionalInt brokerId() {
        return meta.map(MetaProperties::nodeId).orElse(OptionalInt.empty());
    }

    public Optional<String> clusterId() {
        return meta.flatMap(MetaProperties::clusterId);
    }

    public Optional<String> directoryId() {
        return meta.flatMap(MetaProperties::directoryId).map(Object::toString);
    }
}
