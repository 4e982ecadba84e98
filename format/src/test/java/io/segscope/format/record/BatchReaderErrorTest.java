package io.segscope.format.record;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Every way a .log can be damaged gives a typed result naming the violation and the position. */
class BatchReaderErrorTest {

    private static int countBatches(ByteBuffer seg, BatchReader[] holder) {
        BatchReader r = new BatchReader(ByteSource.wrap(seg, "00000000000000000000.log"));
        holder[0] = r;
        int n = 0;
        while (r.next()) {
            n++;
        }
        return n;
    }

    private static FormatException walkAll(ByteBuffer seg) {
        return catchThrowableOfType(FormatException.class, () -> {
            try (BatchReader r = new BatchReader(ByteSource.wrap(seg, "00000000000000000000.log"))) {
                while (r.next()) {
                    Batch b = r.batch();
                    b.ensureValid();
                    RecordIterator it = b.records();
                    while (it.next()) {
                        it.record().headers();
                    }
                }
            }
        });
    }

    private static int kafkaBatches(ByteBuffer seg) {
        int n = 0;
        for (RecordBatch ignored : MemoryRecords.readableRecords(seg.duplicate()).batches()) {
            n++;
        }
        return n;
    }

    @Test
    void truncationMidBatchIsAPartialTailLikeKafkasSilentStop() {
        ByteBuffer full = Segments.v2(3, 5, "none");
        int third = Segments.batchPosition(full, 2);
        ByteBuffer cut = Segments.copy(full).limit(third + 30);
        BatchReader[] r = new BatchReader[1];
        assertThat(countBatches(cut.slice(), r)).isEqualTo(2).isEqualTo(kafkaBatches(cut.slice()));
        Tail tail = r[0].tail();
        assertThat(tail.kind()).isEqualTo(Tail.Kind.PARTIAL);
        assertThat(tail.validBytes()).isEqualTo(third);
        assertThat(tail.tailBytes()).isEqualTo(30);
        assertThat(tail.declaredSize()).isEqualTo(full.getInt(third + 8));
    }

    @Test
    void fewerThanAHeaderLeftIsAPartialTail() {
        ByteBuffer full = Segments.v2(1, 2, "none");
        ByteBuffer seg = Segments.concat(full, ByteBuffer.wrap(new byte[]{1, 2, 3, 4, 5}));
        BatchReader[] r = new BatchReader[1];
        assertThat(countBatches(seg, r)).isEqualTo(1).isEqualTo(kafkaBatches(seg));
        assertThat(r[0].tail()).isEqualTo(new Tail(Tail.Kind.PARTIAL, full.remaining(), 5, -1));
    }

    @Test
    void zeroFilledTailIsReportedWhereKafkaThrows() {
        ByteBuffer full = Segments.v2(2, 3, "none");
        ByteBuffer seg = Segments.concat(full, ByteBuffer.allocate(4096));
        BatchReader[] r = new BatchReader[1];
        assertThat(countBatches(seg, r)).isEqualTo(2);
        assertThat(r[0].tail()).isEqualTo(new Tail(Tail.Kind.ZERO_FILL, full.remaining(), 4096, 0));
        // Kafka's iterator reads size 0 < 14 and calls it corruption
        assertThatThrownBy(() -> kafkaBatches(seg)).isInstanceOf(CorruptRecordException.class);
    }

    @Test
    void cleanEndHasNoTail() {
        ByteBuffer full = Segments.v2(2, 3, "none");
        BatchReader[] r = new BatchReader[1];
        countBatches(full, r);
        assertThat(r[0].tail()).isEqualTo(new Tail(Tail.Kind.CLEAN, full.remaining(), 0, -1));
    }

    @Test
    void badMagicNamesTheBatch() {
        ByteBuffer seg = Segments.v2(3, 2, "none");
        int p = Segments.batchPosition(seg, 1);
        seg.put(p + 16, (byte) 7);
        FormatException e = walkAll(seg);
        assertThat(e.violation()).isEqualTo(Violation.INVALID_MAGIC);
        assertThat(e.position()).isEqualTo(p);
        assertThat(e.baseOffset()).isEqualTo(2);
        assertThat(e.field()).isEqualTo("magic");
        assertThat(e.actual()).isEqualTo("7");
        assertThat(e.getMessage()).startsWith("00000000000000000000.log position " + p + ": invalid-magic");
    }

    @Test
    void sizeBelowTheMinimumIsCorruptionWhenBytesFollow() {
        ByteBuffer seg = Segments.v2(3, 2, "none");
        int p = Segments.batchPosition(seg, 1);
        seg.putInt(p + 8, 13);
        FormatException e = walkAll(seg);
        assertThat(e.violation()).isEqualTo(Violation.BATCH_TOO_SMALL);
        assertThat(e.position()).isEqualTo(p);
        assertThatThrownBy(() -> kafkaBatches(seg)).isInstanceOf(CorruptRecordException.class);
    }

    @Test
    void v2BatchShorterThanItsHeader() {
        ByteBuffer seg = Segments.v2(1, 2, "none");
        seg.putInt(8, 40); // 52 bytes < 61
        FormatException e = walkAll(seg);
        assertThat(e.violation()).isEqualTo(Violation.BATCH_TOO_SMALL);
        assertThat(e.position()).isZero();
        assertThat(e.field()).isEqualTo("batchLength");
    }

    @Test
    void flippedByteInRecordsFailsTheCrcWithBothValues() {
        ByteBuffer seg = Segments.v2(2, 4, "none");
        int p = Segments.batchPosition(seg, 1);
        seg.put(p + 80, (byte) (seg.get(p + 80) ^ 0x10));
        RecordBatch kafka = null;
        for (RecordBatch b : MemoryRecords.readableRecords(seg.duplicate()).batches()) {
            kafka = b;
        }
        assertThat(kafka.isValid()).isFalse();
        try (BatchReader r = new BatchReader(ByteSource.wrap(seg, "x.log"))) {
            assertThat(r.next()).isTrue();
            assertThat(r.batch().isValid()).isTrue();
            assertThat(r.next()).isTrue();
            Batch b = r.batch();
            assertThat(b.isValid()).isFalse();
            FormatException e = catchThrowableOfType(FormatException.class, b::ensureValid);
            assertThat(e.violation()).isEqualTo(Violation.CRC_MISMATCH);
            assertThat(e.position()).isEqualTo(p);
            assertThat(e.baseOffset()).isEqualTo(4);
            assertThat(e.actual()).isEqualTo(String.format("0x%08x", kafka.checksum()));
            assertThat(e.expected()).isEqualTo(String.format("0x%08x", b.computedCrc()));
        }
    }

    @Test
    void crcValidButCountTooHighIsPrematureEndLikeKafka() {
        ByteBuffer seg = Segments.v2(1, 4, "none");
        seg.putInt(57, 5);
        Segments.fixCrc(seg, 0);
        FormatException e = walkAll(seg);
        assertThat(e.violation()).isEqualTo(Violation.INVALID_RECORD_COUNT);
        assertThat(e.position()).isZero();
        assertThatThrownBy(() -> iterateKafka(seg)).isInstanceOf(InvalidRecordException.class);
    }

    @Test
    void crcValidButCountTooLowLeavesRecordsRemainingLikeKafka() {
        ByteBuffer seg = Segments.v2(1, 4, "none");
        seg.putInt(57, 3);
        Segments.fixCrc(seg, 0);
        FormatException e = walkAll(seg);
        assertThat(e.violation()).isEqualTo(Violation.RECORDS_REMAINING);
        assertThatThrownBy(() -> iterateKafka(seg)).isInstanceOf(InvalidRecordException.class);
    }

    @Test
    void negativeCountIsInvalid() {
        ByteBuffer seg = Segments.v2(1, 2, "none");
        seg.putInt(57, -1);
        Segments.fixCrc(seg, 0);
        FormatException e = walkAll(seg);
        assertThat(e.violation()).isEqualTo(Violation.INVALID_RECORD_COUNT);
        assertThat(e.actual()).isEqualTo("-1");
    }

    @Test
    void overlongVarintInARecord() {
        ByteBuffer seg = Segments.v2(1, 1, "none");
        // first record starts at 61: length varint, attributes, timestampDelta, offsetDelta, keyLength...
        for (int i = 0; i < 6; i++) {
            seg.put(61 + 2 + i, (byte) 0xff);
        }
        Segments.fixCrc(seg, 0);
        FormatException e = walkAll(seg);
        assertThat(e.violation()).isIn(Violation.VARINT_TOO_LONG, Violation.INVALID_RECORD);
        assertThat(e.position()).isZero();
        assertThat(e.baseOffset()).isZero();
        assertThatThrownBy(() -> iterateKafka(seg)).isInstanceOf(InvalidRecordException.class);
    }

    @Test
    void recordLengthPastTheBatch() {
        ByteBuffer seg = Segments.v2(1, 2, "none");
        seg.put(61, (byte) 0x7e); // length varint 63: more than the records left
        Segments.fixCrc(seg, 0);
        FormatException e = walkAll(seg);
        assertThat(e.violation()).isEqualTo(Violation.INVALID_RECORD);
        assertThat(e.field()).isEqualTo("length");
    }

    @Test
    void unknownCodecIdIsUnsupported() {
        ByteBuffer seg = Segments.v2(1, 2, "none");
        seg.putShort(21, (short) 6);
        Segments.fixCrc(seg, 0);
        FormatException e = walkAll(seg);
        assertThat(e.violation()).isEqualTo(Violation.UNSUPPORTED_COMPRESSION);
        assertThat(e.actual()).isEqualTo("6");
    }

    @Test
    void decompressionCapStopsABombWithATypedError() {
        ByteBuffer seg = Segments.v2(1, 200, "gzip");
        try (BatchReader r = new BatchReader(ByteSource.wrap(seg, "bomb.log"), ReaderOptions.defaults().withMaxDecompressedBytes(4096))) {
            assertThat(r.next()).isTrue();
            FormatException e = catchThrowableOfType(FormatException.class, () -> r.batch().records());
            assertThat(e.violation()).isEqualTo(Violation.DECOMPRESSED_TOO_LARGE);
            assertThat(e.position()).isZero();
        }
    }

    /**
     * A bomb of every codec (one record of 8 MiB of zeros, a few KiB compressed, built by Kafka's
     * own builder): refused at a 1 MiB cap with a typed error, not inflated.
     */
    @Test
    void decompressionBombsOfEveryCodecStopAtTheCap() {
        byte[] zeros = new byte[8 << 20];
        for (org.apache.kafka.common.compress.Compression c : java.util.List.of(
                org.apache.kafka.common.compress.Compression.gzip().build(),
                org.apache.kafka.common.compress.Compression.snappy().build(),
                org.apache.kafka.common.compress.Compression.lz4().build(),
                org.apache.kafka.common.compress.Compression.zstd().build())) {
            ByteBuffer bomb = MemoryRecords.withRecords(c, new org.apache.kafka.common.record.internal.SimpleRecord(0L, null, zeros))
                    .buffer();
            assertThat(bomb.remaining()).as("%s compressed", c.type()).isLessThan(1 << 20);
            try (BatchReader r = new BatchReader(ByteSource.wrap(bomb, "bomb.log"),
                    ReaderOptions.defaults().withMaxDecompressedBytes(1 << 20))) {
                assertThat(r.next()).isTrue();
                FormatException e = catchThrowableOfType(FormatException.class, () -> {
                    io.segscope.format.record.RecordIterator it = r.batch().records();
                    while (it.next()) {
                        it.record();
                    }
                });
                assertThat(e).as("%s", c.type()).isNotNull();
                assertThat(e.violation()).as("%s", c.type()).isEqualTo(Violation.DECOMPRESSED_TOO_LARGE);
            }
        }
    }

    @Test
    void garbledPayloadOfEveryCodecIsADecompressionFailure() {
        for (String codec : new String[]{"gzip", "snappy", "lz4", "zstd"}) {
            ByteBuffer seg = Segments.v2(1, 20, codec);
            for (int i = 61 + 8; i < seg.limit() - 4; i += 3) {
                seg.put(i, (byte) (seg.get(i) * 31 + 7));
            }
            Segments.fixCrc(seg, 0);
            FormatException e = walkAll(seg);
            assertThat(e).as(codec).isNotNull();
            assertThat(e.violation()).as(codec).isIn(Violation.DECOMPRESSION_FAILED,
                    Violation.INVALID_RECORD, Violation.RECORDS_REMAINING, Violation.INVALID_RECORD_COUNT,
                    Violation.VARINT_TOO_LONG, Violation.DECOMPRESSED_TOO_LARGE);
        }
    }

    @Test
    void truncatedPayloadOfEveryCodecFailsInsideTheCodec() {
        for (String codec : new String[]{"gzip", "snappy", "lz4", "zstd"}) {
            ByteBuffer seg = Segments.v2(1, 20, codec);
            int size = seg.getInt(8) + 12;
            int newSize = 61 + (size - 61) / 2;
            ByteBuffer cut = Segments.copy(seg).limit(newSize).slice();
            cut.putInt(8, newSize - 12);
            try (BatchReader r = new BatchReader(ByteSource.wrap(cut, "t.log"))) {
                assertThat(r.next()).isTrue();
                FormatException e = catchThrowableOfType(FormatException.class, () -> {
                    RecordIterator it = r.batch().records();
                    while (it.next()) {
                        it.record();
                    }
                });
                assertThat(e).as(codec).isNotNull();
                assertThat(e.violation()).as(codec).isIn(Violation.DECOMPRESSION_FAILED, Violation.INVALID_RECORD,
                        Violation.INVALID_RECORD_COUNT);
                assertThat(e.position()).isZero();
            }
        }
    }

    @Test
    void legacyWrapperWithCompressedInnerMessageIsRejectedLikeKafka() throws java.io.IOException {
        // Kafka's builder cannot write this shape: a gzip wrapper whose inner message set holds
        // another gzip wrapper. Build it by hand: the inner set is a whole compressed legacy entry.
        ByteBuffer innerSet = Segments.legacy((byte) 1, "gzip", 2, 0);
        java.io.ByteArrayOutputStream zipped = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(zipped)) {
            byte[] raw = new byte[innerSet.remaining()];
            innerSet.duplicate().get(raw);
            gz.write(raw);
        }
        byte[] value = zipped.toByteArray();
        int messageSize = 4 + 1 + 1 + 8 + 4 + 4 + value.length; // crc, magic, attributes, timestamp, key len, value len
        ByteBuffer seg = ByteBuffer.allocate(12 + messageSize);
        seg.putLong(0, 1L);                      // wrapper offset = last inner offset (relative 1)
        seg.putInt(8, messageSize);
        seg.put(12 + 4, (byte) 1);               // magic 1
        seg.put(12 + 5, (byte) 1);               // gzip
        seg.putLong(12 + 6, 1_700_000_000_000L);
        seg.putInt(12 + 14, -1);                 // null key
        seg.putInt(12 + 18, value.length);
        seg.put(12 + 22, value);
        Segments.fixLegacyCrc(seg, 0);
        FormatException e = walkAll(seg);
        assertThat(e).isNotNull();
        assertThat(e.violation()).isEqualTo(Violation.INVALID_WRAPPER);
        assertThat(e.position()).isZero();
        assertThat(e.getMessage()).contains("inner messages must not be compressed");
        assertThatThrownBy(() -> iterateKafka(seg)).isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining("Inner messages must not be compressed");
    }

    @Test
    void legacyMessageKeyLengthPastTheMessage() {
        ByteBuffer seg = Segments.legacy((byte) 1, "none", 1, 0);
        seg.putInt(12 + 14, 1000);
        Segments.fixLegacyCrc(seg, 0);
        FormatException e = walkAll(seg);
        assertThat(e.violation()).isEqualTo(Violation.INVALID_RECORD);
        assertThat(e.field()).isEqualTo("keyLength");
        assertThat(e.position()).isZero();
    }

    private static void iterateKafka(ByteBuffer seg) {
        for (RecordBatch b : MemoryRecords.readableRecords(seg.duplicate()).batches()) {
            for (Record r : b) {
                r.offset();
            }
        }
    }
}
