package io.segscope.inspector.output;

import io.segscope.inspector.Run;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A coordinator record whose key decodes and whose value does not: text and jsonl show the key,
 * name the failure with the same finding kind, and jsonl keeps one key shape and gives the
 * normalised owner fields.
 */
class UndecodedRecordOutputTest {
    @Test
    void aDecodedKeyIsShownWhenTheValueDoesNotDecode(@TempDir Path dir) throws IOException {
        byte[] group = "g1".getBytes(StandardCharsets.UTF_8);
        byte[] topic = "orders".getBytes(StandardCharsets.UTF_8);
        ByteBuffer key = ByteBuffer.allocate(2 + 2 + group.length + 2 + topic.length + 4);
        key.putShort((short) 1).putShort((short) group.length).put(group).putShort((short) topic.length).put(topic).putInt(3);
        byte[] value = {0, 3, 0, 0, 0}; // OffsetCommitValue v3, cut short
        MemoryRecords records = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(1796011412958L, key.array(), value));
        Path part = dir.resolve("__consumer_offsets-7");
        Files.createDirectories(part);
        ByteBuffer buf = records.buffer();
        byte[] bytes = new byte[buf.remaining()];
        buf.get(bytes);
        Files.write(part.resolve("00000000000000000000.log"), bytes);

        Run text = Run.of("dump", part.toString());
        assertThat(text.out()).contains(" UNKNOWN invalid-coordinator-value type 1 version 3 key "
                + "{\"group\":\"g1\",\"topic\":\"orders\",\"partition\":3}: Could not read record with version 3 from value's buffer");

        Run jsonl = Run.of("dump", "--format", "jsonl", part.toString());
        String line = jsonl.out().strip();
        assertThat(line).startsWith("{\"line\":\"record\",")
                .contains(",\"content\":\"coordinator\",\"owner\":\"g1\",\"ownerKind\":\"group\",\"keyTopic\":\"orders\","
                        + "\"keyTopicId\":null,\"keyPartition\":3,")
                .contains(",\"key\":{\"type\":1,\"name\":\"OffsetCommit\",\"data\":{\"group\":\"g1\",\"topic\":\"orders\",\"partition\":3}},")
                .contains(",\"value\":{\"version\":3,\"data\":null,\"base64\":\"AAMAAAA=\"},")
                .contains(",\"error\":{\"reason\":\"invalid-coordinator-value\",\"message\":\"Could not read record with version 3");
    }
}
