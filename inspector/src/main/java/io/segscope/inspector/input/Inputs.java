package io.segscope.inspector.input;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.FileListing;
import io.segscope.format.logdir.Include;
import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.LogScanner;
import io.segscope.format.logdir.StreamEntry;
import io.segscope.format.walk.ContentSniffer;

import io.segscope.format.logdir.FileEntry;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.walk.TransactionOutcomes;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Turns the PATHs a person gives into the files to read, through the library's
 * {@link LogScanner}: a segment or side file, a partition dir, a whole broker log dir, several of
 * them, or an archive holding any of these (read in place). Partitions come sorted by topic and
 * partition (in a compressed tar: in archive order, so that it is read in one forward pass),
 * segments by base offset.
 */
public final class Inputs implements AutoCloseable {
    private final List<PathArgument> archives = new ArrayList<>();
    private final List<FormatException> unreadable = new ArrayList<>();
    private final List<FormatException> outsidePartitions = new ArrayList<>();
    private final FileListing listing;
    private final LogScanner scanner;
    private final ReaderOptions markers;

    private Inputs(Set<Include> include, Set<FileKind> kinds, FileKind as, ReaderOptions markers) {
        this.listing = new FileListing(kinds);
        this.scanner = new LogScanner(include, ContentSniffer.resolver(as));
        this.markers = markers;
    }

    /**
     * @param include transient files and dirs to read besides the live ones
     * @param kinds the kinds of file wanted from directories (a file named on the command line is
     *     always taken)
     */
    public static Inputs resolve(List<Path> paths, Set<Include> include, Set<FileKind> kinds) {
        return resolve(paths, include, kinds, null);
    }

    /**
     * @param as what every file named on its own is, whatever its name and content say; null: by
     *     name, else by content ({@code -} is standard input, read as record batches by default)
     */
    public static Inputs resolve(List<Path> paths, Set<Include> include, Set<FileKind> kinds, FileKind as) {
        return resolve(paths, include, kinds, as, null);
    }

    /**
     * @param markers when transactions are to be told, the options records are read with: a
     *     compressed tar then reads its segments' transaction markers in its listing pass
     *     ({@link #transactionOutcomes}), so that no partition is read twice
     */
    public static Inputs resolve(List<Path> paths, Set<Include> include, Set<FileKind> kinds, FileKind as,
                                 ReaderOptions markers) {
        Inputs inputs = new Inputs(include, kinds, as, markers);
        try {
            for (Path p : paths) {
                inputs.add(p);
            }
        } catch (RuntimeException e) {
            inputs.close();
            throw e;
        }
        return inputs;
    }

    /**
     * The transaction outcomes of one partition's {@code .log} files, when an archive read their
     * markers in its listing pass; null otherwise (the walk pre-scans them).
     */
    public TransactionOutcomes transactionOutcomes(List<LogFile> logs) {
        for (PathArgument a : archives) {
            TransactionOutcomes t = a.tree().transactionOutcomes(logs);
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    /** How many times the archives' forward streams started over (for tests and measurements). */
    public int archiveRestarts() {
        int n = 0;
        for (PathArgument a : archives) {
            n += a.tree().restarts();
        }
        return n;
    }

    public List<LogFile> files() {
        return listing.files();
    }

    /** The broker log dirs found (for commands that read their checkpoints). */
    public List<LogDir> logDirs() {
        return listing.logDirs();
    }

    /** Names that look like Kafka files but do not parse, orphan index files, and the like. */
    public List<FormatException> problems() {
        return listing.problems();
    }

    /**
     * The paths that could not be read at all (missing, unreadable, nothing Kafka-like there): the
     * others are read, and the command exits 3 at the end.
     */
    public List<FormatException> unreadablePaths() {
        return unreadable;
    }

    /**
     * The PATHs that hold Kafka files outside any {@code <topic>-<partition>} dir (a file named on
     * its own in another dir, segments in a dir of another name, a file that is not Kafka's): no
     * topic or partition is known for them. {@code dump} and {@code verify} read them all the same;
     * the commands that work per partition (offsets, partitions, compat, ...) can read nothing of
     * them and say so.
     */
    public List<FormatException> outsidePartitions() {
        return outsidePartitions;
    }

    /**
     * Archives cut short, as errors naming the archive (or the partial entry) and where it ends;
     * their complete entries are among {@link #files()}.
     */
    public List<FormatException> truncations() {
        List<FormatException> out = new ArrayList<>();
        for (PathArgument a : archives) {
            a.tree().truncation().ifPresent(t -> out.add(FormatException.at(Violation.ARCHIVE_TRUNCATED, t.file(), t.position())
                    .note(t.message()).build()));
        }
        return out;
    }

    private void add(Path path) {
        int before = listing.files().size();
        if (path.toString().equals("-")) {
            scanner.scan(StreamEntry.stdin(), listing);
            noteOutsidePartitions(path, before);
            return;
        }
        boolean found;
        try {
            PathArgument arg = PathArgument.open(path, markers);
            if (arg.tree() != null) {
                archives.add(arg);
                // a compressed tar is read in the order it holds its dirs and partitions: one forward pass
                Comparator<FileEntry> order = arg.archiveOrder();
                found = (order == null ? scanner : scanner.withOrder(order)).scan(arg.entry(), listing);
                if (!found && arg.tree().truncation().isPresent()) {
                    return; // reported by truncations(): the data may be what was cut
                }
            } else {
                if (zooKeeperDataDir(path)) {
                    unreadable.add(FormatException.at(Violation.IO_ERROR, path.toString(), FormatException.UNKNOWN)
                            .note("a ZooKeeper data dir (version-2 holds snapshot.* and log.* files), not Kafka logs:"
                                    + " read it with zk-offsets, zk-tree or offsets --zookeeper").build());
                    return;
                }
                found = scanner.scan(path, listing);
            }
        } catch (FormatException e) {
            if (e.violation() != Violation.IO_ERROR) {
                throw e;
            }
            unreadable.add(e);
            return;
        }
        if (!found) {
            unreadable.add(FormatException.at(Violation.IO_ERROR, path.toString(), FormatException.UNKNOWN)
                    .note("no Kafka segment, partition dir or log dir found there").build());
            return;
        }
        noteOutsidePartitions(path, before);
    }

    /** Notes {@code path} when a file it brought (from index {@code before} of the listing on) has no partition. */
    private void noteOutsidePartitions(Path path, int before) {
        List<LogFile> added = listing.files();
        for (int i = before; i < added.size(); i++) {
            LogFile f = added.get(i);
            if (f.partition().isEmpty() && !f.isMetadataLog()) {
                outsidePartitions.add(FormatException.at(Violation.IO_ERROR, path.toString(), FormatException.UNKNOWN)
                        .note("not inside a <topic>-<partition> dir" + (f.path().equals(path.toString()) ? "" : " (" + f.path() + ")")
                                + ", so no topic or partition is known: nothing of it was read (name the partition dir"
                                + " or the log dir)").build());
                break;
            }
        }
    }

    private static final java.util.regex.Pattern ZK_FILE = java.util.regex.Pattern.compile("(snapshot|log)\\.[0-9a-fA-F]+(\\.gz|\\.snappy)?");

    /**
     * True for a dir that is a ZooKeeper dataDir (or holds one a level down) and no Kafka segment: its
     * {@code version-2} dir would otherwise pass for partition 2 of a topic "version" with no segments.
     */
    static boolean zooKeeperDataDir(Path path) {
        if (!java.nio.file.Files.isDirectory(path)) {
            return false;
        }
        try (java.util.stream.Stream<Path> s = java.nio.file.Files.walk(path, 3)) {
            boolean[] zk = {false};
            boolean kafka = s.anyMatch(f -> {
                String name = f.getFileName() == null ? "" : f.getFileName().toString();
                if (ZK_FILE.matcher(name).matches() && f.getParent() != null && f.getParent().getFileName() != null
                        && f.getParent().getFileName().toString().equals("version-2")) {
                    zk[0] = true;
                }
                return name.endsWith(".log") || name.endsWith(".index") || name.endsWith(".checkpoint");
            });
            return zk[0] && !kafka;
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        for (PathArgument a : archives) {
            a.close();
        }
    }
}
