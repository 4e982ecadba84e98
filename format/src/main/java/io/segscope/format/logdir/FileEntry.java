package io.segscope.format.logdir;

import io.segscope.format.io.ByteSource;

import java.nio.file.Path;
import java.util.List;

/**
 * One file or directory of a tree that discovery walks. The file system is one implementation
 * ({@link PathEntry}); an archive can be another, giving {@link LogDir} the same listing without
 * extracting anything.
 */
public interface FileEntry {
    /** The last element of the path, e.g. {@code 00000000000000000000.log}. */
    String name();

    /** The path shown to people and used as the {@link ByteSource} name in errors. */
    String path();

    boolean isDirectory();

    /** Size in bytes of a file (0 for a directory). */
    long size();

    /** The entries of a directory sorted by name; empty for a file. */
    List<FileEntry> children();

    /**
     * The directory holding this entry, when the tree knows it (a file named on its own is then
     * read with the partition name and the index files beside it); null at the top of a tree.
     */
    default FileEntry parent() {
        return null;
    }

    /** Opens a file read-only. */
    ByteSource open();

    /**
     * Opens the file like {@link #open()}, for a reader that keeps no view of it past closing: a
     * mapped file is unmapped at once on close (its pages stop counting in the resident set),
     * rather than when the garbage collector gets to its mapping. A pass over many files then holds
     * one file's pages at a time. The default is {@link #open()}.
     */
    default ByteSource openReleasable() {
        return open();
    }

    /** True for a file that can be read only once, front to back (standard input, a pipe). */
    default boolean isStream() {
        return false;
    }

    /** A file-system entry for {@code path}. */
    static FileEntry of(Path path) {
        return new PathEntry(path);
    }
}
