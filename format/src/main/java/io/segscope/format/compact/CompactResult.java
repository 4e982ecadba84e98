package io.segscope.format.compact;

import io.segscope.format.error.Problem;
import java.util.List;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The outcome of a compaction: the new partition directory (none for a dry run), the figures, and
 * where the input could not be read to the end of a segment (a torn or damaged batch, a zero-filled
 * tail: what follows is not in the output, as Kafka's log recovery would truncate it).
 */
public record CompactResult(Optional<Path> partitionDir, CompactStats stats, List<Problem> inputDamage) {
    public CompactResult {
        inputDamage = List.copyOf(inputDamage);
    }

    public CompactResult(Optional<Path> partitionDir, CompactStats stats) {
        this(partitionDir, stats, List.of());
    }
}
