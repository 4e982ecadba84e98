package io.segscope.inspector.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.DumpOutput;
import io.segscope.format.coordinator.KafkaOracle;
import io.segscope.format.coordinator.KafkaRoundTripTest;
import io.segscope.format.coordinator.RandomMessages;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.RecordIterator;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * End to end against the real tool: a segment of random coordinator records (every type and
 * version, tombstones, unknown types, unknown versions, truncated values) written with Kafka's
 * classes, dumped by Kafka 4.4.0's {@code DumpLogSegments} with the topic's decoder, and read
 * back by segscope's batch reader and coordinator decoder: every record line ends with the same
 * {@code key:}/{@code payload:} text.
 */
class DumpLogSegmentsToolTest {

    @ParameterizedTest
    @CsvSource({
        "CONSUMER_OFFSETS, --offsets-decoder, none, 1",
        "CONSUMER_OFFSETS, --offsets-decoder, lz4, 2",
        "CONSUMER_OFFSETS, --offsets-decoder, zstd, 3",
        "TRANSACTION_STATE, --transaction-log-decoder, none, 4",
        "TRANSACTION_STATE, --transaction-log-decoder, gzip, 5",
        "SHARE_GROUP_STATE, --share-group-state-decoder, none, 6",
        "SHARE_GROUP_STATE, --share-group-state-decoder, snappy, 7"})
    void printsWhatDumpLogSegmentsPrints(CoordinatorTopic topic, String decoderOption, String codec, long seed,
                                         @TempDir Path dir) throws Exception {
        Random random = new Random(seed);
        List<SimpleRecord> records = new ArrayList<>();
        for (KafkaRoundTripTest.Cell cell : KafkaRoundTripTest.cells()) {
            if (cell.topic() != topic) {
                continue;
            }
            for (int i = 0; i < 4; i++) {
                records.add(record(cell, random));
            }
        }
        Path segment = dir.resolve(topic.topicName() + "-0").resolve("00000000000000000000.log");
        Files.createDirectories(segment.getParent());
        MemoryRecords mr = MemoryRecords.withRecords(KafkaOracle.compression(codec), records.toArray(new SimpleRecord[0]));
        byte[] bytes = new byte[mr.sizeInBytes()];
        mr.buffer().duplicate().get(bytes);
        Files.write(segment, bytes);

        Map<Long, String> lines = DumpOutput.byOffset(DumpOutput.run(decoderOption, "--files", segment.toString()));
        assertThat(lines).hasSize(records.size());

        CoordinatorRecordDecoder decoder = CoordinatorRecordDecoder.forTopic(topic);
        int seen = 0;
        try (ByteSource source = MappedSource.open(segment, segment.getFileName().toString());
             BatchReader reader = new BatchReader(source)) {
            while (reader.next()) {
                RecordIterator it = reader.batch().records();
                while (it.next()) {
                    LogRecord r = it.record();
                    CoordinatorResult result = decoder.decode(r.buffer(), r.keyOffset(), r.keyLength(),
                            r.buffer(), r.valueOffset(), r.valueLength());
                    DumpLines.assertSameText(lines.get(r.offset()), result, r.offset(), topic + " offset " + r.offset());
                    seen++;
                }
            }
        }
        assertThat(seen).isEqualTo(records.size());
    }

    /** A valid random record, or one of the damaged kinds DumpLogSegments reports on its own line. */
    private static SimpleRecord record(KafkaRoundTripTest.Cell cell, Random random) {
        RandomMessages gen = new RandomMessages(random);
        byte[] k = KafkaOracle.keyBytes(gen.key(cell));
        byte[] v = KafkaOracle.valueBytes(cell.version(), gen.value(cell));
        switch (random.nextInt(10)) {
            case 0: // tombstone
                return new SimpleRecord(1000L, k, null);
            case 1: // a record type this Kafka does not define
                ByteBuffer.wrap(k).putShort(0, (short) (24 + random.nextInt(100)));
                return new SimpleRecord(1000L, k, v);
            case 2: // a value version its type does not define
                ByteBuffer.wrap(v).putShort(0, (short) (cell.schema().valueVersions().highest() + 1 + random.nextInt(5)));
                return new SimpleRecord(1000L, k, v);
            case 3: // truncated value
                return new SimpleRecord(1000L, k, Arrays.copyOf(v, random.nextInt(v.length)));
            default:
                return new SimpleRecord(1000L, k, v);
        }
    }
}
