package io.segscope.inspector.cmd;

import io.segscope.format.error.FormatException;
import io.segscope.format.inventory.LogDirContext;
import io.segscope.format.inventory.MetadataTopics;
import io.segscope.format.inventory.PartitionReplicas;
import io.segscope.format.inventory.ReplicaScanner;
import io.segscope.format.inventory.ReplicaState;
import io.segscope.format.inventory.TransactionCoordinatorState;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.Include;
import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.logdir.TopicPartitionName;
import io.segscope.format.record.ReaderOptions;
import io.segscope.inspector.input.Inputs;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The partition replicas under the PATHs of {@code partitions}, {@code lag} and {@code transactions}:
 * every partition dir of every log dir given (each with its log dir's checkpoints and broker), and
 * partition dirs given on their own; the topics of the first KRaft metadata log found; the
 * replicas of each partition side by side ({@link PartitionReplicas}).
 */
final class InventorySource implements AutoCloseable {
    /** One partition dir and the log dir around it. */
    record Dir(PartitionDir dir, LogDirContext context) {
    }

    private final Inputs inputs;
    private final List<Dir> dirs = new ArrayList<>();
    private final String command;
    private MetadataTopics metadata;
    private boolean ioError;

    private InventorySource(String command, Inputs inputs) {
        this.command = command;
        this.inputs = inputs;
    }

    static InventorySource open(String command, List<Path> paths, PrintWriter err) {
        InventorySource s = new InventorySource(command, Inputs.resolve(paths, Include.none(), EnumSet.allOf(FileKind.class)));
        try {
            s.collect(err);
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    private void collect(PrintWriter err) {
        ioError = OffsetsSource.reportUnreadable(inputs, err);
        Set<String> seen = new HashSet<>();
        for (LogDir d : inputs.logDirs()) {
            LogDirContext ctx = LogDirContext.read(d);
            for (FormatException e : ctx.problems()) {
                err.print(command + ": " + e.getMessage() + "\n");
            }
            for (PartitionDir p : d.partitions()) {
                if (seen.add(p.dir().path())) {
                    dirs.add(new Dir(p, ctx));
                }
            }
        }
        // partition dirs given on their own (or files named on their own: their dir)
        Map<String, FileEntry> loose = new LinkedHashMap<>();
        for (LogFile f : inputs.files()) {
            FileEntry parent = f.file().parent();
            if (parent != null && f.partition().isPresent() && !seen.contains(parent.path())
                    && TopicPartitionName.tryParse(parent.name()).isPresent()) {
                loose.putIfAbsent(parent.path(), parent);
            }
        }
        for (FileEntry e : loose.values()) {
            seen.add(e.path());
            dirs.add(new Dir(PartitionDir.of(e), LogDirContext.NONE));
        }
        // the KRaft metadata log: topic ids, names, configs and leaders; of several brokers' copies,
        // the one holding the most records (a broker that stopped early has an older view)
        Map<String, List<LogFile>> metaDirs = new LinkedHashMap<>();
        for (LogFile f : inputs.files()) {
            if (f.isMetadataLog() && (f.kind() == FileKind.LOG || f.kind() == FileKind.KRAFT_SNAPSHOT)) {
                String parent = f.file().parent() == null ? "" : f.file().parent().path();
                metaDirs.computeIfAbsent(parent, k -> new ArrayList<>()).add(f);
            }
        }
        for (List<LogFile> meta : metaDirs.values()) {
            try {
                MetadataTopics m = MetadataTopics.replay(meta);
                if (metadata == null || m.records() > metadata.records()) {
                    metadata = m;
                }
            } catch (FormatException e) {
                err.print(command + ": the metadata log could not be read: " + e.getMessage() + "\n");
            }
        }
    }

    List<Dir> dirs() {
        return dirs;
    }

    /** The partition dir a replica was read from. */
    PartitionDir dirOf(ReplicaState r) {
        for (Dir d : dirs) {
            if (d.dir().dir().path().equals(r.dir())) {
                return d.dir();
            }
        }
        return null;
    }

    MetadataTopics metadata() {
        return metadata;
    }

    boolean ioError() {
        return ioError;
    }

    /** Reads every replica whose topic {@code topics} accepts, and groups them by partition (sorted by topic, partition). */
    List<PartitionReplicas> scan(boolean deep, ReaderOptions options, Predicate<String> topics) {
        ReplicaScanner scanner = new ReplicaScanner(options, deep);
        // by topic, then cluster id, then partition number
        Map<String, List<ReplicaState>> byPartition = new TreeMap<>((a, b) -> {
            int i = a.lastIndexOf('\u0000');
            int j = b.lastIndexOf('\u0000');
            int c = a.substring(0, i).compareTo(b.substring(0, j));
            return c != 0 ? c : Integer.compare(Integer.parseInt(a.substring(i + 1)), Integer.parseInt(b.substring(j + 1)));
        });
        for (Dir d : dirs) {
            if (!topics.test(d.dir().topic())) {
                continue;
            }
            ReplicaState s = scanner.scan(d.dir(), d.context(), metadata);
            // only log dirs of one cluster hold replicas of one another (no cluster id known: one group)
            byPartition.computeIfAbsent(s.topic() + '\u0000' + s.clusterId().orElse("") + '\u0000' + s.partition(),
                    k -> new ArrayList<>()).add(s);
        }
        List<PartitionReplicas> out = new ArrayList<>();
        for (List<ReplicaState> rs : byPartition.values()) {
            ReplicaState first = rs.get(0);
            out.add(PartitionReplicas.of(rs, metadata == null ? java.util.OptionalInt.empty()
                    : metadata.leader(first.topic(), first.partition())));
        }
        return out;
    }

    /** The {@code .log} files of each {@code __transaction_state} partition (the first copy found). */
    TransactionCoordinatorState transactionState(ReaderOptions options) {
        Map<Integer, List<LogFile>> parts = new TreeMap<>();
        Map<Integer, String> dirOf = new TreeMap<>();
        for (LogFile f : inputs.files()) {
            if (f.kind() != FileKind.LOG || f.partition().isEmpty() || !"__transaction_state".equals(f.partition().get().topic())) {
                continue;
            }
            int p = f.partition().get().partition();
            String dir = f.file().parent() == null ? "" : f.file().parent().path();
            if (dirOf.putIfAbsent(p, dir) == null || dirOf.get(p).equals(dir)) {
                parts.computeIfAbsent(p, k -> new ArrayList<>()).add(f);
            }
        }
        return parts.isEmpty() ? TransactionCoordinatorState.none() : TransactionCoordinatorState.replay(parts, options);
    }

    @Override
    public void close() {
        inputs.close();
    }
}
