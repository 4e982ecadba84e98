package io.segscope.format.logdir;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

import io.segscope.format.state.LeaderEpochCheckpoint;
import io.segscope.format.state.PartitionMetadata;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A partition directory (docs/format.md 1.1): its parsed name, its segments and the
 * per-partition side files ({@code leader-epoch-checkpoint}, {@code partition.metadata}). The
 * KRaft metadata log ({@code __cluster_metadata-0}) is one too; its {@code quorum-state} and
 * {@code .checkpoint} snapshot files show up among {@link SegmentSet#otherFiles()}.
 */
public final class PartitionDir {
    private final FileEntry dir;
    private final TopicPartitionName name;

    public PartitionDir(FileEntry dir, TopicPartitionName name) {
        this.dir = dir;
        this.name = name;
    }

    /** A partition directory whose name must parse as Kafka parses it. */
    public static PartitionDir of(FileEntry dir) {
        return new PartitionDir(dir, TopicPartitionName.parse(dir.name()));
    }

    public FileEntry dir() {
        return dir;
    }

    public TopicPartitionName name() {
        return name;
    }

    public String topic() {
        return name.topic();
    }

    public int partition() {
        return name.partition();
    }

    public DirStatus status() {
        return name.status();
    }

    public Optional<FileEntry> leaderEpochCheckpoint() {
        return child(LeaderEpochCheckpoint.FILE_NAME);
    }

    public Optional<FileEntry> partitionMetadata() {
        return child(PartitionMetadata.FILE_NAME);
    }

    private Optional<FileEntry> child(String fileName) {
        for (FileEntry e : dir.children()) {
            if (!e.isDirectory() && e.name().equals(fileName)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /** The live segments and snapshots only. */
    public SegmentSet segments() {
        return segments(Include.none());
    }

    /**
     * Groups the directory's files into segments by (base offset, status). Files with a transient
     * suffix not asked for in {@code include} are left out entirely.
     */
    public SegmentSet segments(Set<Include> include) {
        Map<Long, Map<FileStatus, Segment>> byOffset = new TreeMap<>();
        List<SnapshotFile> snapshots = new ArrayList<>();
        List<FileEntry> others = new ArrayList<>();
        List<FormatException> problems = new ArrayList<>();
        for (FileEntry e : dir.children()) {
            if (e.isDirectory()) {
                others.add(e);
                continue;
            }
            Optional<SegmentFileName> parsed = SegmentFileName.parse(e.name());
            if (parsed.isEmpty()) {
                if (SegmentFileName.looksLikeSegmentFile(e.name())) {
                    problems.add(FormatException.at(Violation.NAME_FORMAT, e.path(), FormatException.UNKNOWN)
                            .field("file name").expected("<base offset>.<suffix>").actual(e.name()).build());
                }
                others.add(e);
                continue;
            }
            SegmentFileName n = parsed.get();
            if (!Include.includes(include, n.status())) {
                continue;
            }
            if (n.kind() == FileKind.SNAPSHOT) {
                snapshots.add(new SnapshotFile(n.baseOffset(), n.status(), e));
            } else {
                byOffset.computeIfAbsent(n.baseOffset(), k -> new TreeMap<>())
                        .computeIfAbsent(n.status(), s -> new Segment(n.baseOffset(), s))
                        .put(n.kind(), e);
            }
        }
        List<Segment> segments = new ArrayList<>();
        List<Segment> orphans = new ArrayList<>();
        for (Map<FileStatus, Segment> group : byOffset.values()) {
            for (Segment s : group.values()) {
                if (s.isOrphan()) {
                    orphans.add(s);
                    FileEntry any = s.index().or(s::timeIndex).or(s::txnIndex).orElseThrow();
                    problems.add(FormatException.at(Violation.ORPHAN_INDEX, any.path(), FormatException.UNKNOWN)
                            .baseOffset(s.baseOffset()).field("log")
                            .expected(SegmentFileName.prefix(s.baseOffset()) + ".log" + s.status().suffix())
                            .actual("absent").note("Kafka deletes index files without a .log at load").build());
                } else {
                    segments.add(s);
                }
            }
        }
        snapshots.sort(Comparator.comparingLong(SnapshotFile::offset).thenComparing(SnapshotFile::status));
        return new SegmentSet(List.copyOf(segments), List.copyOf(snapshots), List.copyOf(orphans),
                List.copyOf(others), List.copyOf(problems));
    }

    @Override
    public String toString() {
        return dir.path();
    }
}
