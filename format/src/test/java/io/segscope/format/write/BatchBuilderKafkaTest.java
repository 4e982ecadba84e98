package io.segscope.format.write;

import io.segscope.format.record.CompressionType;
import io.segscope.testkit.Tries;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Random batches (every codec, null and non-null keys and values, headers, control, transactional,
 * idempotent, log append time, delete horizon, offset gaps, records larger than Kafka's 16 KiB stream
 * buffer and lz4's 64 KiB block) built by {@link BatchBuilder} and by Kafka 4.4.0's
 * {@code MemoryRecordsBuilder}: byte for byte the same, for every codec. One builder is reused for
 * every batch of a try, so state left from an earlier batch would show.
 */
class BatchBuilderKafkaTest {

    @TestFactory
    Stream<DynamicTest> sameBytesAsKafkaForEveryCodec() {
        return Tries.of(0x5E6B17DL, 120, gen -> {
            BatchBuilder builder = new BatchBuilder(gen.intBetween(64, 4096));
            RecordHeaders headers = new RecordHeaders();
            for (CompressionType codec : CompressionType.values()) {
                KafkaBatches.Spec spec = KafkaBatches.spec(gen, codec, gen.longBetween(0, 1L << 40));
                ByteBuffer expected = KafkaBatches.kafka(spec);
                ByteBuffer actual = KafkaBatches.segscope(builder, headers, spec);
                if (!actual.equals(expected)) {
                    throw new AssertionError(codec + " batch differs: expected " + expected.remaining() + " bytes, got "
                            + actual.remaining() + "; first difference at " + actual.mismatch(expected) + "\n"
                            + HexFormat.of().formatHex(head(expected)) + "\n" + HexFormat.of().formatHex(head(actual)));
                }
            }
        });
    }

    private static byte[] head(ByteBuffer b) {
        byte[] out = new byte[Math.min(200, b.remaining())];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void anEmptyBatchIsNoBytes() {
        BatchBuilder b = new BatchBuilder();
        assertThat(b.begin(5, CompressionType.ZSTD).finish().remaining()).isZero();
    }

    @Test
    void offsetsMustIncrease() {
        BatchBuilder b = new BatchBuilder();
        b.begin(5, CompressionType.NONE).append(6, 1, null, null, RecordHeaders.NONE);
        assertThatThrownBy(() -> b.append(6, 1, null, null, RecordHeaders.NONE)).isInstanceOf(IllegalArgumentException.class);
    }
}
