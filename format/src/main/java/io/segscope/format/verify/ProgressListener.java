package io.segscope.format.verify;

/** Told how far a {@link Verifier} run is: every 1024 batches and after each .log file. */
@FunctionalInterface
public interface ProgressListener {
    /**
     * @param bytesDone bytes of .log files walked so far
     * @param batches batches read so far
     * @param records records read so far
     */
    void update(long bytesDone, long batches, long records);
}
