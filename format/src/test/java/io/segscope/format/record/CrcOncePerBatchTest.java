package io.segscope.format.record;

import io.segscope.format.io.ByteSource;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A batch's CRC is computed once per batch, however often it is asked for: writers ask per record
 * (jsonl's {@code crcValid}), the walk asks once more. Shown by changing a byte of the batch after
 * the first question: the answer for that batch does not change, the next batch is computed anew.
 */
class CrcOncePerBatchTest {
    @Test
    void theCrcOfABatchIsComputedOnce() {
        for (String codec : new String[]{"none", "lz4"}) {
            ByteBuffer bytes = Segments.v2(2, 20, codec);
            try (ByteSource source = ByteSource.wrap(bytes, "crc.log"); BatchReader reader = new BatchReader(source)) {
                assertThat(reader.next()).isTrue();
                Batch first = reader.batch();
                assertThat(first.isValid()).isTrue();
                int last = (int) (first.position() + first.sizeInBytes() - 1);
                bytes.put(last, (byte) (bytes.get(last) ^ 0x5a));
                for (int i = 0; i < 100; i++) {
                    assertThat(first.isValid()).as(codec + ": asked again, the batch's CRC is not recomputed").isTrue();
                }
                // the next batch's CRC is its own
                assertThat(reader.next()).isTrue();
                assertThat(reader.batch().isValid()).isTrue();
            }
            try (ByteSource source = ByteSource.wrap(bytes, "crc.log"); BatchReader reader = new BatchReader(source)) {
                assertThat(reader.next()).isTrue();
                assertThat(reader.batch().isValid()).as(codec + ": a new read sees the changed byte").isFalse();
            }
        }
    }

    @Test
    void legacyEntriesToo() {
        ByteBuffer bytes = Segments.legacy((byte) 1, "none", 3, 0);
        try (ByteSource source = ByteSource.wrap(bytes, "legacy.log"); BatchReader reader = new BatchReader(source)) {
            assertThat(reader.next()).isTrue();
            Batch first = reader.batch();
            assertThat(first.isValid()).isTrue();
            int last = (int) (first.position() + first.sizeInBytes() - 1);
            bytes.put(last, (byte) (bytes.get(last) ^ 0x5a));
            assertThat(first.isValid()).isTrue();
        }
    }
}
