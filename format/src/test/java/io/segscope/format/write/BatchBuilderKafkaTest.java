package io.segscope.format.write;

import io.segscope.format.io.ByteSource;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.BatchView;
import io.segscope.format.record.CompressionType;
import io.segscope.format.record.HeaderIterator;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.RecordIterator;
import io.segscope.testkit.Tries;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
        return Tries.of(0x5E6B17DL, 300, gen -> {
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
                readBack(actual, spec);
            }
        });
    }

    /** segscope's own reader takes the batch back: valid CRC, the header and every record as specified. */
    private static void readBack(ByteBuffer built, KafkaBatches.Spec spec) {
        try (BatchReader reader = new BatchReader(ByteSource.wrap(built.duplicate(), "built"))) {
            assertThat(reader.next()).isTrue();
            BatchView batch = (BatchView) reader.batch();
            batch.ensureValid();
            assertThat(batch.compression()).isEqualTo(spec.codec());
            assertThat(batch.timestampType()).isEqualTo(spec.timestampType());
            assertThat(batch.isControl()).isEqualTo(spec.control());
            assertThat(batch.isTransactional()).isEqualTo(spec.transactional());
            assertThat(batch.deleteHorizonMs()).isEqualTo(spec.deleteHorizon());
            assertThat(batch.producerId()).isEqualTo(spec.producerId());
            assertThat(batch.lastOffset()).isEqualTo(spec.lastOffset());
            assertThat(batch.recordsCount()).isEqualTo(spec.records().size());
            RecordIterator it = batch.records();
            for (KafkaBatches.Rec rec : spec.records()) {
                assertThat(it.next()).isTrue();
                LogRecord r = it.record();
                assertThat(r.offset()).isEqualTo(rec.offset());
                if (spec.timestampType() == io.segscope.format.record.TimestampType.CREATE_TIME) {
                    assertThat(r.timestamp()).isEqualTo(rec.timestamp());
                }
                assertThat(slice(r.buffer(), r.keyOffset(), r.keyLength())).isEqualTo(rec.key());
                assertThat(slice(r.buffer(), r.valueOffset(), r.valueLength())).isEqualTo(rec.value());
                assertThat(r.headerCount()).isEqualTo(rec.headers().size());
                HeaderIterator h = r.headers();
                for (KafkaBatches.Head head : rec.headers()) {
                    assertThat(h.next()).isTrue();
                    assertThat(new String(slice(h.buffer(), h.keyOffset(), h.keyLength()), StandardCharsets.UTF_8))
                            .isEqualTo(head.key());
                    assertThat(slice(h.buffer(), h.valueOffset(), h.valueLength())).isEqualTo(head.value());
                }
            }
            assertThat(it.next()).isFalse();
            assertThat(reader.next()).isFalse();
        }
    }

    private static byte[] slice(ByteBuffer b, int offset, int length) {
        if (length < 0) {
            return null;
        }
        byte[] out = new byte[length];
        b.get(offset, out);
        return out;
    }

    private static byte[] head(ByteBuffer b) {
        byte[] out = new byte[Math.min(200, b.remaining())];
        b.duplicate().get(out);
        return out;
    }

    /**
     * Fixed batches across the stream buffers' edges: many small records filling Kafka's 16 KiB
     * buffer several times, single values just under, at and over 16 KiB (written past the buffer),
     * values over lz4's 64 KiB block and snappy's 32 KiB block, incompressible and repetitive.
     */
    @Test
    void sameBytesAsKafkaAcrossBufferAndBlockEdges() {
        BatchBuilder builder = new BatchBuilder(64);
        RecordHeaders headers = new RecordHeaders();
        java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        int[] sizes = {0, 1, 16_383 - 20, 16_383, 16_384, 16_385, 32_768, 65_535, 65_536, 65_537, 200_000};
        for (CompressionType codec : CompressionType.values()) {
            for (int size : sizes) {
                for (boolean noise : new boolean[] {false, true}) {
                    java.util.List<KafkaBatches.Rec> recs = new java.util.ArrayList<>();
                    for (int i = 0; i < 3; i++) {
                        byte[] v = new byte[size];
                        if (noise) {
                            random.nextBytes(v);
                        } else {
                            java.util.Arrays.fill(v, (byte) ('a' + i));
                        }
                        recs.add(new KafkaBatches.Rec(100 + i, 1_700_000_000_000L + i, new byte[] {(byte) i}, v,
                                java.util.List.of(new KafkaBatches.Head("h", v.length > 10 ? java.util.Arrays.copyOf(v, 10) : v))));
                    }
                    for (int i = 0; i < 2000; i++) {
                        recs.add(new KafkaBatches.Rec(103 + i, 1_700_000_000_000L - i, null, new byte[] {(byte) i, 7, 7, 7},
                                java.util.List.of()));
                    }
                    KafkaBatches.Spec spec = new KafkaBatches.Spec(codec, 100, 3, io.segscope.format.record.TimestampType.CREATE_TIME,
                            -1, -1, (short) -1, -1, false, false, -1, recs);
                    ByteBuffer expected = KafkaBatches.kafka(spec);
                    ByteBuffer actual = KafkaBatches.segscope(builder, headers, spec);
                    assertThat(actual.mismatch(expected)).as(codec + " value size " + size + (noise ? " noise" : " repetitive"))
                            .isEqualTo(-1);
                    readBack(actual, spec);
                }
            }
        }
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
