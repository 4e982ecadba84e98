package io.segscope.format.fuzz;

import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.TopicPartitionName;
import io.segscope.format.record.ReaderOptions;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the fuzz tests share: the fuzzer's bytes as the content of a named file, and the small
 * caps that keep one input from costing more than a few MiB whatever its size fields say.
 */
final class Fuzzed {
    /** 1 MiB per decompressed payload and per batch: far above any seed, far below the test heap. */
    static final ReaderOptions OPTIONS = new ReaderOptions(1 << 20, 1 << 20);

    private Fuzzed() {
    }

    /** The bytes as a file of that name, read-only. */
    static ByteSource source(byte[] bytes, String name) {
        return ByteSource.wrap(ByteBuffer.wrap(bytes).asReadOnlyBuffer(), name);
    }

    /** The bytes as {@code <partitionDir>/<fileName>}, classified as discovery would classify it. */
    static LogFile logFile(byte[] bytes, String partitionDir, String fileName) {
        return LogFile.classify(new Entry(bytes, partitionDir + "/" + fileName, fileName, null),
                TopicPartitionName.tryParse(partitionDir));
    }

    /**
     * A directory tree held in memory, as a file system or an archive gives it to discovery:
     * {@code files} maps paths below {@code root} ({@code a/b/c}) to contents. Entries are sorted by
     * name and know their parent, so that a file is read with the names beside it.
     */
    static FileEntry tree(String root, Map<String, byte[]> files) {
        Dir top = new Dir(root, root, null);
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            Dir at = top;
            String[] parts = f.getKey().split("/");
            for (int i = 0; i < parts.length - 1; i++) {
                Dir parent = at;
                at = (Dir) at.entries.computeIfAbsent(parts[i], n -> new Dir(n, parent.path + "/" + n, parent));
            }
            String name = parts[parts.length - 1];
            at.entries.put(name, new Entry(f.getValue(), at.path + "/" + name, name, at));
        }
        return top;
    }

    /** A directory held in memory. */
    private record Dir(String name, String path, FileEntry parent, Map<String, FileEntry> entries) implements FileEntry {
        Dir(String name, String path, FileEntry parent) {
            this(name, path, parent, new TreeMap<>());
        }

        @Override
        public boolean isDirectory() {
            return true;
        }

        @Override
        public long size() {
            return 0;
        }

        @Override
        public List<FileEntry> children() {
            return new ArrayList<>(entries.values());
        }

        @Override
        public ByteSource open() {
            throw new UnsupportedOperationException(path + " is a directory");
        }
    }

    /** A file held in memory. */
    private record Entry(byte[] bytes, String path, String name, FileEntry parent) implements FileEntry {
        @Override
        public boolean isDirectory() {
            return false;
        }

        @Override
        public long size() {
            return bytes.length;
        }

        @Override
        public List<FileEntry> children() {
            return List.of();
        }

        @Override
        public ByteSource open() {
            return source(bytes, path);
        }
    }
}
