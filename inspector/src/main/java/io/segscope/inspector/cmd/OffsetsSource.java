package io.segscope.inspector.cmd;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Problem;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.Include;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.LogDir;
import io.segscope.format.state.MetaProperties;
import java.util.HashMap;
import java.util.Set;
import java.util.TreeSet;

import io.segscope.format.logdir.TopicPartitionName;
import io.segscope.format.replay.AsOf;
import io.segscope.format.replay.OffsetsReplay;
import io.segscope.format.replay.ReplayResult;
import io.segscope.format.replay.Replicas;
import io.segscope.inspector.input.Inputs;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code __consumer_offsets} partitions found under the PATHs of {@code offsets},
 * {@code groups} and {@code history}: for each partition one copy (several log dirs holding
 * replicas of it: the one {@link Replicas#choose} names, divergent copies reported on stderr), its
 * {@code .log} files in offset order.
 */
final class OffsetsSource implements AutoCloseable {
    static final String TOPIC = "__consumer_offsets";

    /** One partition: the chosen copy's dir and files. */
    record Part(int partition, String dir, List<LogFile> files) {
    }

    /** A partition replayed. */
    record Replayed(Part part, ReplayResult result) {
    }

    private final Inputs inputs;
    private final List<Part> parts = new ArrayList<>();
    private final String command;
    private boolean ioError;

    private OffsetsSource(String command, Inputs inputs) {
        this.command = command;
        this.inputs = inputs;
    }

    /** Resolves the PATHs; unreadable ones and replica divergence go to {@code err}. */
    static OffsetsSource open(String command, List<Path> paths, PrintWriter err) {
        OffsetsSource s = new OffsetsSource(command, Inputs.resolve(paths, Include.none(), EnumSet.of(FileKind.LOG)));
        try {
            s.collect(err);
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    private void collect(PrintWriter err) {
        ioError = reportUnreadable(inputs, err);
        // only log dirs of one cluster hold replicas of one another: copies are grouped by the
        // cluster id of their log dir's meta.properties (none known: one group)
        Map<String, String> clusterOfLogDir = new HashMap<>();
        for (LogDir d : inputs.logDirs()) {
            clusterOfLogDir.put(d.root().path(), clusterId(d));
        }
        Set<String> clusters = new TreeSet<>(clusterOfLogDir.values());
        if (clusters.size() > 1) {
            err.print(command + ": log dirs of " + clusters.size() + " clusters ("
                    + String.join(", ", clusters.stream().map(c -> c.isEmpty() ? "no cluster id" : c).toList())
                    + "): each cluster's partitions are read on their own, never as replicas of another's\n");
        }
        // (cluster, partition) -> dir -> files (a partition dir per log dir holding a replica)
        Map<String, Map<String, List<LogFile>>> found = new TreeMap<>();
        Map<String, Integer> partitionOf = new HashMap<>();
        for (LogFile f : inputs.files()) {
            if (f.kind() != FileKind.LOG || f.partition().isEmpty() || !TOPIC.equals(f.partition().get().topic())) {
                continue;
            }
            int p = f.partition().map(TopicPartitionName::partition).orElse(-1);
            String dir = f.file().parent() != null ? f.file().parent().path() : parentOf(f.path());
            String cluster = clusterOfLogDir.getOrDefault(parentOf(dir), "");
            String key = String.format("%s/%010d", cluster, p);
            partitionOf.put(key, p);
            found.computeIfAbsent(key, x -> new LinkedHashMap<>()).computeIfAbsent(dir, x -> new ArrayList<>()).add(f);
        }
        for (Map.Entry<String, Map<String, List<LogFile>>> e : found.entrySet()) {
            Map<String, List<LogFile>> copies = e.getValue();
            int partition = partitionOf.get(e.getKey());
            String chosen = copies.keySet().iterator().next();
            if (copies.size() > 1) {
                chosen = choose(partition, copies, err);
            }
            parts.add(new Part(partition, chosen, copies.get(chosen)));
        }
        parts.sort(java.util.Comparator.comparingInt(Part::partition));
    }

    /**
     * Prints the PATHs that could not be read, the archives cut short and the PATHs outside any
     * partition dir; true when there were any (exit 3).
     */
    static boolean reportUnreadable(Inputs inputs, PrintWriter err) {
        boolean any = false;
        for (FormatException e : inputs.unreadablePaths()) {
            err.print(e.getMessage() + "\n");
            any = true;
        }
        for (FormatException e : inputs.truncations()) {
            err.print(e.getMessage() + "\n");
            any = true;
        }
        for (FormatException e : inputs.outsidePartitions()) {
            err.print(e.getMessage() + "\n");
            any = true;
        }
        return any;
    }

    /** The cluster id a log dir's meta.properties names, or "" when it has none or it cannot be read. */
    private static String clusterId(LogDir dir) {
        return dir.metaProperties().map(f -> {
            try (io.segscope.format.io.ByteSource source = f.open()) {
                return MetaProperties.read(source).clusterId().orElse("");
            } catch (FormatException e) {
                return "";
            }
        }).orElse("");
    }

    private String choose(int partition, Map<String, List<LogFile>> copies, PrintWriter err) {
        List<Path> dirs = new ArrayList<>();
        for (String d : copies.keySet()) {
            Path p = Path.of(d);
            if (!Files.isDirectory(p)) {
                String first = copies.keySet().iterator().next();
                err.print(command + ": " + copies.size() + " copies of " + TOPIC + "-" + partition
                        + " (in an archive: not compared); reading " + first + "\n");
                return first;
            }
            dirs.add(p);
        }
        Replicas.Choice c = Replicas.choose(dirs);
        for (Replicas.Replica r : c.divergent()) {
            err.print(command + ": replica " + r.dir() + " differs from " + c.chosen().dir() + " (log end offset "
                    + r.logEndOffset() + " vs " + c.chosen().logEndOffset() + ", last leader epoch " + r.lastLeaderEpoch()
                    + " vs " + c.chosen().lastLeaderEpoch() + "); reading " + c.chosen().dir()
                    + ", the copy a new leader would have\n");
        }
        return c.chosen().dir().toString();
    }

    private static String parentOf(String path) {
        int i = path.lastIndexOf('/');
        return i < 0 ? "." : path.substring(0, i);
    }

    List<Part> parts() {
        return parts;
    }

    /** Whether a PATH could not be read (exit 3 at the end). */
    boolean ioError() {
        return ioError;
    }

    /** The highest partition found + 1 (a lower bound of the partition count), or 0. */
    int partitionsSeen() {
        return parts.isEmpty() ? 0 : parts.get(parts.size() - 1).partition() + 1;
    }

    /** Replays every partition up to {@code asOf}. */
    List<Replayed> replay(AsOf asOf) {
        List<Replayed> out = new ArrayList<>();
        for (Part p : parts) {
            out.add(replay(p, asOf));
        }
        return out;
    }

    /** Replays one partition up to {@code asOf}. */
    Replayed replay(Part p, AsOf asOf) {
        return new Replayed(p, OffsetsReplay.replay(p.files(), asOf));
    }

    /** Prints the replays' load problems on {@code err}; true when there were any. */
    boolean reportProblems(List<Replayed> replayed, PrintWriter err) {
        boolean any = false;
        for (Replayed r : replayed) {
            for (Problem p : r.result().problems()) {
                err.print(command + ": " + p.message() + "\n");
                any = true;
            }
        }
        return any;
    }

    @Override
    public void close() {
        inputs.close();
    }
}
