package io.segscope.format.record;

/**
 * Limits of a {@link BatchReader}. The defaults read anything a broker with default settings can
 * write and keep a hostile size field from costing more than the caps.
 *
 * @param maxDecompressedBytes the most bytes one compressed payload may inflate to
 * @param maxBatchBytes the largest batch read from a stream source (mapped files need no cap)
 */
public record ReaderOptions(int maxDecompressedBytes, int maxBatchBytes) {
    public static final int DEFAULT_MAX_DECOMPRESSED = 128 * 1024 * 1024;
    public static final int DEFAULT_MAX_BATCH = 128 * 1024 * 1024;

    public static ReaderOptions defaults() {
        return new ReaderOptions(DEFAULT_MAX_DECOMPRESSED, DEFAULT_MAX_BATCH);
    }

    public ReaderOptions withMaxDecompressedBytes(int max) {
        return new ReaderOptions(max, maxBatchBytes);
    }
}
