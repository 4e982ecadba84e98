package io.segscope.inspector.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.DumpOutput;
import io.segscope.format.coordinator.KafkaOracle;
import io.segscope.format.coordinator.metadata.ControlValueSchemas.ControlValueSchema;
import io.segscope.format.coordinator.metadata.ControlValueSchemas;
import io.segscope.format.coordinator.metadata.MetadataOracle;
import io.segscope.format.coordinator.metadata.MetadataRecordSchema;
import io.segscope.format.coordinator.metadata.MetadataRoundTripTest.Cell;
import io.segscope.format.coordinator.metadata.MetadataRoundTripTest;
import io.segscope.format.coordinator.metadata.MetadataSchemas;
import io.segscope.format.coordinator.metadata.RandomMetadata;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.KRaftVersionRecord;
import org.apache.kafka.common.message.LeaderChangeMessage;
import org.apache.kafka.common.message.SnapshotFooterRecord;
import org.apache.kafka.common.message.SnapshotHeaderRecord;
import org.apache.kafka.common.message.VotersRecord;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * End to end against the real tool: a {@code __cluster_metadata-0} segment and a snapshot
 * {@code .checkpoint} written with Kafka's {@code MemoryRecordsBuilder} (every metadata record
 * type and version with random contents, damaged values, null values, every KRaft control record,
 * a transaction marker, an unknown control type; plain and compressed batches), dumped by Kafka
 * 4.4.0's {@code DumpLogSegments --cluster-metadata-decoder}, and read back by segscope's batch
 * reader and metadata decoders: every record line ends with the same text.
 */
class DumpLogSegmentsMetadataToolTest {

    @ParameterizedTest
    @CsvSource({"none, 11", "lz4, 12", "zstd, 13", "gzip, 14", "snappy, 15"})
    void printsWhatDumpLogSegmentsPrints(String codec, long seed, @TempDir Path dir) throws Exception {
        Random random = new Random(seed);
        Path partition = dir.resolve("__cluster_metadata-0");
        Files.createDirectories(partition);

        // the log: data batches of every type/version, and control batches between them
        List<ByteBuffer> batches = new ArrayList<>();
        long offset = 0;
        int expected = 0;
        batches.add(control(offset, random, ControlValueSchemas.KRAFT_VERSION, ControlValueSchemas.KRAFT_VOTERS));
        offset += 2;
        for (Cell cell : MetadataRoundTripTest.cells()) {
            List<SimpleRecord> records = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                records.add(new SimpleRecord(1000L + offset, null, value(cell, random)));
            }
            batches.add(MemoryRecords.withRecords(offset, KafkaOracle.compression(codec), records.toArray(new SimpleRecord[0])).buffer());
            offset += records.size();
            if (random.nextInt(4) == 0) {
                batches.add(control(offset, random, ControlValueSchemas.LEADER_CHANGE));
                offset += 1;
            }
        }
        batches.add(MemoryRecords.withEndTransactionMarker(offset, 1000L, 0, 7L, (short) 1,
                new EndTransactionMarker(ControlRecordType.COMMIT, 5)).buffer());
        offset += 1;
        batches.add(unknownControlType(offset, (short) 9));
        offset += 1;
        Path log = partition.resolve("00000000000000000000.log");
        write(log, batches);
        expected += (int) offset;

        // a snapshot: header, records, footer
        List<ByteBuffer> snapshot = new ArrayList<>();
        snapshot.add(control(0, random, ControlValueSchemas.SNAPSHOT_HEADER));
        long snapOffset = 1;
        for (MetadataRecordSchema s : MetadataSchemas.RECORDS) {
            Cell cell = new Cell(s, s.validVersions().highest());
            byte[] v = MetadataOracle.frame(MetadataRoundTripTest.kafkaMessage(cell, random), cell.version());
            snapshot.add(MemoryRecords.withRecords(snapOffset, KafkaOracle.compression(codec), new SimpleRecord(2000L, null, v)).buffer());
            snapOffset++;
        }
        snapshot.add(control(snapOffset, random, ControlValueSchemas.SNAPSHOT_FOOTER));
        snapOffset++;
        Path checkpoint = partition.resolve("00000000000000000100-0000000001.checkpoint");
        write(checkpoint, snapshot);
        expected += (int) snapOffset;

        Map<Path, Map<Long, String>> lines = dump(log, checkpoint);
        assertThat(lines.get(log)).hasSize((int) offset);
        assertThat(lines.get(checkpoint)).hasSize((int) snapOffset);

        MetadataDumpLines.Counts counts = new MetadataDumpLines.Counts();
        MetadataDumpLines.check(log, lines.get(log), counts);
        MetadataDumpLines.check(checkpoint, lines.get(checkpoint), counts);
        assertThat(counts.records).isEqualTo(expected);
        assertThat(counts.compared).isEqualTo(expected);
        assertThat(counts.kinds.keySet()).anyMatch(k -> k.startsWith("unknown "));
        for (String kind : List.of("control SNAPSHOT_HEADER", "control SNAPSHOT_FOOTER", "control KRAFT_VERSION",
                "control KRAFT_VOTERS", "control COMMIT", "control UNKNOWN", "unknown NULL_VALUE")) {
            assertThat(counts.kinds.keySet()).anyMatch(k -> k.startsWith(kind));
        }
    }

    /** A valid framed record, or a damaged or null value. */
    private static byte[] value(Cell cell, Random random) {
        byte[] v = MetadataOracle.frame(MetadataRoundTripTest.kafkaMessage(cell, random), cell.version());
        switch (random.nextInt(8)) {
            case 0: return null;
            case 1: return MetadataDumpTextTest.mutate(v, random);
            case 2: { // labelled with a version above the highest (read with the highest's layout, or refused)
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                out.write(1);
                MetadataRoundTripTest.writeVarint(out, cell.schema().apiKey());
                MetadataRoundTripTest.writeVarint(out, cell.schema().validVersions().highest() + 1 + random.nextInt(3));
                out.write(v, 3, v.length - 3);
                return cell.version() == cell.schema().validVersions().highest() ? out.toByteArray() : v;
            }
            default: return v;
        }
    }

    /** A control batch holding one random record of each schema. */
    private static ByteBuffer control(long offset, Random random, ControlValueSchema... schemas) {
        MemoryRecordsBuilder b = controlBuilder(offset);
        for (ControlValueSchema s : schemas) {
            Object m = MetadataOracle.readJson(MetadataOracle.MESSAGE_PACKAGE + s.value().name(),
                    new RandomMetadata(random).json(s.value(), (short) 0), (short) 0);
            switch (s.type()) {
                case LEADER_CHANGE: b.appendLeaderChangeMessage(1000L, (LeaderChangeMessage) m); break;
                case SNAPSHOT_HEADER: b.appendSnapshotHeaderMessage(1000L, (SnapshotHeaderRecord) m); break;
                case SNAPSHOT_FOOTER: b.appendSnapshotFooterMessage(1000L, (SnapshotFooterRecord) m); break;
                case KRAFT_VERSION: b.appendKRaftVersionMessage(1000L, (KRaftVersionRecord) m); break;
                default: b.appendVotersMessage(1000L, (VotersRecord) m); break;
            }
        }
        return b.build().buffer();
    }

    /** A control batch whose one record has a type id the builder refuses: built as type 4, key patched, CRC redone. */
    private static ByteBuffer unknownControlType(long offset, short type) {
        MemoryRecordsBuilder b = controlBuilder(offset);
        b.appendControlRecordWithOffset(offset, new SimpleRecord(1000L,
                ByteBuffer.allocate(4).putShort((short) 0).putShort((short) 4).array(), new byte[] {1, 2, 3}));
        ByteBuffer buf = b.build().buffer();
        byte[] a = new byte[buf.remaining()];
        buf.duplicate().get(a);
        for (int i = 61; i + 4 < a.length; i++) {
            if (a[i] == 8 && a[i + 1] == 0 && a[i + 2] == 0 && a[i + 3] == 0 && a[i + 4] == 4) {
                ByteBuffer.wrap(a).putShort(i + 3, type);
                java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
                crc.update(a, 21, a.length - 21);
                ByteBuffer.wrap(a).putInt(17, (int) crc.getValue());
                return ByteBuffer.wrap(a);
            }
        }
        throw new IllegalStateException("control key not found");
    }

    private static MemoryRecordsBuilder controlBuilder(long offset) {
        return new MemoryRecordsBuilder(ByteBuffer.allocate(1 << 16), RecordBatch.CURRENT_MAGIC_VALUE, Compression.NONE,
                TimestampType.CREATE_TIME, offset, 1000L, RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH,
                RecordBatch.NO_SEQUENCE, false, true, 3, 1 << 16);
    }

    private static void write(Path file, List<ByteBuffer> batches) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer b : batches) {
            byte[] a = new byte[b.remaining()];
            b.duplicate().get(a);
            out.write(a);
        }
        Files.write(file, out.toByteArray());
    }

    /** Runs {@code DumpLogSegments.main --cluster-metadata-decoder} on the files; record lines by file and offset. */
    private static Map<Path, Map<Long, String>> dump(Path... files) throws Exception {
        List<String> printed = DumpOutput.run("--cluster-metadata-decoder", "--files",
                String.join(",", java.util.Arrays.stream(files).map(Path::toString).toList()));
        Map<Path, Map<Long, String>> byFile = new HashMap<>();
        DumpOutput.bySection(printed, Path::of, byFile);
        return byFile;
    }
}
