package io.segscope.format.compat;

import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.TopicPartitionName;
import io.segscope.format.record.ReaderOptions;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A log written by a future release is reported, not rejected: unknown record types and value versions are counted as such. */
class FormatInventoryTest {

    private static byte[] key(int type, String group, String topic, int partition) {
        byte[] g = group.getBytes(StandardCharsets.UTF_8);
        byte[] t = topic.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(2 + 2 + g.length + 2 + t.length + 4);
        b.putShort((short) type).putShort((short) g.length).put(g).putShort((short) t.length).put(t).putInt(partition);
        return b.array();
    }

    private static byte[] value(int version, int bytes) {
        ByteBuffer b = ByteBuffer.allocate(2 + bytes);
        b.putShort((short) version);
        return b.array();
    }

    @Test
    void futureVersionsAndTypesAreReportedNotRejected(@TempDir Path tmp) throws IOException {
        MemoryRecords records = MemoryRecords.withRecords(0L, Compression.zstd().build(),
                new SimpleRecord(1_700_000_000_000L, key(1, "g", "t", 0), value(99, 40)),
                new SimpleRecord(1_700_000_000_001L, key(1, "g", "t", 1), value(99, 40)),
                new SimpleRecord(1_700_000_000_002L, key(999, "g", "t", 0), value(0, 8)),
                new SimpleRecord(1_700_000_000_003L, key(1, "g", "t", 2), null));
        Path dir = Files.createDirectories(tmp.resolve("__consumer_offsets-0"));
        Path log = dir.resolve("00000000000000000000.log");
        byte[] bytes = new byte[records.sizeInBytes()];
        records.buffer().get(bytes);
        Files.write(log, bytes);
        LogFile file = LogFile.classify(FileEntry.of(log), Optional.of(TopicPartitionName.parse("__consumer_offsets-0")));
        FormatInventory.Counts c = FormatInventory.of("__consumer_offsets", 0, List.of(file), ReaderOptions.defaults());
        assertThat(c.batches()).isEqualTo(1);
        assertThat(c.records()).isEqualTo(4);
        assertThat(c.batchesByMagic()).containsExactly(0, 0, 1);
        assertThat(c.codecs()).containsOnlyKeys("2/zstd");
        FormatInventory.RecordVersion future = c.recordVersions().get("1/99");
        assertThat(future).isNotNull();
        assertThat(future.known()).isFalse();
        assertThat(future.count()).isEqualTo(2);
        assertThat(future.firstOffset()).isZero();
        assertThat(future.lastOffset()).isEqualTo(1);
        assertThat(future.lastTimestamp()).isEqualTo(1_700_000_000_001L);
        assertThat(c.recordVersions().keySet()).contains("999/0");
        FormatInventory.RecordVersion unknownType = c.recordVersions().get("999/0");
        assertThat(unknownType).isNotNull();
        assertThat(unknownType.known()).isFalse();
        FormatInventory.RecordVersion tombstone = c.recordVersions().get("1/-1");
        assertThat(tombstone.known()).isTrue();
        assertThat(tombstone.name()).isEqualTo("OffsetCommit");
    }

    /** A tag the schema does not know (tag 7 of OffsetCommitValue v4, as a later release might add) is counted, not rejected. */
    @Test
    void anUnknownTagIsReportedNotRejected(@TempDir Path tmp) throws IOException {
        OffsetCommitValue value = new OffsetCommitValue().setOffset(42).setCommitTimestamp(1_700_000_000_000L)
                .setTopicId(Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAQ"));
        value.unknownTaggedFields().add(new RawTaggedField(7, new byte[] {1, 2, 3}));
        byte[] valueBytes = MessageUtil.toVersionPrefixedBytes((short) 4, value);
        MemoryRecords records = MemoryRecords.withRecords(0L, Compression.NONE,
                new SimpleRecord(1_700_000_000_000L, key(1, "g", "t", 0), valueBytes),
                new SimpleRecord(1_700_000_000_001L, key(1, "g", "t", 1), MessageUtil.toVersionPrefixedBytes((short) 4,
                        new OffsetCommitValue().setOffset(43))));
        Path dir = Files.createDirectories(tmp.resolve("__consumer_offsets-0"));
        Path log = dir.resolve("00000000000000000000.log");
        byte[] bytes = new byte[records.sizeInBytes()];
        records.buffer().get(bytes);
        Files.write(log, bytes);
        LogFile file = LogFile.classify(FileEntry.of(log), Optional.of(TopicPartitionName.parse("__consumer_offsets-0")));
        FormatInventory.Counts c = FormatInventory.of("__consumer_offsets", 0, List.of(file), ReaderOptions.defaults(), false);
        FormatInventory.RecordVersion v4 = c.recordVersions().get("1/4");
        assertThat(v4.known()).isTrue();
        assertThat(v4.count()).isEqualTo(2);
        assertThat(v4.taggedFields()).containsExactly(new FormatInventory.TaggedField("", 0, "topicId", 1),
                new FormatInventory.TaggedField("", 7, "", 1));
        assertThat(v4.taggedFields().get(1).label()).isEqualTo("tag7");
        assertThat(c.unknownTaggedFields()).isEqualTo(1);
        assertThat(c.headersCounted()).isFalse();
    }

    /** A batch whose codec id (5 to 7) no release defines is counted as codec unknown, which blocks every line. */
    @Test
    void anUndefinedCodecIsCountedAndBlocksEveryLine(@TempDir Path tmp) throws IOException {
        MemoryRecords records = MemoryRecords.withRecords(0L, Compression.NONE, new SimpleRecord(1_700_000_000_000L, null, new byte[] {1}));
        ByteBuffer b = records.buffer().duplicate();
        b.putShort(21, (short) (b.getShort(21) | 5));   // attributes: codec id 5
        Path dir = Files.createDirectories(tmp.resolve("events-0"));
        Path log = dir.resolve("00000000000000000000.log");
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        Files.write(log, bytes);
        LogFile file = LogFile.classify(FileEntry.of(log), Optional.of(TopicPartitionName.parse("events-0")));
        FormatInventory.Counts c = FormatInventory.of("events", 0, List.of(file), ReaderOptions.defaults(), false);
        assertThat(c.codecs()).containsExactly(java.util.Map.entry("2/unknown", 1L));
        Compatibility.TopicFormats t = Compatibility.byTopic(List.of(c)).get("events");
        assertThat(t.unknownCodecBatches()).isEqualTo(1);
        for (Compatibility.Verdict v : Compatibility.judge(Compatibility.byTopic(List.of(c)))) {
            assertThat(v.loads()).as(v.line()).isFalse();
            assertThat(v.blockers()).anyMatch(s -> s.startsWith("1 batch with a codec id of 5 to 7"));
        }
    }
}
