package io.segscope.inspector.cmd;

import io.segscope.format.record.ReaderOptions;
import picocli.CommandLine.Option;

/** The decompression cap, shared by the commands that read batches. */
public final class DecompressionOption {
    @Option(names = "--max-decompressed", paramLabel = "BYTES", defaultValue = "134217728",
            description = "Largest size one compressed batch may inflate to (default 128 MiB).")
    int maxDecompressed;

    ReaderOptions readerOptions() {
        return ReaderOptions.defaults().withMaxDecompressedBytes(maxDecompressed);
    }
}
