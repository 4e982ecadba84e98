package io.segscope.format.fuzz;

import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.TopicPartitionName;
import io.segscope.format.record.ReaderOptions;

import java.nio.ByteBuffer;
import java.util.List;

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
        return LogFile.classify(new Entry(bytes, partitionDir + "/" + fileName, fileName),
                TopicPartitionName.tryParse(partitionDir));
    }

    /** A file held in memory. */
    private record Entry(byte[] bytes, String path, String name) implements FileEntry {
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
