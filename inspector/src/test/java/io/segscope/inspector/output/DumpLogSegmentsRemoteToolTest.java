package io.segscope.inspector.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.DumpOutput;
import io.segscope.format.coordinator.remote.RemoteLogMetadataOracle;
import io.segscope.inspector.Run;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.server.log.remote.metadata.storage.serialization.RemoteLogMetadataSerde;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end against the real tool: a {@code __remote_log_metadata-0} segment written with Kafka's
 * {@code MemoryRecordsBuilder} (random records of the four kinds from {@code RemoteLogMetadataSerde},
 * damaged values, a null value, an unknown apiKey), dumped by Kafka 4.4.0's
 * {@code DumpLogSegments --remote-log-metadata-decoder} and by {@code segscope dump --format kafka}
 * (decoder chosen by topic name): every record line is the same. Text and jsonl name the types.
 */
class DumpLogSegmentsRemoteToolTest {
    @Test
    void printsWhatDumpLogSegmentsPrints(@TempDir Path dir) throws Exception {
        Random random = new Random(4400);
        RemoteLogMetadataSerde serde = new RemoteLogMetadataSerde();
        Path partition = dir.resolve("__remote_log_metadata-0");
        Files.createDirectories(partition);
        MemoryRecordsBuilder b = new MemoryRecordsBuilder(ByteBuffer.allocate(1 << 20), RecordBatch.CURRENT_MAGIC_VALUE,
                Compression.NONE, TimestampType.CREATE_TIME, 0L, 1000L, RecordBatch.NO_PRODUCER_ID,
                RecordBatch.NO_PRODUCER_EPOCH, RecordBatch.NO_SEQUENCE, false, false, 0, 1 << 20);
        int n = 0;
        for (; n < 200; n++) {
            byte[] v = serde.serialize(RemoteLogMetadataOracle.random(n % 4, random));
            if (n % 7 == 6) {
                v[random.nextInt(v.length)] ^= (byte) (1 + random.nextInt(255));
            }
            b.append(1000L + n, n % 5 == 0 ? new byte[] {(byte) n} : null, v);
        }
        b.append(2000L, (byte[]) null, (byte[]) null);
        b.append(2001L, null, new byte[] {1, 9, 0, 0});
        n += 2;
        ByteBuffer buf = b.build().buffer();
        byte[] a = new byte[buf.remaining()];
        buf.get(a);
        Path log = partition.resolve("00000000000000000000.log");
        Files.write(log, a);

        Map<Path, Map<Long, String>> kafka = new HashMap<>();
        DumpOutput.bySection(DumpOutput.run("--remote-log-metadata-decoder", "--files", log.toString()), Path::of, kafka);
        assertThat(kafka.get(log)).hasSize(n);

        Run ours = Run.of("dump", "--format", "kafka", log.toString());
        Map<Long, String> mine = DumpOutput.byOffset(List.of(ours.out().split("\n")));
        assertThat(mine).hasSize(n);
        int errors = 0;
        for (long o = 0; o < n; o++) {
            assertThat(mine.get(o)).isEqualTo(kafka.get(log).get(o));
            errors += mine.get(o).contains("payload: Error at offset") ? 1 : 0;
        }
        assertThat(errors).isGreaterThanOrEqualTo(3); // the null value, the unknown apiKey, and damage

        String text = Run.of("dump", "--type", "REMOTE_PARTITION_DELETE_METADATA_RECORD", partition.toString()).out();
        assertThat(text).contains(" REMOTE_PARTITION_DELETE_METADATA_RECORD v0 {\"topicIdPartition\":{\"name\":");
        String jsonl = Run.of("dump", "--format", "jsonl", "--to-offset", "0", log.toString()).out();
        assertThat(jsonl).contains("\"value\":{\"type\":\"REMOTE_LOG_SEGMENT_METADATA_RECORD\",\"version\":0,\"data\":{\"remoteLogSegmentId\":");
        List<String> lines = new ArrayList<>(List.of(Run.of("dump", "--format", "jsonl", "--from-offset", String.valueOf(n - 1),
                log.toString()).out().split("\n")));
        assertThat(lines.get(0)).contains("\"reason\":\"invalid-metadata-record\"");
    }
}
