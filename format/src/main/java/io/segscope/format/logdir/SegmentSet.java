package io.segscope.format.logdir;

import io.segscope.format.error.FormatException;

import java.util.List;
import java.util.Optional;

/**
 * The segments of one partition directory in base-offset order (a live segment before a
 * transient one of the same base offset), the producer snapshots in offset order, the orphans
 * (index files without a {@code .log}), the other files, and what discovery found wrong.
 */
public record SegmentSet(List<Segment> segments, List<SnapshotFile> snapshots, List<Segment> orphans,
                         List<FileEntry> otherFiles, List<FormatException> problems) {

    /** The live segment whose range holds {@code offset}: the last one whose base offset is at most it. */
    public Optional<Segment> floor(long offset) {
        Segment found = null;
        for (Segment s : segments) {
            if (s.status() == FileStatus.LIVE && s.baseOffset() <= offset) {
                found = s;
            }
        }
        return Optional.ofNullable(found);
    }
}
