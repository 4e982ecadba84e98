package io.segscope.format.index;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.testkit.Gen;
import io.segscope.testkit.Tries;
import org.apache.kafka.common.message.AbortedTxn;
import org.apache.kafka.storage.internals.log.TransactionIndex;
import org.apache.kafka.storage.internals.log.TxnIndexSearchResult;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** {@link TxnIndexReader} against Kafka 4.4.0's {@code TransactionIndex} on the same files. */
class TxnIndexReaderTest {
    static final long BASE = 500L;

    @TempDir
    Path tmp;

    private static AbortedTxn txn(long pid, long first, long last, long lso) {
        return new AbortedTxn().setProducerId(pid).setFirstOffset(first).setLastOffset(last).setLastStableOffset(lso);
    }

    private Path writeWithKafka(String name, AbortedTxn... txns) throws Exception {
        File file = tmp.resolve(name).toFile();
        TransactionIndex kafka = new TransactionIndex(BASE, file);
        for (AbortedTxn t : txns) {
            kafka.append(t);
        }
        kafka.flush();
        kafka.close();
        return file.toPath();
    }

    @Test
    void entriesMatchKafka() throws Exception {
        Path file = writeWithKafka("00000000000000000500.txnindex",
                txn(7, 480, 510, 511), txn(9, 505, 530, 531), txn(7, 540, 560, 561));
        assertThat(Files.size(file)).isEqualTo(3 * 34);
        assertThat(KafkaIndexOracle.assertTxnIndexMatchesKafka(file, BASE)).isEqualTo(3);
        try (ByteSource src = MappedSource.open(file, "t.txnindex")) {
            TxnIndexReader r = new TxnIndexReader().wrap(src, BASE);
            assertThat(r.sanityCheck()).isEmpty();
            assertThat(r.firstOffset(0)).isEqualTo(480);
            assertThat(r.version(2)).isZero();
        }
    }

    @Test
    void collectAbortedTxnsMatchesKafka() throws Exception {
        Path file = writeWithKafka("c.txnindex", txn(1, 480, 510, 511), txn(2, 505, 530, 531), txn(3, 540, 560, 561),
                txn(4, 562, 600, 601));
        TransactionIndex kafka = new TransactionIndex(BASE, file.toFile());
        try (ByteSource src = MappedSource.open(file, "c.txnindex")) {
            TxnIndexReader r = new TxnIndexReader().wrap(src, BASE);
            for (long fetch = 470; fetch < 610; fetch += 7) {
                for (long upper = fetch; upper < 620; upper += 11) {
                    TxnIndexSearchResult k = kafka.collectAbortedTxns(fetch, upper);
                    int[] mine = r.collectAbortedTxns(fetch, upper);
                    assertThat(Arrays.stream(mine).mapToLong(r::producerId).boxed().toList())
                            .isEqualTo(k.abortedTransactions().stream().map(AbortedTxn::producerId).toList());
                    assertThat(r.searchComplete(upper)).isEqualTo(k.isComplete());
                }
            }
        } finally {
            kafka.close();
        }
    }

    /** A torn append: Kafka's iterator ignores the partial entry; segscope counts the whole ones and reports the tail. */
    @Test
    void partialTrailingEntryIsATornTail() throws Exception {
        Path file = writeWithKafka("p.txnindex", txn(1, 480, 510, 511), txn(2, 505, 530, 531));
        Files.write(file, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 3}, java.nio.file.StandardOpenOption.APPEND);
        assertThat(KafkaIndexOracle.assertTxnIndexMatchesKafka(file, BASE)).isEqualTo(2);
        try (ByteSource src = MappedSource.open(file, "p.txnindex")) {
            TxnIndexReader r = new TxnIndexReader().wrap(src, BASE);
            assertThat(r.entries()).isEqualTo(2);
            assertThat(r.partialBytes()).isEqualTo(10);
            assertThat(r.sanityCheck()).singleElement().satisfies(e -> {
                assertThat(e.violation()).isEqualTo(Violation.TRUNCATED);
                assertThat(e.position()).isEqualTo(68);
                assertThat(e.file()).isEqualTo("p.txnindex");
            });
        }
    }

    @Test
    void badVersionIsRefusedByKafkaAndReported() throws Exception {
        Path file = writeWithKafka("v.txnindex", txn(1, 480, 510, 511), txn(2, 505, 530, 531));
        byte[] bytes = Files.readAllBytes(file);
        bytes[34] = 0;
        bytes[35] = 1;  // entry 1's version = 1
        Files.write(file, bytes);
        KafkaIndexOracle.assertTxnIndexMatchesKafka(file, BASE);
        TxnIndexReader r = new TxnIndexReader().wrap(ByteSource.wrap(ByteBuffer.wrap(bytes), "v.txnindex"), BASE);
        assertThat(r.sanityCheck()).extracting(FormatException::violation, FormatException::position, FormatException::field)
                .containsExactly(tuple(Violation.INDEX_VERSION, 34L, "version"));
        // Version 256 (first byte set): the old one-byte reader would have taken it for 1; 4.4.0 reads an int16.
        bytes[34] = 1;
        bytes[35] = 0;
        r.wrap(ByteSource.wrap(ByteBuffer.wrap(bytes), "v.txnindex"), BASE);
        assertThat(r.version(1)).isEqualTo((short) 256);
    }

    @Test
    void lastOffsetsNotIncreasingAndBelowBase() {
        ByteBuffer b = ByteBuffer.allocate(3 * 34);
        put(b, 0, 1, 480, 510, 511);
        put(b, 1, 2, 400, 505, 506);   // lastOffset goes back
        put(b, 2, 3, 400, 450, 451);   // and below the base offset
        TxnIndexReader r = new TxnIndexReader().wrap(ByteSource.wrap(b, "o.txnindex"), BASE);
        assertThat(r.sanityCheck()).extracting(FormatException::violation, FormatException::position)
                .containsExactly(tuple(Violation.INDEX_ORDER, 34L + 18),
                        tuple(Violation.INDEX_OFFSET_RANGE, 68L + 18), tuple(Violation.INDEX_ORDER, 68L + 18));
        // Kafka's sanityCheck only tests the base offset (the order is enforced on append only).
        KafkaIndexOracle.assertTxnIndexMatchesKafka(IndexFiles.write(tmp.resolve("o.txnindex"), b), BASE);
    }

    private static void put(ByteBuffer b, int i, long pid, long first, long last, long lso) {
        b.putShort(i * 34, (short) 0).putLong(i * 34 + 2, pid).putLong(i * 34 + 10, first)
                .putLong(i * 34 + 18, last).putLong(i * 34 + 26, lso);
    }

    static List<long[]> txns(Gen gen) {
        return gen.list(0, 80, g -> new long[] {g.longBetween(0, 1_000_000), g.intBetween(0, 400), g.intBetween(1, 300)});
    }

    /** Random aborted transactions appended with Kafka's {@code TransactionIndex}: same entries, same searches. */
    @TestFactory
    Stream<DynamicTest> entriesAndSearchesMatchKafka() {
        return Tries.of(8086, 150, gen -> entriesAndSearchesMatchKafka(txns(gen), gen.anyLong(), gen.anyLong()));
    }

    private static void entriesAndSearchesMatchKafka(List<long[]> spec, long fetchSeed, long upperSeed) throws Exception {
        Path dir = IndexFiles.tempDir();
        try {
            File file = dir.resolve("00000000000000000500.txnindex").toFile();
            TransactionIndex kafka = new TransactionIndex(BASE, file);
            long last = BASE;
            for (long[] s : spec) {
                last += s[2];
                kafka.append(txn(s[0], last - s[1], last, last + 1));
            }
            kafka.flush();
            if (spec.isEmpty()) {  // Kafka creates the file lazily, on the first append
                assertThat(file).doesNotExist();
                assertThat(kafka.allAbortedTxns()).isEmpty();
                kafka.close();
                return;
            }
            assertThat(KafkaIndexOracle.assertTxnIndexMatchesKafka(file.toPath(), BASE)).isEqualTo(spec.size());
            long fetch = BASE - 100 + Math.floorMod(fetchSeed, last - BASE + 200);
            long upper = fetch + Math.floorMod(upperSeed, 2000L);
            try (ByteSource src = MappedSource.open(file.toPath(), file.getName())) {
                TxnIndexReader r = new TxnIndexReader().wrap(src, BASE);
                TxnIndexSearchResult k = kafka.collectAbortedTxns(fetch, upper);
                int[] mine = r.collectAbortedTxns(fetch, upper);
                assertThat(mine).hasSize(k.abortedTransactions().size());
                for (int i = 0; i < mine.length; i++) {
                    assertThat(r.lastOffset(mine[i])).isEqualTo(k.abortedTransactions().get(i).lastOffset());
                }
                assertThat(r.searchComplete(upper)).isEqualTo(k.isComplete());
                assertThat(r.sanityCheck()).isEmpty();
            }
            kafka.close();
        } finally {
            IndexFiles.delete(dir);
        }
    }
}
