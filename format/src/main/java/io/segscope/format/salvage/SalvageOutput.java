package io.segscope.format.salvage;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.error.FormatException;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.Copies;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.state.MetaProperties;
import io.segscope.format.state.OffsetCheckpoint;
import io.segscope.format.state.StateFileWriter;
import io.segscope.format.state.TopicPartitionOffset;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The output directory of a salvage (docs/salvage.md): built under a temporary name beside it and
 * renamed into place by {@link #finish()}, so that an interrupted run leaves nothing under the final
 * name; an existing output is refused unless it is to be replaced. The salvaged partitions of one
 * input log dir form one output log dir: the output itself when they all come from one log dir (or
 * are partition dirs named on their own), else one sub-directory per input log dir. Each output log
 * dir gets the input's {@code meta.properties} and offset checkpoints made consistent with the
 * copies: recovery point at the log end offset (everything kept was checked and synced), log start
 * offset and high watermark at most the log end offset, a cleaner checkpoint only while it lies in
 * the log. {@code salvage-report.jsonl} at the output's root lists each partition, what was kept and
 * every byte and offset range lost.
 */
public final class SalvageOutput implements Closeable {
    /** The report's file name. */
    public static final String REPORT = "salvage-report.jsonl";

    private final Path outDir;
    private final boolean replace;
    private final Collection<Path> inputs;
    private final Path container;
    private final Map<String, Group> groups = new LinkedHashMap<>();
    private final Set<String> seen = new HashSet<>();
    /** The group of each partition salvaged, in order. */
    private final List<Group> order = new ArrayList<>();

    /** The salvaged partitions of one input log dir. */
    private static final class Group {
        final FileEntry logDir;
        final String inputPath;
        final Path work;
        final List<SalvagedPartition> partitions = new ArrayList<>();
        final List<String> sources = new ArrayList<>();
        String name;

        Group(FileEntry logDir, String inputPath, Path work) {
            this.logDir = logDir;
            this.inputPath = inputPath;
            this.work = work;
        }
    }

    private SalvageOutput(Path outDir, boolean replace, Collection<Path> inputs, Path container) {
        this.outDir = outDir;
        this.replace = replace;
        this.inputs = inputs;
        this.container = container;
    }

    /**
     * Starts an output at {@code outDir}.
     *
     * @param replace replace an existing {@code outDir}, when it is an earlier salvage output (it
     *     holds {@value #REPORT}) or an empty dir (else it is refused)
     * @param inputs the paths being read: the output must not be one of them or inside one
     * @throws FileAlreadyExistsException when {@code outDir} exists and is not to be replaced, or
     *     cannot be (its reason says why)
     * @throws IllegalArgumentException when {@code outDir} is inside an input
     */
    public static SalvageOutput open(Path outDir, boolean replace, Collection<Path> inputs) throws IOException {
        Path abs = outDir.toAbsolutePath().normalize();
        if (!replace && Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(outDir.toString(), null, "the output exists already");
        }
        if (replace && Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) {
            // replacing deletes what is there: only an earlier salvage output or an empty dir, never a
            // device, a file or someone's dir named by mistake (--salvage /dev/full --force, ~ --force)
            if (!Files.isDirectory(abs, LinkOption.NOFOLLOW_LINKS)) {
                throw new FileAlreadyExistsException(outDir.toString(), null,
                        "it is not a directory: --force replaces only an earlier salvage output (or an empty dir)");
            }
            boolean empty;
            try (java.util.stream.Stream<Path> s = Files.list(abs)) {
                empty = s.findAny().isEmpty();
            }
            if (!empty && !Files.isRegularFile(abs.resolve(REPORT), LinkOption.NOFOLLOW_LINKS)) {
                throw new FileAlreadyExistsException(outDir.toString(), null, "it holds no " + REPORT
                        + ": --force replaces only an earlier salvage output (or an empty dir)");
            }
        }
        Path parent = abs.getParent();
        if (Files.exists(parent) && !Files.isDirectory(parent)) {
            throw new java.nio.file.NotDirectoryException(parent.toString());
        }
        Files.createDirectories(parent);
        Path realParent = parent.toRealPath();
        for (Path in : inputs) {
            if (!Files.exists(in)) {
                continue;
            }
            Path inReal = in.toRealPath();
            Path target = realParent.resolve(abs.getFileName());
            if (target.startsWith(inReal) || inReal.startsWith(target)) {
                throw new IllegalArgumentException("the output " + outDir + " must not be inside an input, nor hold one ("
                        + in + ")");
            }
        }
        Path container = Files.createTempDirectory(realParent, "." + abs.getFileName() + ".salvage-");
        return new SalvageOutput(realParent.resolve(abs.getFileName()), replace, inputs, container);
    }

    /** The final path. */
    public Path outDir() {
        return outDir;
    }

    /**
     * Salvages a partition into the output log dir of its input log dir.
     *
     * @param logDir the log dir holding the partition (for its checkpoints and meta.properties), or
     *     null for a partition dir named on its own
     * @return the result, or null when this partition was salvaged already (named twice)
     */
    public SalvagedPartition salvage(Salvager salvager, PartitionDir partition, FileEntry logDir) throws IOException {
        if (!seen.add(partition.dir().path())) {
            return null;
        }
        String key = logDir == null ? "" : logDir.path();
        Group g = groups.get(key);
        if (g == null) {
            Path work = container.resolve(Integer.toString(groups.size()));
            Files.createDirectory(work);
            g = new Group(logDir, key, work);
            groups.put(key, g);
        }
        if (Files.exists(g.work.resolve(partition.dir().name()), LinkOption.NOFOLLOW_LINKS)) {
            // two partition dirs named on their own with the same name: a group of its own
            Path work = container.resolve(Integer.toString(groups.size()));
            Files.createDirectory(work);
            g = new Group(null, partition.dir().path(), work);
            groups.put(partition.dir().path(), g);
        }
        SalvagedPartition p;
        boolean ok = false;
        try {
            p = salvager.salvage(partition, g.work, inputs);
            ok = true;
        } finally {
            if (!ok) {
                deleteTree(g.work.resolve(partition.dir().name()));   // no partial copy under any name
            }
        }
        g.partitions.add(p);
        g.sources.add(partition.dir().path());
        order.add(g);
        return p;
    }

    /**
     * Writes the checkpoints and the report and renames the output into place.
     *
     * @return the final path of each salvaged partition's copy, in the order salvaged
     */
    public List<Path> finish() throws IOException {
        List<Group> list = new ArrayList<>(groups.values());
        if (list.isEmpty()) {
            Path empty = container.resolve("0");
            Files.createDirectory(empty);
            list.add(new Group(null, "", empty));
        }
        Set<String> names = new HashSet<>();
        for (Group g : list) {
            if (list.size() == 1) {
                g.name = "";
            } else {
                String base = g.logDir != null ? g.logDir.name() : "partitions";
                String n = base;
                for (int i = 2; !names.add(n); i++) {
                    n = base + "-" + i;
                }
                g.name = n;
            }
            checkpoints(g);
        }
        Path tree;
        if (list.size() == 1) {
            tree = list.get(0).work;
        } else {
            tree = container.resolve("out");
            Files.createDirectory(tree);
            for (Group g : list) {
                Files.move(g.work, tree.resolve(g.name), StandardCopyOption.ATOMIC_MOVE);
            }
        }
        StateFileWriter.write(tree.resolve(REPORT), report(list));
        if (replace && Files.exists(outDir, LinkOption.NOFOLLOW_LINKS)) {
            Path old = container.resolve("replaced");
            Files.move(outDir, old, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(tree, outDir, StandardCopyOption.ATOMIC_MOVE);
        deleteTree(container);
        List<Path> out = new ArrayList<>();
        int[] next = new int[list.size()];
        for (Group g : order) {
            SalvagedPartition p = g.partitions.get(next[list.indexOf(g)]++);
            out.add((g.name.isEmpty() ? outDir : outDir.resolve(g.name)).resolve(p.dir().getFileName()));
        }
        return out;
    }

    /** Deletes the temporary tree unless {@link #finish()} renamed it into place. */
    @Override
    public void close() throws IOException {
        deleteTree(container);
    }

    /** meta.properties and the four offset checkpoints of one output log dir. */
    private static void checkpoints(Group g) throws IOException {
        Map<String, Long> recovery = new LinkedHashMap<>();
        for (SalvagedPartition p : g.partitions) {
            if (inCheckpoints(p)) {
                recovery.put(p.name(), p.logEndOffset());
            }
        }
        Map<String, Map<String, Long>> in = new LinkedHashMap<>();
        if (g.logDir != null) {
            for (FileEntry f : g.logDir.children()) {
                if (f.isDirectory()) {
                    continue;
                }
                if (OffsetCheckpoint.FILE_NAMES.contains(f.name())) {
                    try (ByteSource s = f.open()) {
                        in.put(f.name(), OffsetCheckpoint.toMap(OffsetCheckpoint.read(s)));
                    } catch (FormatException e) {
                        in.put(f.name(), Map.of());   // unreadable: only what the copies give
                    }
                } else if (f.name().equals(MetaProperties.FILE_NAME)) {
                    Copies.copy(f, g.work.resolve(f.name()), false);
                }
            }
        }
        write(g, OffsetCheckpoint.RECOVERY_POINT, recovery);
        for (String file : List.of(OffsetCheckpoint.LOG_START_OFFSET, OffsetCheckpoint.REPLICATION_OFFSET,
                OffsetCheckpoint.CLEANER_OFFSET)) {
            Map<String, Long> old = in.get(file);
            if (old == null) {
                continue;
            }
            Map<String, Long> out = new LinkedHashMap<>();
            for (SalvagedPartition p : g.partitions) {
                Long v = old.get(p.name());
                if (v == null || !inCheckpoints(p)) {
                    continue;
                }
                long start = p.segments().isEmpty() ? 0 : p.segments().get(0).baseOffset();
                switch (file) {
                    case OffsetCheckpoint.CLEANER_OFFSET -> {
                        if (v >= start && v <= p.logEndOffset()) {
                            out.put(p.name(), v);
                        }
                    }
                    default -> out.put(p.name(), Math.min(v, p.logEndOffset()));
                }
            }
            write(g, file, out);
        }
    }

    /**
     * Whether the log dir's offset checkpoints name the partition: not a loose dir, and not the KRaft
     * metadata log, which the raft layer loads and Kafka's log manager does not checkpoint.
     */
    private static boolean inCheckpoints(SalvagedPartition p) {
        return p.partition() >= 0 && !p.topic().equals(io.segscope.format.logdir.TopicPartitionName.METADATA_TOPIC);
    }

    private static void write(Group g, String file, Map<String, Long> entries) throws IOException {
        List<TopicPartitionOffset> list = new ArrayList<>();
        for (SalvagedPartition p : g.partitions) {
            Long v = entries.get(p.name());
            if (v != null) {
                list.add(new TopicPartitionOffset(p.topic(), p.partition(), v, -1));
            }
        }
        StateFileWriter.write(g.work.resolve(file), StateFileWriter.offsetCheckpoint(list));
    }

    private static byte[] report(List<Group> groups) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator j = new JsonFactory().createGenerator(bytes)) {
            j.setRootValueSeparator(null);
            for (Group g : groups) {
                for (int i = 0; i < g.partitions.size(); i++) {
                    SalvagedPartition p = g.partitions.get(i);
                    j.writeStartObject();
                    j.writeStringField("partition", p.name());
                    j.writeStringField("source", g.sources.get(i));
                    j.writeStringField("dir", g.name.isEmpty() ? p.dir().getFileName().toString()
                            : g.name + "/" + p.dir().getFileName());
                    j.writeNumberField("segments", p.segments().size());
                    j.writeNumberField("keptBatches", p.keptBatches());
                    j.writeNumberField("keptBytes", p.keptBytes());
                    j.writeFieldName("firstOffset");
                    number(j, p.firstOffset());
                    j.writeNumberField("logEndOffset", p.logEndOffset());
                    j.writeNumberField("producers", p.producers());
                    j.writeNumberField("lostBytes", p.lostBytes());
                    j.writeArrayFieldStart("losses");
                    for (Loss l : p.losses()) {
                        j.writeStartObject();
                        j.writeStringField("file", l.file());
                        j.writeArrayFieldStart("bytes");
                        j.writeNumber(l.fromByte());
                        j.writeNumber(l.toByte());
                        j.writeEndArray();
                        j.writeFieldName("offsets");
                        if (l.firstOffset() < 0) {
                            j.writeNull();
                        } else {
                            j.writeStartArray();
                            j.writeNumber(l.firstOffset());
                            number(j, l.lastOffset());
                            j.writeEndArray();
                        }
                        j.writeStringField("kind", l.kind());
                        j.writeStringField("reason", l.reason());
                        j.writeEndObject();
                    }
                    j.writeEndArray();
                    j.writeArrayFieldStart("leftOut");
                    for (String s : p.leftOut()) {
                        j.writeString(s);
                    }
                    j.writeEndArray();
                    j.writeEndObject();
                    j.writeRaw('\n');
                }
            }
        }
        return bytes.toByteArray();
    }

    private static void number(JsonGenerator j, long v) throws IOException {
        if (v < 0) {
            j.writeNull();
        } else {
            j.writeNumber(v);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        Copies.deleteTree(root);
    }
}
