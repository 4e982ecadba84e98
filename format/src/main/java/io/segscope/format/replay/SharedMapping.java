package io.segscope.format.replay;

import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileEntry;
import java.util.List;

/**
 * A file on disk mapped once for the threads of one replay: each {@link #open()} gives a source
 * over its own view of the one mapping (absolute reads only), so that the threads share the
 * mapping's pages (faulted in once, counted once in the resident set). Once every thread has closed
 * its source the mapping is let go (unmapped when collected, as a source of one thread is).
 * Thread-safe.
 */
final class SharedMapping implements FileEntry {
    private final FileEntry file;
    private final int threads;
    private ByteSource mapped;
    private int closed;

    SharedMapping(FileEntry file, int threads) {
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

    @Override
    public ByteSource open() {
        ByteSource m;
        synchronized (this) {
            if (mapped == null) {
                mapped = file.open();
            }
            m = mapped;
        }
        ByteSource view = ByteSource.wrap(m.buffer().duplicate(), m.name());
        return new ByteSource() {
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
                    if (++closed >= threads) {
                        mapped = null;
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
