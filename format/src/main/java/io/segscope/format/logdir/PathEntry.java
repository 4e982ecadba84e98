package io.segscope.format.logdir;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.IoReasons;
import io.segscope.format.io.MappedSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** A {@link FileEntry} on the file system; files open as read-only mappings ({@link MappedSource}). */
public final class PathEntry implements FileEntry {
    private final Path path;
    /** The last element, made once: discovery asks every entry of a listing for it, often. */
    private String name;
    private String pathText;

    public PathEntry(Path path) {
        this.path = path;
    }

    public Path toPath() {
        return path;
    }

    @Override
    public String name() {
        if (name == null) {
            Path n = path.getFileName();
            name = n == null ? path.toString() : n.toString();
        }
        return name;
    }

    @Override
    public String path() {
        if (pathText == null) {
            pathText = path.toString();
        }
        return pathText;
    }

    @Override
    public boolean isDirectory() {
        return Files.isDirectory(path);
    }

    @Override
    public long size() {
        try {
            return Files.isRegularFile(path) ? Files.size(path) : 0L;
        } catch (IOException e) {
            throw FormatException.at(Violation.IO_ERROR, path(), 0).note(IoReasons.of(e)).build(e);
        }
    }

    @Override
    public FileEntry parent() {
        Path parent = path.getParent() != null ? path.getParent() : path.toAbsolutePath().getParent();
        return parent == null ? null : new PathEntry(parent);
    }

    @Override
    public List<FileEntry> children() {
        if (!Files.isDirectory(path)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(path)) {
            List<FileEntry> out = new ArrayList<>();
            s.forEach(p -> out.add(new PathEntry(p)));
            out.sort(Comparator.comparing(FileEntry::name));
            return out;
        } catch (IOException e) {
            throw FormatException.at(Violation.IO_ERROR, path(), 0).note(IoReasons.of(e)).build(e);
        }
    }

    /** True for a pipe or device: read as a stream, once. */
    @Override
    public boolean isStream() {
        return Files.exists(path) && !Files.isRegularFile(path) && !Files.isDirectory(path);
    }

    @Override
    public ByteSource open() {
        if (isStream()) {
            return new StreamEntry(name(), path(), () -> {
                try {
                    return Files.newInputStream(path);
                } catch (IOException e) {
                    throw FormatException.at(Violation.IO_ERROR, path(), 0).note(IoReasons.of(e)).build(e);
                }
            }).open();
        }
        return MappedSource.open(path, path());
    }

    @Override
    public ByteSource openReleasable() {
        try {
            if (isStream() || Files.size(path) > MappedSource.windowedAbove()) {
                return open(); // a stream, or a file read through a window: nothing mapped to release
            }
        } catch (IOException e) {
            throw FormatException.at(Violation.IO_ERROR, path(), 0).note(IoReasons.of(e)).build(e);
        }
        return MappedSource.openReleasable(path, path());
    }

    @Override
    public String toString() {
        return path();
    }
}
