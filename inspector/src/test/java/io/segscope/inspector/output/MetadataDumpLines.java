package io.segscope.inspector.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.metadata.ControlValue;
import io.segscope.format.coordinator.metadata.ControlValueDecoder;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataRecordDecoder;
import io.segscope.format.coordinator.metadata.MetadataResult;
import io.segscope.format.coordinator.metadata.MetadataUnknown;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.RecordIterator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks segscope's text against the record lines of DumpLogSegments
 * {@code --cluster-metadata-decoder} output: a data record's line ends with {@code " payload: "} and
 * {@link KafkaDumpText#metadataPayloadText}, a control record's with {@link KafkaDumpText#controlText}.
 */
final class MetadataDumpLines {
    /** What one file held. */
    static final class Counts {
        int records;
        int compared;
        final TreeMap<String, Integer> kinds = new TreeMap<>();

        @Override
        public String toString() {
            return records + " records, " + compared + " compared: " + kinds;
        }
    }

    private MetadataDumpLines() {
    }

    /**
     * Reads every record of a {@code __cluster_metadata} segment or snapshot with segscope and,
     * where {@code lines} has the record's line, asserts the line ends with segscope's text; every
     * data record must give a typed result and every control value a printable one where no line
     * is known.
     */
    static Counts check(Path file, Map<Long, String> lines, Counts counts) throws IOException {
        try (ByteSource source = MappedSource.open(file, file.getFileName().toString());
             BatchReader reader = new BatchReader(source)) {
            while (reader.next()) {
                Batch batch = reader.batch();
                RecordIterator it = batch.records();
                while (it.next()) {
                    LogRecord r = it.record();
                    counts.records++;
                    String where = file + " offset " + r.offset();
                    String text;
                    String expectedEnd;
                    if (batch.isControl()) {
                        short typeId = ControlRecord.typeId(batch, r);
                        ControlValue v = ControlValueDecoder.decode(batch, r);
                        counts.kinds.merge("control " + ControlRecord.Type.of(typeId) + (v instanceof ControlValue.Message
                                ? " v" + ((ControlValue.Message) v).printVersion() : ""), 1, Integer::sum);
                        text = KafkaDumpText.controlText(v);
                        assertThat(text).as(where + ": " + v).isNotNull();
                        expectedEnd = text;
                    } else {
                        MetadataResult m = MetadataRecordDecoder.decode(r);
                        counts.kinds.merge(m instanceof MetadataDecoded
                                ? ((MetadataDecoded) m).typeName() + " v" + ((MetadataDecoded) m).version()
                                : "unknown " + ((MetadataUnknown) m).reason(), 1, Integer::sum);
                        expectedEnd = " payload: " + KafkaDumpText.metadataPayloadText(m, r.offset());
                    }
                    String line = lines.get(r.offset());
                    if (line != null) {
                        assertThat(line).as(where).endsWith(expectedEnd);
                        counts.compared++;
                    }
                }
            }
        }
        return counts;
    }
}
