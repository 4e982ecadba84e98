package io.segscope.inspector.input;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.record.ReaderOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;

/**
 * A PATH as a person gives it: a path of the file system, an archive, or an entry inside an
 * archive written as segscope prints archive entries ({@code logs.tar.gz!/logdir/__consumer_offsets-0}
 * selects that directory, {@code ...!/logdir/__consumer_offsets-0/00000000000000000000.log} that
 * segment with the index files beside it). Close it to close the archive.
 */
public final class PathArgument implements AutoCloseable {
    private final Path path;
    private final ArchiveTree tree;
    private final FileEntry entry;

    private PathArgument(Path path, ArchiveTree tree, FileEntry entry) {
        this.path = path;
        this.tree = tree;
        this.entry = entry;
    }

    /** True when {@code path} exists, or names an existing archive with {@code !/} after it. */
    public static boolean exists(Path path) {
        if (Files.exists(path)) {
            return true;
        }
        Optional<String[]> split = ArchiveTree.splitEntryPath(path.toString());
        return split.isPresent() && Files.isRegularFile(Path.of(split.get()[0]));
    }

    /** The file an archive entry path lives in (the archive), else {@code path} itself. */
    public static Path file(Path path) {
        if (Files.exists(path)) {
            return path;
        }
        return ArchiveTree.splitEntryPath(path.toString()).map(s -> Path.of(s[0])).orElse(path);
    }

    /**
     * Opens an archive (or an entry in one); a plain path is returned as is.
     *
     * @throws FormatException ({@code io-error}) when the path or the entry does not exist or the
     *     archive cannot be read
     */
    public static PathArgument open(Path path) {
        return open(path, null);
    }

    /**
     * Opens an archive as {@link #open(Path)} does; with {@code markers}, a compressed tar's
     * listing pass also reads the transaction markers of its segments
     * ({@link ArchiveTree#open(Path, ReaderOptions)}).
     */
    public static PathArgument open(Path path, ReaderOptions markers) {
        if (Files.exists(path)) {
            if (Files.isRegularFile(path) && ArchiveTree.isArchive(path)) {
                ArchiveTree tree = ArchiveTree.open(path, markers);
                return new PathArgument(path, tree, tree.root());
            }
            return new PathArgument(path, null, null);
        }
        Optional<String[]> split = ArchiveTree.splitEntryPath(path.toString());
        if (split.isEmpty() || !Files.isRegularFile(Path.of(split.get()[0]))) {
            throw FormatException.at(Violation.IO_ERROR, path.toString(), FormatException.UNKNOWN)
                    .note("no such file or directory").build();
        }
        ArchiveTree tree = ArchiveTree.open(Path.of(split.get()[0]), markers);
        Optional<FileEntry> entry = tree.find(split.get()[1]);
        if (entry.isEmpty()) {
            boolean cut = tree.truncation().isPresent();
            tree.close();
            throw FormatException.at(Violation.IO_ERROR, path.toString(), FormatException.UNKNOWN)
                    .note("no entry " + split.get()[1] + " in " + split.get()[0]
                            + (cut ? " (the archive is truncated: the entry may be the one cut or lie after the cut)" : ""))
                    .build();
        }
        return new PathArgument(path, tree, entry.get());
    }

    public Path path() {
        return path;
    }

    /** The archive, or null for a path of the file system. */
    public ArchiveTree tree() {
        return tree;
    }

    /** The archive entry named (the archive's root for a whole archive), or null for a path of the file system. */
    public FileEntry entry() {
        return entry;
    }

    /**
     * For a stream archive, the order in which it holds directories and partitions (by their
     * first file), so that a reader visiting them so reads the stream once; null when the order
     * does not matter.
     */
    public Comparator<FileEntry> archiveOrder() {
        if (tree == null || !tree.isStream()) {
            return null;
        }
        return Comparator.comparingLong(tree::position);
    }

    @Override
    public void close() {
        if (tree != null) {
            tree.close();
        }
    }
}
