package io.segscope.format.record;

import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compares what segscope reads with what Kafka's own readers read from the same bytes: every
 * batch field, every record field, header and payload byte. Kafka is the oracle.
 */
final class KafkaOracle {
    private KafkaOracle() {
    }

    /** Counts of what a comparison covered, so callers can assert it was not vacuous. */
    record Coverage(int batches, int records, long bytes) {
        Coverage plus(Coverage o) {
            return new Coverage(batches + o.batches, records + o.records, bytes + o.bytes);
        }
    }

    /** Compares segscope (mapped) with Kafka's FileRecords (opened read-only) on one file. */
    static Coverage compareFile(Path file) {
        try (FileRecords kafka = FileRecords.open(file.toFile(), false);
             ByteSource source = MappedSource.open(file, file.getFileName().toString())) {
            List<RecordBatch> batches = new ArrayList<>();
            List<Integer> positions = new ArrayList<>();
            for (FileChannelRecordBatch b : kafka.batches()) {
                batches.add(b);
                positions.add(b.position());
            }
            return compare(source, batches, positions);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Compares segscope with Kafka's MemoryRecords on bytes in memory. */
    static Coverage compareBuffer(ByteBuffer bytes, String name) {
        MemoryRecords kafka = MemoryRecords.readableRecords(bytes.duplicate());
        List<RecordBatch> batches = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        int pos = 0;
        for (RecordBatch b : kafka.batches()) {
            batches.add(b);
            positions.add(pos);
            pos += b.sizeInBytes();
        }
        return compare(ByteSource.wrap(bytes.duplicate(), name), batches, positions);
    }

    static Coverage compare(ByteSource source, List<RecordBatch> kafkaBatches, List<Integer> positions) {
        int batches = 0;
        int records = 0;
        long bytes = 0;
        try (BatchReader reader = new BatchReader(source)) {
            Iterator<RecordBatch> it = kafkaBatches.iterator();
            int i = 0;
            while (reader.next()) {
                assertThat(it.hasNext()).as("%s: segscope has a batch at %d that Kafka does not", source.name(),
                        reader.position()).isTrue();
                RecordBatch k = it.next();
                Batch s = reader.batch();
                String where = source.name() + " batch at " + s.position();
                assertThat(s.position()).as(where).isEqualTo((long) positions.get(i++));
                compareBatch(where, s, k);
                records += compareRecords(where, s, k);
                batches++;
                bytes += s.sizeInBytes();
            }
            assertThat(it.hasNext()).as("%s: Kafka has more batches than segscope", source.name()).isFalse();
        }
        return new Coverage(batches, records, bytes);
    }

    static void compareBatch(String where, Batch s, RecordBatch k) {
        assertThat(s.sizeInBytes()).as(where + " size").isEqualTo(k.sizeInBytes());
        assertThat(s.magic()).as(where + " magic").isEqualTo(k.magic());
        assertThat(s.lastOffset()).as(where + " lastOffset").isEqualTo(k.lastOffset());
        assertThat(s.nextOffset()).as(where + " nextOffset").isEqualTo(k.nextOffset());
        assertThat(s.compression().kafkaName).as(where + " compression").isEqualTo(k.compressionType().name);
        assertThat(s.timestampType().kafkaName).as(where + " timestampType").isEqualTo(k.timestampType().name);
        assertThat(s.maxTimestamp()).as(where + " maxTimestamp").isEqualTo(k.maxTimestamp());
        assertThat(s.producerId()).as(where + " producerId").isEqualTo(k.producerId());
        assertThat(s.producerEpoch()).as(where + " producerEpoch").isEqualTo(k.producerEpoch());
        assertThat(s.baseSequence()).as(where + " baseSequence").isEqualTo(k.baseSequence());
        assertThat(s.lastSequence()).as(where + " lastSequence").isEqualTo(k.lastSequence());
        assertThat(s.partitionLeaderEpoch()).as(where + " partitionLeaderEpoch").isEqualTo(k.partitionLeaderEpoch());
        assertThat(s.isTransactional()).as(where + " isTransactional").isEqualTo(k.isTransactional());
        assertThat(s.isControl()).as(where + " isControl").isEqualTo(k.isControlBatch());
        assertThat(s.hasDeleteHorizon()).as(where + " hasDeleteHorizon").isEqualTo(k.deleteHorizonMs().isPresent());
        if (s.hasDeleteHorizon()) {
            assertThat(s.deleteHorizonMs()).as(where + " deleteHorizonMs").isEqualTo(k.deleteHorizonMs().getAsLong());
        }
        Integer count = k.countOrNull();
        assertThat(s.countOrMinusOne()).as(where + " count").isEqualTo(count == null ? -1 : count);
        assertThat(s.storedCrc()).as(where + " checksum").isEqualTo(k.checksum());
        assertThat(s.isValid()).as(where + " isValid").isEqualTo(k.isValid());
        assertThat(s.baseOffset()).as(where + " baseOffset").isEqualTo(k.baseOffset());
    }

    static int compareRecords(String where, Batch s, RecordBatch k) {
        RecordIterator sit = s.records();
        int n = 0;
        for (Record kr : k) {
            assertThat(sit.next()).as(where + " record " + n + " missing in segscope").isTrue();
            LogRecord sr = sit.record();
            String w = where + " record offset " + kr.offset();
            assertThat(sr.offset()).as(w + " offset").isEqualTo(kr.offset());
            assertThat(sr.timestamp()).as(w + " timestamp").isEqualTo(kr.timestamp());
            if (s.magic() < 2) { // Kafka's v2 records do not answer hasTimestampType; the batch's type is compared
                assertThat(kr.hasTimestampType(org.apache.kafka.common.record.TimestampType.forName(sr.timestampType().kafkaName)))
                        .as(w + " timestampType " + sr.timestampType()).isTrue();
            } else {
                assertThat(sr.timestampType()).as(w + " timestampType").isEqualTo(s.timestampType());
            }
            assertThat(sr.sequence()).as(w + " sequence").isEqualTo(kr.sequence());
            assertThat(sr.sizeInBytes()).as(w + " sizeInBytes").isEqualTo(kr.sizeInBytes());
            assertThat(sr.hasKey()).as(w + " hasKey").isEqualTo(kr.hasKey());
            assertThat(sr.keyLength()).as(w + " keySize").isEqualTo(kr.keySize());
            assertThat(slice(sr.buffer(), sr.keyOffset(), sr.keyLength())).as(w + " key").isEqualTo(bytes(kr.key()));
            assertThat(sr.hasValue()).as(w + " hasValue").isEqualTo(kr.hasValue());
            assertThat(sr.valueLength()).as(w + " valueSize").isEqualTo(kr.valueSize());
            assertThat(slice(sr.buffer(), sr.valueOffset(), sr.valueLength())).as(w + " value").isEqualTo(bytes(kr.value()));
            Header[] kh = kr.headers();
            assertThat(sr.headerCount()).as(w + " headers").isEqualTo(kh.length);
            HeaderIterator hi = sr.headers();
            for (Header h : kh) {
                assertThat(hi.next()).isTrue();
                String key = new String(Objects.requireNonNull(slice(hi.buffer(), hi.keyOffset(), hi.keyLength())),
                        StandardCharsets.UTF_8);
                assertThat(key).as(w + " header key").isEqualTo(h.key());
                assertThat(slice(hi.buffer(), hi.valueOffset(), hi.valueLength())).as(w + " header value").isEqualTo(h.value());
            }
            assertThat(hi.next()).isFalse();
            if (s.magic() < 2) {
                assertThat(sr.checksumOrMinusOne()).as(w + " record crc")
                        .isEqualTo(((org.apache.kafka.common.record.internal.AbstractLegacyRecordBatch) kr).checksum());
                assertThat(sr.isValid()).as(w + " record isValid")
                        .isEqualTo(((org.apache.kafka.common.record.internal.AbstractLegacyRecordBatch) kr).isValid());
            }
            if (s.isControl()) {
                short type = ControlRecord.typeId(s, sr);
                assertThat(type).as(w + " control type")
                        .isEqualTo(org.apache.kafka.common.record.internal.ControlRecordType.parseTypeId(kr.key()));
            }
            n++;
        }
        assertThat(sit.next()).as(where + " segscope has more records than Kafka").isFalse();
        return n;
    }

    static byte[] slice(ByteBuffer buf, int offset, int length) {
        if (length < 0) {
            return null;
        }
        byte[] out = new byte[length];
        buf.get(offset, out);
        return out;
    }

    static byte[] bytes(ByteBuffer b) {
        if (b == null) {
            return null;
        }
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
