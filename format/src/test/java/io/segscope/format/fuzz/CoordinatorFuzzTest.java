package io.segscope.format.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorStreamTest;
import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.error.FormatException;
import io.segscope.format.json.CoordinatorStream;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.RecordIterator;

import java.nio.ByteBuffer;

/**
 * Coordinator records from the fuzzer's bytes (format/FUZZING.md), for the three coordinator
 * topics: {@link CoordinatorRecordDecoder} returns a result for anything (an {@code Unknown} for
 * bytes that do not decode, never an exception), and whenever {@link CoordinatorStream}, the
 * dump's fast path, writes a record, the decoder decodes it and {@code CoordinatorJson} writes
 * the same text ({@link CoordinatorStreamTest#sameAsDecoder}).
 */
class CoordinatorFuzzTest {
    private static final CoordinatorTopic[] TOPICS = CoordinatorTopic.values();

    /**
     * The bytes split in two: bytes 0-1 give the key length (big-endian, the top bit set for a
     * tombstone), the key follows, the value is the rest. Key and value stay in the fuzzer's
     * array, at offsets other than zero, as a record's key and value lie inside a batch.
     */
    @FuzzTest(maxDuration = "30s")
    void keyValue(byte[] bytes) {
        if (bytes.length < 2) {
            return;
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes).asReadOnlyBuffer();
        boolean tombstone = (bytes[0] & 0x80) != 0;
        int keyLength = Math.min(((bytes[0] & 0x7f) << 8) | (bytes[1] & 0xff), bytes.length - 2);
        int valueOffset = 2 + keyLength;
        int valueLength = tombstone ? -1 : bytes.length - valueOffset;
        for (CoordinatorTopic topic : TOPICS) {
            CoordinatorRecordDecoder.forTopic(topic).decode(buf, 2, keyLength, tombstone ? null : buf, valueOffset,
                    valueLength);
            CoordinatorStreamTest.sameAsDecoder(topic, buf, 2, keyLength, tombstone ? null : buf, valueOffset,
                    valueLength, "fuzzed " + topic);
        }
    }

    /**
     * The bytes as a segment of a coordinator topic: every record of every batch goes through the
     * same comparison, for each of the three topics (the seeds are segments of all three).
     */
    @FuzzTest(maxDuration = "30s")
    void segment(byte[] bytes) {
        try (BatchReader reader = new BatchReader(Fuzzed.source(bytes, "00000000000000000000.log"), Fuzzed.OPTIONS)) {
            while (reader.next()) {
                Batch b = reader.batch();
                if (b.isControl()) {
                    continue;
                }
                try {
                    RecordIterator it = b.records();
                    while (it.next()) {
                        LogRecord r = it.record();
                        ByteBuffer kb = r.keyLength() < 0 ? null : r.buffer();
                        ByteBuffer vb = r.valueLength() < 0 ? null : r.buffer();
                        for (CoordinatorTopic topic : TOPICS) {
                            CoordinatorStreamTest.sameAsDecoder(topic, kb, r.keyOffset(), r.keyLength(), vb,
                                    r.valueOffset(), r.valueLength(), "offset " + r.offset() + " of " + topic);
                        }
                    }
                } catch (FormatException expected) {
                    // a record that does not parse: the rest of the batch is skipped, as the dump skips it
                }
            }
        } catch (FormatException expected) {
            // an entry that cannot be framed ends the file, as it ends the reader
        }
    }
}
