package io.segscope.format.logdir;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the Kafka data under what a person names (docs/format.md 1.1): a broker log dir, a
 * partition dir, one file, or a directory (or archive tree) holding those a few levels down, and
 * hands it to a {@link Visitor} in one order for every command: log dirs with their root files,
 * then their partition dirs sorted by topic, partition number and status; segments by base offset.
 * Every file is classified by {@link LogFile#classify}.
 *
 * <pre>
 * new LogScanner(Include.none()).scan(FileEntry.of(Path.of("/var/lib/kafka/data")), visitor);
 * </pre>
 */
public final class LogScanner {
    /** How many directory levels below a named directory are searched for log or partition dirs. */
    private static final int MAX_SEARCH_DEPTH = 4;

    private static final Comparator<PartitionDir> PARTITION_ORDER = Comparator.comparing(PartitionDir::topic)
            .thenComparingInt(PartitionDir::partition).thenComparing(p -> p.name().status());

    /** What the scan found, in order. */
    public interface Visitor {
        /**
         * A broker log dir, before its partitions.
         *
         * @param rootFiles the files at its root, classified, in name order
         */
        default void beginLogDir(LogDir dir, List<LogFile> rootFiles) {
        }

        /**
         * A partition dir, of a log dir or named on its own.
         *
         * @param segments its files grouped by {@code include}
         * @param otherFiles its files that are not segment or snapshot files, classified
         * @param cleanShutdown whether its log dir has a clean-shutdown marker; null when not known
         */
        void partition(PartitionDir partition, SegmentSet segments, List<LogFile> otherFiles, Boolean cleanShutdown);

        default void endLogDir(LogDir dir) {
        }

        /**
         * A file named on its own.
         *
         * @param segment for a live {@code .log} on the file system, the segment it belongs to with
         *     the index files beside it; else null
         */
        void file(LogFile file, Segment segment);

        /** Something the scan noticed about what it was given (a directory read in an unusual way). */
        default void note(FormatException note) {
        }

        /**
         * What the search passed over on its way to the Kafka data: files beside the log or
         * partition dirs found (a README, notes) and directories holding none (a {@code dumps/}
         * folder of text files), one call per such directory. Called after the data, and only
         * when some was found.
         */
        default void ignored(FileEntry entry) {
        }
    }

    /**
     * Says what a file named on its own is when its name does not (content sniffing, or the kind a
     * person gave with {@code --as}); files found in directories keep the kind their name gives.
     */
    @FunctionalInterface
    public interface KindResolver {
        LogFile resolve(LogFile file);

        KindResolver BY_NAME = f -> f;
    }

    private final Set<Include> include;
    private final KindResolver resolver;
    private final Comparator<PartitionDir> order;
    private final Comparator<FileEntry> searchOrder;

    /** @param include the transient partition dirs and segment files to list besides the live ones */
    public LogScanner(Set<Include> include) {
        this(include, KindResolver.BY_NAME);
    }

    /**
     * @param include the transient partition dirs and segment files to list besides the live ones
     * @param resolver what files named on their own are
     */
    public LogScanner(Set<Include> include, KindResolver resolver) {
        this(include, resolver, PARTITION_ORDER, null);
    }

    private LogScanner(Set<Include> include, KindResolver resolver, Comparator<PartitionDir> order,
                       Comparator<FileEntry> searchOrder) {
        this.include = include;
        this.resolver = resolver;
        this.order = order;
        this.searchOrder = searchOrder;
    }

    /**
     * A scanner visiting the directories it searches and the partitions of a log dir in
     * {@code order} (of their directory entries) instead of by name, topic and partition: a reader
     * of a stream (a compressed tar) visits them in the order the stream holds them. Segments of
     * a partition stay in base-offset order.
     */
    public LogScanner withOrder(Comparator<FileEntry> order) {
        return new LogScanner(include, resolver, Comparator.comparing(PartitionDir::dir, order).thenComparing(PARTITION_ORDER),
                order);
    }

    /**
     * Scans a path of the file system.
     *
     * @return false when nothing Kafka-like was found there
     */
    public boolean scan(Path path, Visitor visitor) {
        if (Files.isRegularFile(path)) {
            Path parent = path.toAbsolutePath().getParent();
            Optional<TopicPartitionName> parentName = parent == null || parent.getFileName() == null
                    ? Optional.empty() : TopicPartitionName.tryParse(parent.getFileName().toString());
            LogFile f = resolver.resolve(LogFile.classify(FileEntry.of(path), parentName));
            boolean named = SegmentFileName.parse(f.file().name()).isPresent();
            visitor.file(f, named && f.kind() == FileKind.LOG && f.status() == FileStatus.LIVE
                    ? siblings(path, f.baseOffset()) : null);
            return true;
        }
        return scan(FileEntry.of(path), visitor);
    }

    /**
     * Scans an entry of any tree (the file system, an archive).
     *
     * @return false when nothing Kafka-like was found there
     */
    public boolean scan(FileEntry entry, Visitor visitor) {
        if (!entry.isDirectory()) {
            FileEntry parent = entry.parent();
            Optional<TopicPartitionName> parentName = parent == null ? Optional.empty()
                    : TopicPartitionName.tryParse(parent.name());
            LogFile f = resolver.resolve(LogFile.classify(entry, parentName));
            boolean named = SegmentFileName.parse(entry.name()).isPresent();
            visitor.file(f, parent != null && named && f.kind() == FileKind.LOG && f.status() == FileStatus.LIVE
                    ? siblings(parent, entry, f.baseOffset()) : null);
            return true;
        }
        List<FileEntry> ignored = new ArrayList<>();
        boolean found = scan(entry, visitor, 0, ignored);
        if (found) {
            for (FileEntry e : ignored) {
                visitor.ignored(e);
            }
        }
        return found;
    }

    private boolean scan(FileEntry entry, Visitor visitor, int depth, List<FileEntry> ignored) {
        switch (InputKind.detect(entry)) {
            case FILE -> {
                visitor.file(resolver.resolve(LogFile.classify(entry, Optional.empty())), null);
                return true;
            }
            case LOG_DIR -> {
                scanLogDir(new LogDir(entry), visitor);
                return true;
            }
            case PARTITION_DIR -> {
                scanPartition(PartitionDir.of(entry), null, visitor);
                return true;
            }
            default -> {
                if (depth == 0 && holdsSegments(entry)) {
                    // segments copied into a directory not named <topic>-<partition>: still one partition
                    visitor.note(FormatException.at(Violation.NAME_FORMAT, entry.path(), FormatException.UNKNOWN)
                            .note("not named <topic>-<partition>: its segments are read as one partition of an unknown"
                                    + " topic (give --decoder to decode a coordinator topic's records)").build());
                    scanPartition(new PartitionDir(entry, TopicPartitionName.loose(entry.name())), null, visitor);
                    return true;
                }
                if (depth >= MAX_SEARCH_DEPTH) {
                    return false;
                }
                boolean found = false;
                List<FileEntry> children = entry.children();
                if (searchOrder != null) {
                    children = new ArrayList<>(children);
                    children.sort(searchOrder);
                }
                for (FileEntry child : children) {
                    if (child.isDirectory()) {
                        List<FileEntry> below = new ArrayList<>();
                        if (scan(child, visitor, depth + 1, below)) {
                            found = true;
                            ignored.addAll(below);
                        } else {
                            ignored.add(child);
                        }
                    } else {
                        ignored.add(child);
                    }
                }
                return found;
            }
        }
    }

    private void scanLogDir(LogDir dir, Visitor visitor) {
        List<LogFile> rootFiles = new ArrayList<>();
        for (FileEntry e : dir.root().children()) {
            if (!e.isDirectory()) {
                rootFiles.add(LogFile.classify(e, Optional.empty()));
            }
        }
        visitor.beginLogDir(dir, List.copyOf(rootFiles));
        Boolean clean = dir.cleanShutdown().isPresent();
        List<PartitionDir> partitions = new ArrayList<>(dir.partitions(include));
        partitions.sort(order);
        for (PartitionDir p : partitions) {
            scanPartition(p, clean, visitor);
        }
        visitor.endLogDir(dir);
    }

    private void scanPartition(PartitionDir p, Boolean cleanShutdown, Visitor visitor) {
        SegmentSet set = p.segments(include);
        List<LogFile> others = new ArrayList<>();
        for (FileEntry e : set.otherFiles()) {
            if (!e.isDirectory()) {
                others.add(LogFile.classify(e, p.name().isLoose() ? Optional.empty() : Optional.of(p.name())));
            }
        }
        visitor.partition(p, set, List.copyOf(others), cleanShutdown);
    }

    private static boolean holdsSegments(FileEntry dir) {
        for (FileEntry child : dir.children()) {
            if (!child.isDirectory() && SegmentFileName.parse(child.name()).isPresent()) {
                return true;
            }
        }
        return false;
    }

    /** The segment of a {@code .log} entry named on its own, with the index entries beside it. */
    private static Segment siblings(FileEntry dir, FileEntry log, long base) {
        Segment s = new Segment(base, FileStatus.LIVE);
        s.put(FileKind.LOG, log);
        for (FileKind k : new FileKind[]{FileKind.INDEX, FileKind.TIME_INDEX, FileKind.TXN_INDEX}) {
            String name = SegmentFileName.prefix(base) + k.suffix();
            for (FileEntry e : dir.children()) {
                if (!e.isDirectory() && e.name().equals(name)) {
                    s.put(k, e);
                }
            }
        }
        return s;
    }

    /** The segment of a {@code .log} named on its own, with the index files beside it. */
    private static Segment siblings(Path log, long base) {
        Segment s = new Segment(base, FileStatus.LIVE);
        s.put(FileKind.LOG, FileEntry.of(log));
        for (FileKind k : new FileKind[]{FileKind.INDEX, FileKind.TIME_INDEX, FileKind.TXN_INDEX}) {
            Path f = log.resolveSibling(SegmentFileName.prefix(base) + k.suffix());
            if (Files.isRegularFile(f)) {
                s.put(k, FileEntry.of(f));
            }
        }
        return s;
    }
}
