package io.segscope.format.compact;

import java.nio.file.Path;
import java.util.Optional;

/** The outcome of a compaction: the new partition directory (none for a dry run) and the figures. */
public record CompactResult(Optional<Path> partitionDir, CompactStats stats) {
}
