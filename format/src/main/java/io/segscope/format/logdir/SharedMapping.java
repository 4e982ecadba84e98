package io.segscope.format.logdir;

import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import java.util.List;

/**
 * A file on disk mapped once for the threads of one walk (a replay, a dump): each {@link #open()} gives a source
 * over its own view of the one mapping (absolute reads only), so that the threads share the
 * mapping's pages (faulted in once, counted once in the resident set). Once every thread has closed
 * its source the file is unmapped at once, so that the resident set holds the segments being read,
 * not every segment read so far (the walks keep nothing that points into a mapping: values are
 * copied out of the records). Used by the replay's and the dump's threads. Thread-safe.
 */
public final class SharedMapping implements FileEntry {
    private final PathEntry file;
    private final int threads;
    private ByteSource mapped;
    private int closed;
    private int open;

    /** {@code file}, to be opened once by each of {@code threads} threads. */
    public SharedMapping(PathEntry file, int threads) {
        this.file = file;
        this.threads = threads;
    }

    @Override
    public String name() {
        return file.name();
    }

    @Override
    public String path() {
        return file.path();
    }

    @Override
    public boolean isDirectory() {
        return file.isDirectory();
    }

    @Override
    public long size() {
        return file.size();
    }

    @Override
    public List<FileEntry> children() {
        return file.children();
    }

    @Override
    public FileEntry parent() {
        return file.parent();
    }

    /** A pipe or device named as a file (a FIFO): read once as a stream, never mapped. */
    @Override
    public boolean isStream() {
        return file.isStream();
    }

    @Override
    public ByteSource open() {
        if (file.isStream()) {
            return file.open();   // mapping a FIFO blocks for a writer that has gone, or maps nothing
        }
        if (file.size() > MappedSource.windowedAbove()) {
            return MappedSource.open(file.toPath(), file.path()); // read through a window of each reader's own
        }
        ByteSource m;
        synchronized (this) {
            if (mapped == null) {
                mapped = MappedSource.openReleasable(file.toPath(), file.path());
            }
            m = mapped;
            open++;
        }
        ByteSource view = ByteSource.wrap(m.buffer().duplicate(), m.name());
        return new ByteSource() {
            private boolean closedHere;

            @Override
            public String name() {
                return view.name();
            }

            @Override
            public long size() {
                return view.size();
            }

            @Override
            public int ensure(long position, int length) {
                return view.ensure(position, length);
            }

            @Override
            public long available(long position, long max) {
                return view.available(position, max);
            }

            @Override
            public java.nio.ByteBuffer buffer() {
                return view.buffer();
            }

            @Override
            public boolean isRandomAccess() {
                return true;
            }

            @Override
            public void close() {
                synchronized (SharedMapping.this) {
                    if (closedHere) {
                        return;
                    }
                    closedHere = true;
                    open--;
                    // never while a source is open: an extra open and close (another reader of the
                    // file) at worst unmaps early, and the next open maps the file again
                    if (++closed >= threads && open == 0 && mapped != null) {
                        mapped.close(); // unmapped
                        mapped = null;
                        closed = 0;
                    }
                }
            }
        };
    }

    @Override
    public String toString() {
        return file.toString();
    }
}
