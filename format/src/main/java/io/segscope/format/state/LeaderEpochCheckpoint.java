package io.segscope.format.state;

import io.segscope.format.io.ByteSource;

import java.util.List;

/**
 * A partition's {@code leader-epoch-checkpoint} (docs/format.md 1.1): the checkpoint container,
 * version 0, entries {@code "<epoch> <startOffset>"} in increasing epoch order.
 */
public final class LeaderEpochCheckpoint {
    public static final String FILE_NAME = "leader-epoch-checkpoint";
    public static final int CURRENT_VERSION = 0;

    private LeaderEpochCheckpoint() {
    }

    /** Reads the entries in file order (see {@link CheckpointFile#read} for the errors). */
    public static List<EpochEntry> read(ByteSource source) {
        return CheckpointFile.read(source, CURRENT_VERSION, (fields, line) -> fields.length != 2 ? null
                : new EpochEntry(line.parseInt(fields[0], "epoch"), line.parseLong(fields[1], "startOffset"),
                        line.position()));
    }
}
