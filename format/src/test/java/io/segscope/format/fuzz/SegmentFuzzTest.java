package io.segscope.format.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.error.FormatException;
import io.segscope.format.json.CoordinatorJson;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.HeaderIterator;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.RecordIterator;
import io.segscope.format.walk.BatchVisitor;
import io.segscope.format.walk.Damage;
import io.segscope.format.walk.DecoderChoice;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordFilter;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;
import io.segscope.format.walk.SegmentWalk;

import java.util.List;

/**
 * The fuzzer's bytes as a {@code .log} file (format/FUZZING.md). Whatever they hold, reading them
 * ends with a result or a {@link FormatException}; any other throwable, an OutOfMemoryError or a
 * hang is a finding. The batches' attributes may name any codec, so the decompressors get the
 * payloads too.
 */
class SegmentFuzzTest {

    /**
     * {@link BatchReader}: every entry, its CRC, every record with its headers, control records'
     * values; on a FormatException the walk of that entry (or the file) stops, as callers stop.
     */
    @FuzzTest(maxDuration = "30s")
    void batches(byte[] bytes) {
        try (BatchReader reader = new BatchReader(Fuzzed.source(bytes, "00000000000000000000.log"), Fuzzed.OPTIONS)) {
            while (reader.next()) {
                Batch b = reader.batch();
                b.isValid();
                b.baseOffset();
                b.lastOffset();
                records(b);
            }
            reader.tail();
        } catch (FormatException expected) {
            // segscope's typed problem: the outcome the reader documents
        }
    }

    /** Every record of a batch; a FormatException ends this batch's records only. */
    private static void records(Batch b) {
        try {
            RecordIterator it = b.records();
            while (it.next()) {
                LogRecord r = it.record();
                r.offset();
                r.timestamp();
                HeaderIterator h = r.headers();
                while (h.next()) {
                    h.keyLength();
                }
                if (b.isControl()) {
                    ControlRecord.Type t = ControlRecord.type(b, r);
                    if (t == ControlRecord.Type.COMMIT || t == ControlRecord.Type.ABORT) {
                        ControlRecord.endTxnMarker(r.buffer(), r.valueOffset(), r.valueLength());
                    }
                }
            }
        } catch (FormatException expected) {
            // a record that does not parse, or a payload that does not decompress
        }
    }

    /**
     * The walk with resynchronisation ({@link SegmentWalk}, CRC mismatches as damage) and the
     * record walk every command uses ({@link RecordWalk}), the file read as a segment of
     * {@code __consumer_offsets} (records decoded as coordinator records) and of
     * {@code __cluster_metadata} (as KRaft records).
     */
    @FuzzTest(maxDuration = "30s")
    void walk(byte[] bytes) {
        try {
            new SegmentWalk(Fuzzed.OPTIONS).walk(Fuzzed.source(bytes, "00000000000000000000.log"), bytes.length, 0, -1,
                    true, VISIT_ALL);
        } catch (FormatException expected) {
            // only for a source that cannot be read, never for its content
        }
        RecordWalk records = new RecordWalk(Fuzzed.OPTIONS, DecoderChoice.AUTO, RecordFilter.ALL, Long.MAX_VALUE)
                .tellTransactions(true);
        records.walk(List.of(Fuzzed.logFile(bytes, "__consumer_offsets-0", "00000000000000000000.log"),
                Fuzzed.logFile(bytes, "__cluster_metadata-0", "00000000000000000000.log")), DECODE_ALL);
    }

    private static final BatchVisitor VISIT_ALL = new BatchVisitor() {
        @Override
        public boolean batch(Batch batch) {
            records(batch);
            return true;
        }

        @Override
        public void damage(Damage damage) {
            damage.resumeAt();
        }
    };

    /** Decodes every coordinator record (the walk decodes on demand) and writes it as the dump does. */
    private static final RecordSink DECODE_ALL = new RecordSink() {
        @Override
        public void record(LogFile file, Batch batch, LogRecord record, RecordContent content) {
            if (content instanceof RecordContent.Coordinator c && c.result() instanceof Decoded d) {
                CoordinatorJson.keyText(d);
                CoordinatorJson.valueText(d);
            }
        }
    };
}
