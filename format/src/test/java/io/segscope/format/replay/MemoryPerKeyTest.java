package io.segscope.format.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.TopicPartitionName;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory grows with live keys, not with records: 100 000 keys (1 000 groups x 100 partitions of
 * one topic) committed 3 times each with the same metadata; the retained heap per key is measured
 * (printed; about 180 bytes per key measured, see the package documentation), and the allocation per replayed record of an existing key
 * stays far below the size of a String or a record object.
 */
class MemoryPerKeyTest {
    @TempDir
    Path tmp;

    @Test
    void retainedHeapPerKeyAndAllocationPerRecord() throws IOException {
        int groups = 1000;
        int partitions = 100;
        Path part = tmp.resolve("__consumer_offsets-0");
        Files.createDirectories(part);
        Path log = part.resolve("00000000000000000000.log");
        long offset = 0;
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            for (int round = 0; round < 3; round++) {
                for (int g = 0; g < groups; g++) {
                    SimpleRecord[] recs = new SimpleRecord[partitions];
                    for (int p = 0; p < partitions; p++) {
                        byte[] k = MessageUtil.toCoordinatorTypePrefixedBytes(
                                new OffsetCommitKey().setGroup("group-" + g).setTopic("orders").setPartition(p));
                        byte[] v = MessageUtil.toVersionPrefixedBytes((short) 4, new OffsetCommitValue()
                                .setOffset(round * 1000L + p).setLeaderEpoch(round).setMetadata("same metadata")
                                .setCommitTimestamp(1_700_000_000_000L + round));
                        recs[p] = new SimpleRecord(1_700_000_000_000L + round, k, v);
                    }
                    ByteBuffer b = MemoryRecords.withRecords(offset, Compression.NONE, recs).buffer();
                    offset += partitions;
                    while (b.hasRemaining()) {
                        ch.write(b);
                    }
                }
            }
        }
        List<LogFile> files = List.of(LogFile.classify(FileEntry.of(log), TopicPartitionName.tryParse(part.getFileName().toString())));
        long before = usedHeap();
        long allocatedBefore = allocated();
        OffsetsReplay replay = new OffsetsReplay();
        new io.segscope.format.walk.RecordWalk(io.segscope.format.record.ReaderOptions.defaults(),
                io.segscope.format.walk.DecoderChoice.NONE, io.segscope.format.walk.RecordFilter.ALL, Long.MAX_VALUE)
                .walk(files, replay);
        long allocatedAll = allocated() - allocatedBefore;
        long after = usedHeap();
        ReplayResult r = replay.result();
        int keys = groups * partitions;
        assertThat(r.offsetCount()).isEqualTo(keys);
        assertThat(r.records()).isEqualTo(3L * keys);
        long perKey = (after - before) / keys;
        long perRecord = allocatedAll / (3L * keys);
        System.out.println("replay memory: " + perKey + " bytes retained per key, " + perRecord
                + " bytes allocated per record (walk included)");
        assertThat(perKey).isLessThan(400);
        assertThat(r.offset("group-7", "orders", 42).offset()).isEqualTo(2042);
        assertThat(r.offset("group-7", "orders", 42).metadata()).isEqualTo("same metadata");
        assertThat(replay.stopped()).isFalse(); // keeps replay reachable until here
    }

    private static long usedHeap() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
