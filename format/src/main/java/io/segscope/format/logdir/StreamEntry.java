package io.segscope.format.logdir;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.StreamSource;
import io.segscope.format.record.ReaderOptions;

import java.io.InputStream;
import java.util.List;
import java.util.function.Supplier;

/**
 * A file that can be read once, front to back: standard input ({@code -}), a pipe or a character
 * device named as a path ({@code /dev/stdin}). Read through a {@link StreamSource} whose window is
 * one batch, so memory stays bounded whatever the stream's length.
 */
public final class StreamEntry implements FileEntry {
    /** The largest window a stream source may grow to: one batch at most (mapped files need none). */
    public static final int MAX_WINDOW = ReaderOptions.DEFAULT_MAX_BATCH + 64;

    private final String name;
    private final String path;
    private final Supplier<InputStream> in;
    private boolean opened;

    public StreamEntry(String name, String path, Supplier<InputStream> in) {
        this.name = name;
        this.path = path;
        this.in = in;
    }

    /** Standard input, shown as {@code -}. */
    public static StreamEntry stdin() {
        return new StreamEntry("-", "-", () -> System.in);
    }

    @Override public String name() { return name; }
    @Override public String path() { return path; }
    @Override public boolean isDirectory() { return false; }
    /** Unknown until read: 0. */
    @Override public long size() { return 0; }
    @Override public List<FileEntry> children() { return List.of(); }
    @Override public boolean isStream() { return true; }

    @Override
    public ByteSource open() {
        if (opened) {
            throw FormatException.at(Violation.IO_ERROR, path, FormatException.UNKNOWN)
                    .note("a stream can be read only once").build();
        }
        opened = true;
        return new StreamSource(in.get(), path, MAX_WINDOW);
    }
}
