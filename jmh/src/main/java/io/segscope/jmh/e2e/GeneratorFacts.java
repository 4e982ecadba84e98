package io.segscope.jmh.e2e;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What {@link OffsetsSegmentGenerator} wrote, counted as it writes: printed at the end and saved as
 * {@code generator.facts} beside the partition. The lines of the original generator come first,
 * unchanged; the breakdowns of the realistic partition follow.
 */
final class GeneratorFacts {
    long batches;
    long records;
    long commits;
    /** Offset and group tombstones. */
    long tombstones;
    long groupTombstones;
    long groupMetadata;
    long metadataBytes;
    int maxBatchRecords;
    long txnBatches;
    long commitMarkers;
    long abortMarkers;
    int segments;

    long commitBatches;
    long commitBatchesUpTo20;
    long rebalances;
    long expirationSweeps;
    long groupDeletions;

    long v3Values;
    long v4WithTopicId;
    long v4WithoutTopicId;

    long metadataEmpty;
    long metadataUpTo20;
    long metadataUpTo100;
    long metadataUpTo200;
    long metadataLonger;
    long metadataNonAscii;
    int metadataMaxChars;

    long firstTimestamp = -1;
    long lastTimestamp = -1;
    boolean timestampsNeverDecrease = true;

    void timestamp(long ts) {
        if (firstTimestamp < 0) {
            firstTimestamp = ts;
        }
        if (ts < lastTimestamp) {
            timestampsNeverDecrease = false;
        }
        lastTimestamp = ts;
    }

    void valueVersion(short version, boolean topicId) {
        if (version == 3) {
            v3Values++;
        } else if (topicId) {
            v4WithTopicId++;
        } else {
            v4WithoutTopicId++;
        }
    }

    void metadata(String md, int utf8Bytes) {
        metadataBytes += utf8Bytes;
        int n = md.length();
        if (n == 0) {
            metadataEmpty++;
        } else if (n <= 20) {
            metadataUpTo20++;
        } else if (n <= 100) {
            metadataUpTo100++;
        } else if (n <= 200) {
            metadataUpTo200++;
        } else {
            metadataLonger++;
        }
        if (utf8Bytes != n) {
            metadataNonAscii++;
        }
        metadataMaxChars = Math.max(metadataMaxChars, n);
    }

    /** The facts as text. */
    String text(GeneratorOptions o, Path shown, long bytes, int groups, int groupPartitions, long lastOffset,
                boolean segmented, int leftOpen, ExpectedOffsets expected, Path partitionDir) throws IOException {
        StringWriter s = new StringWriter();
        PrintWriter out = new PrintWriter(s);
        out.printf(Locale.ROOT, "segment        %s%n", shown);
        out.printf(Locale.ROOT, "bytes          %d (%.1f MiB)%n", bytes, bytes / 1048576.0);
        out.printf(Locale.ROOT, "seed           %d%n", o.seed);
        out.printf(Locale.ROOT, "compression    %s%n", o.codec);
        out.printf(Locale.ROOT, "batches        %d%n", batches);
        out.printf(Locale.ROOT, "records        %d (%.1f per batch, max %d)%n", records,
                (double) records / batches, maxBatchRecords);
        out.printf(Locale.ROOT, "offset commits %d (OffsetCommitValue %s; avg metadata %.1f bytes)%n",
                commits, v3Values > 0 ? "v3 and v4" : "v4", (double) metadataBytes / Math.max(1, commits));
        out.printf(Locale.ROOT, "tombstones     %d (%.2f%%)%n", tombstones, 100.0 * tombstones / records);
        out.printf(Locale.ROOT, "group metadata %d (GroupMetadataValue v3)%n", groupMetadata);
        out.printf(Locale.ROOT, "groups         %d, topics %d, group-partitions %d%n", groups, o.topics,
                groupPartitions);
        if (segmented) {
            out.printf(Locale.ROOT, "segments       %d%n", segments);
        }
        if (o.txnPercent > 0) {
            out.printf(Locale.ROOT, "transactional  %d batches; markers: %d COMMIT, %d ABORT; %d left open%n",
                    txnBatches, commitMarkers, abortMarkers, leftOpen);
        }
        out.printf(Locale.ROOT, "last offset    %d%n", lastOffset);

        long markers = commitMarkers + abortMarkers;
        out.printf(Locale.ROOT, "batch kinds    offset commits %d (%s; %s of them 1-20 records; %d transactional),"
                        + " rebalances %d (%s), expiration sweeps %d (%s), group deletions %d (%s), markers %d (%s)%n",
                commitBatches, pct(commitBatches, batches), pct(commitBatchesUpTo20, commitBatches), txnBatches,
                rebalances, pct(rebalances, batches), expirationSweeps, pct(expirationSweeps, batches),
                groupDeletions, pct(groupDeletions, batches), markers, pct(markers, batches));
        long all = records + markers;
        out.printf(Locale.ROOT, "record kinds   of %d log records: offset commits %s, offset tombstones %s,"
                        + " group metadata %s, group tombstones %s, COMMIT/ABORT markers %s%n",
                all, pct(commits, all), pct(tombstones - groupTombstones, all), pct(groupMetadata, all),
                pct(groupTombstones, all), pct(markers, all));
        out.printf(Locale.ROOT, "value versions v3 %d (%s), v4 with topic id %d (%s), v4 without topic id %d (%s)%n",
                v3Values, pct(v3Values, commits), v4WithTopicId, pct(v4WithTopicId, commits), v4WithoutTopicId,
                pct(v4WithoutTopicId, commits));
        out.printf(Locale.ROOT, "metadata       empty %s, 1-20 chars %s, 21-100 %s, 101-200 %s, over 200 %s;"
                        + " longest %d chars; %d with non-ASCII characters%n",
                pct(metadataEmpty, commits), pct(metadataUpTo20, commits), pct(metadataUpTo100, commits),
                pct(metadataUpTo200, commits), pct(metadataLonger, commits), metadataMaxChars, metadataNonAscii);
        out.printf(Locale.ROOT, "timestamps     %s to %s, %s%n", Instant.ofEpochMilli(firstTimestamp),
                Instant.ofEpochMilli(lastTimestamp), timestampsNeverDecrease ? "never decreasing" : "DECREASING");
        int committed = expected.committedCount();
        int groupsWithOffsets = expected.groupsWithOffsets();
        out.printf(Locale.ROOT, "expected       %d committed offsets of %d groups (%.1f per group), %d pending in %d"
                        + " open transactions (expected-offsets.csv)%n",
                committed, groupsWithOffsets, (double) committed / Math.max(1, groupsWithOffsets),
                expected.pendingCount(), expected.openTransactions());
        out.printf(Locale.ROOT, "txn rules      %d offsets materialized by COMMIT, %d skipped for a later plain commit,"
                        + " %d dropped by ABORT, %d cancelled by a tombstone before their marker%n",
                expected.materialized, expected.skippedByLaterCommit, expected.aborted, expected.cancelledByTombstone);
        if (o.indexes) {
            out.printf(Locale.ROOT, "indexes        %s%n", indexes(partitionDir));
        }
        out.flush();
        return s.toString();
    }

    /**
     * The side files Kafka's recovery wrote, counted in entries: up to the last entry that is not all
     * zeros, in case an index was left preallocated (a broker's clean shutdown trims the active
     * segment's, {@link BrokerRestart}; no real entry is all zeros, the first is written after
     * {@code index.interval.bytes}).
     */
    static String indexes(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        long offsetIndex = 0;
        long timeIndex = 0;
        long txnIndex = 0;
        int snapshots = 0;
        int indexFiles = 0;
        for (Path f : files) {
            String n = f.getFileName().toString();
            long size = Files.size(f);
            if (n.endsWith(".index")) {
                offsetIndex += entries(f, 8);
                indexFiles++;
            } else if (n.endsWith(".timeindex")) {
                timeIndex += entries(f, 12);
            } else if (n.endsWith(".txnindex")) {
                txnIndex += size / 34;
            } else if (n.endsWith(".snapshot")) {
                snapshots++;
            }
        }
        Path checkpoint = dir.resolve("leader-epoch-checkpoint");
        List<String> epochs = Files.exists(checkpoint) ? Files.readAllLines(checkpoint) : List.of();
        String entries = epochs.size() > 2 ? String.join(", ", epochs.subList(2, epochs.size())) : "none";
        return String.format(Locale.ROOT, "%d .index files: %d offset index entries, %d time index entries,"
                        + " %d aborted transactions in .txnindex; leader-epoch-checkpoint (epoch start offset): %s;"
                        + " %d producer snapshot(s)",
                indexFiles, offsetIndex, timeIndex, txnIndex, entries, snapshots);
    }

    /** Entries of {@code entrySize} bytes up to the last that is not all zeros. */
    private static long entries(Path index, int entrySize) throws IOException {
        byte[] b = Files.readAllBytes(index);
        for (int end = b.length - b.length % entrySize; end > 0; end -= entrySize) {
            for (int i = end - entrySize; i < end; i++) {
                if (b[i] != 0) {
                    return end / entrySize;
                }
            }
        }
        return 0;
    }

    private static String pct(long part, long whole) {
        return String.format(Locale.ROOT, "%.2f%%", 100.0 * part / Math.max(1, whole));
    }
}
