package io.segscope.format.walk;

import io.segscope.format.coordinator.Decoded;
import io.segscope.format.json.CoordinatorJson;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.TopicPartitionName;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.Tail;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** How transactions ended, told from the corpus's markers, against what its generator did. */
class TransactionOutcomesTest {
    private static final Path PLAIN = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir");
    private static final Path CRASHED = Corpus.corpus().resolve("kraft-4.4.0-crashed/logdir");

    /** Outcome to the base offsets of the transactional data batches with it, walked with the outcomes told. */
    private static Map<String, List<Long>> outcomes(List<Path> partitionDirs, Set<Long> openProducers) throws IOException {
        List<LogFile> files = new ArrayList<>();
        for (Path dir : partitionDirs) {
            var name = TopicPartitionName.tryParse(dir.getFileName().toString());
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(p -> p.getFileName().toString().endsWith(".log")).sorted()
                        .forEach(p -> files.add(LogFile.classify(FileEntry.of(p), name)));
            }
        }
        Map<String, List<Long>> out = new TreeMap<>();
        RecordWalk walk = new RecordWalk(ReaderOptions.defaults(), DecoderChoice.AUTO, RecordFilter.ALL, Long.MAX_VALUE)
                .tellTransactions(true);
        walk.walk(files, new RecordSink() {
            @Override public void beginFile(LogFile f) { }
            @Override public void batch(LogFile f, Batch b, TransactionOutcome t) {
                assertThat(t == null).as(f.path() + " @" + b.position()).isEqualTo(!b.isTransactional() || b.isControl());
                if (t != null) {
                    out.computeIfAbsent(t.label, k -> new ArrayList<>()).add(b.baseOffset());
                    if (t == TransactionOutcome.OPEN) {
                        openProducers.add(b.producerId());
                    }
                }
            }
            @Override public void record(LogFile f, Batch b, LogRecord r, RecordContent c) { }
            @Override public void problem(LogFile f, String message) { }
            @Override public void endFile(LogFile f, Tail tail, long validBytes, long fileSize, String error) { }
        });
        return out;
    }

    private static List<Path> dirs(Path logDir, String prefix) throws IOException {
        try (Stream<Path> s = Files.list(logDir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
        }
    }

    @Test
    void txnOrdersHasFiveCommittedAndThreeAbortedTransactions() throws IOException {
        Set<Long> open = new TreeSet<>();
        Map<String, List<Long>> o = outcomes(List.of(PLAIN.resolve("txn-orders-0")), open);
        assertThat(o.keySet()).containsExactly("aborted", "committed");
        assertThat(o.get("committed")).containsExactly(0L, 10L, 18L, 28L, 31L);
        assertThat(o.get("aborted")).containsExactly(7L, 24L, 36L);
        // each data batch's marker is the next control batch: COMMIT at 6, ABORT at 9, ...
        TransactionOutcomes t = TransactionOutcomes.scan(List.of(LogFile.classify(
                FileEntry.of(PLAIN.resolve("txn-orders-0/00000000000000000000.log")),
                TopicPartitionName.tryParse("txn-orders-0"))), ReaderOptions.defaults());
        assertThat(t.markerCount()).isEqualTo(8);
        assertThat(t.outcome(7, 5)).isEqualTo(TransactionOutcome.COMMITTED);
        assertThat(t.outcome(7, 8)).isEqualTo(TransactionOutcome.ABORTED);
        assertThat(t.outcome(7, 41)).isEqualTo(TransactionOutcome.OPEN);
        assertThat(t.outcome(8, 0)).isEqualTo(TransactionOutcome.OPEN);
    }

    @Test
    void transactionalOffsetCommitsAreDecided() throws IOException {
        Set<Long> open = new TreeSet<>();
        Map<String, List<Long>> o = outcomes(dirs(PLAIN, "__consumer_offsets-"), open);
        assertThat(o.keySet()).containsExactly("aborted", "committed");
        assertThat(o.get("committed")).hasSize(5);
        assertThat(o.get("aborted")).hasSize(3);
    }

    /** The crashed broker's open transaction is the one __transaction_state shows Ongoing for txn-producer-open. */
    @Test
    void theCrashedBrokersOpenTransactionIsTxnProducerOpen() throws IOException {
        Set<Long> open = new TreeSet<>();
        Map<String, List<Long>> o = outcomes(dirs(CRASHED, "txn-orders-"), open);
        assertThat(o).containsKeys("committed", "aborted", "open");
        Set<Long> openOffsets = new TreeSet<>();
        outcomes(dirs(CRASHED, "__consumer_offsets-"), openOffsets);
        assertThat(open).hasSize(1);
        assertThat(openOffsets).isEqualTo(open);

        List<LogFile> files = new ArrayList<>();
        for (Path dir : dirs(CRASHED, "__transaction_state-")) {
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().forEach(p -> files.add(
                        LogFile.classify(FileEntry.of(p), TopicPartitionName.tryParse(dir.getFileName().toString()))));
            }
        }
        List<String> states = new ArrayList<>();
        new RecordWalk(ReaderOptions.defaults(), DecoderChoice.AUTO, RecordFilter.ALL, Long.MAX_VALUE).walk(files, new RecordSink() {
            @Override public void beginFile(LogFile f) { }
            @Override public void batch(LogFile f, Batch b, TransactionOutcome t) { }
            @Override public void record(LogFile f, Batch b, LogRecord r, RecordContent c) {
                if (c instanceof RecordContent.Coordinator k && k.result() instanceof Decoded d
                        && "txn-producer-open".equals(d.ownerId()) && !d.isTombstone()) {
                    states.add(CoordinatorJson.valueDataText(d));
                }
            }
            @Override public void problem(LogFile f, String message) { }
            @Override public void endFile(LogFile f, Tail tail, long validBytes, long fileSize, String error) { }
        });
        assertThat(states).isNotEmpty();
        String last = states.get(states.size() - 1);
        Matcher m = Pattern.compile("\"producerId\":(\\d+)").matcher(last);
        assertThat(m.find()).isTrue();
        assertThat(open).containsExactly(Long.parseLong(m.group(1)));
        assertThat(last).contains("\"transactionStatus\":\"Ongoing\"");
    }
}
