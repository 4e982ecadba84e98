package io.segscope.format.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.segscope.format.coordinator.metadata.ControlValue;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.error.FormatException;
import io.segscope.format.inventory.MetadataTopics;
import io.segscope.format.json.MetadataJson;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.TopicPartitionName;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.verify.Verifier;
import io.segscope.format.walk.BatchVisitor;
import io.segscope.format.walk.Damage;
import io.segscope.format.walk.DecoderChoice;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordFilter;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;
import io.segscope.format.walk.SegmentWalk;
import io.segscope.testdata.Corpus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fuzzer's bytes as a KRaft snapshot (format/FUZZING.md): a
 * {@code __cluster_metadata-0/<20-digit end offset>-<10-digit epoch>.checkpoint} file, and the
 * {@code bootstrap.checkpoint} at a log dir's root, read as segscope reads them: the segment walk
 * with resynchronisation, the record walk every command uses (KRaft metadata records and the
 * snapshot's header and footer control records decoded, and written as the dump writes them),
 * the metadata replay that gives compaction its topic configs ({@link MetadataTopics}), and
 * {@link Verifier} on a log dir holding both files. The outcome: a result (damage reported in
 * it) or a {@link FormatException}; anything else is a finding.
 */
class SnapshotFuzzTest {
    private static final String SNAPSHOT = "00000000000000000100-0000000001.checkpoint";
    /** What makes the tree a broker log dir (its root's bootstrap.checkpoint is read only there). */
    private static final byte[] META_PROPERTIES = meta();

    private static byte[] meta() {
        try {
            return Files.readAllBytes(Corpus.corpus().resolve("kraft-4.4.0-plain/logdir/meta.properties"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "30s")
    void checkpoint(byte[] bytes) {
        try {
            new SegmentWalk(Fuzzed.OPTIONS).walk(Fuzzed.source(bytes, SNAPSHOT), bytes.length, 0, -1, true, VISIT_ALL);
        } catch (FormatException expected) {
            // only for a source that cannot be read, never for its content
        }

        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("meta.properties", META_PROPERTIES);
        files.put(LogFile.BOOTSTRAP_CHECKPOINT, bytes);
        files.put("__cluster_metadata-0/" + SNAPSHOT, bytes);
        FileEntry logDir = Fuzzed.tree("logdir", files);
        FileEntry partition = logDir.children().stream().filter(FileEntry::isDirectory).findFirst().orElseThrow();
        LogFile snapshot = LogFile.classify(partition.children().get(0), TopicPartitionName.tryParse(partition.name()));
        LogFile bootstrap = LogFile.classify(logDir.children().stream().filter(e -> e.name().equals(LogFile.BOOTSTRAP_CHECKPOINT))
                .findFirst().orElseThrow(), java.util.Optional.empty());
        assertThat(snapshot.kind()).isEqualTo(FileKind.KRAFT_SNAPSHOT);
        assertThat(bootstrap.kind()).isEqualTo(FileKind.BOOTSTRAP_CHECKPOINT);

        new RecordWalk(Fuzzed.OPTIONS, DecoderChoice.AUTO, RecordFilter.ALL, Long.MAX_VALUE).tellTransactions(true)
                .walk(List.of(snapshot, bootstrap), WRITE_ALL);
        try {
            MetadataTopics.replay(List.of(snapshot)).topics();
        } catch (FormatException expected) {
            // a metadata log that cannot be replayed, saying why
        }
        Verifier v = new Verifier(Fuzzed.OPTIONS, f -> f.toString()).reportIgnored(true);
        assertThat(v.verify(logDir)).as("a log dir is found").isTrue();
    }

    private static final BatchVisitor VISIT_ALL = new BatchVisitor() {
        @Override
        public boolean batch(Batch batch) {
            return true;
        }

        @Override
        public void damage(Damage damage) {
            damage.resumeAt();
        }
    };

    /** Writes every metadata record and KRaft control value as the dump writes them (jsonl and Kafka's text). */
    private static final RecordSink WRITE_ALL = new RecordSink() {
        @Override
        public void record(LogFile file, Batch batch, LogRecord record, RecordContent content) {
            if (content instanceof RecordContent.Metadata m && m.result() instanceof MetadataDecoded d) {
                MetadataJson.dataText(d);
                MetadataJson.payloadText(d);
            } else if (content instanceof RecordContent.Control c && c.value() instanceof ControlValue.Message m) {
                MetadataJson.controlDataText(m);
            }
        }

        @Override
        public void problem(LogFile file, String message) {
            message.length();
        }
    };
}
