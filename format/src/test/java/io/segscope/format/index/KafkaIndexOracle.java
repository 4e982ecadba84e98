package io.segscope.format.index;

import io.segscope.format.error.FormatException;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import org.apache.kafka.common.message.AbortedTxn;
import org.apache.kafka.storage.internals.log.CorruptIndexException;
import org.apache.kafka.storage.internals.log.OffsetIndex;
import org.apache.kafka.storage.internals.log.TimeIndex;
import org.apache.kafka.storage.internals.log.TransactionIndex;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compares segscope's index readers with Kafka 4.4.0's index classes opened on the same file.
 * Kafka opens an existing index as if every slot were an entry; segscope stops at the first
 * all-zero slot, so the comparison is: segscope's real entries equal Kafka's first entries,
 * Kafka's entry count equals segscope's slot count, every slot past the real entries reads in
 * Kafka as (base offset, 0) / (0, base offset), and Kafka's sanity check fails exactly when
 * segscope's {@code kafkaSanityCheck} says it would. Lookups are compared when the file has no
 * zero tail (then both search the same entries).
 */
public final class KafkaIndexOracle {
    private KafkaIndexOracle() {
    }

    /** Kafka's verdict, as a boolean. */
    private static boolean kafkaSanityFails(Runnable check) {
        try {
            check.run();
            return false;
        } catch (CorruptIndexException e) {
            return true;
        }
    }

    /** Compares a .index file; returns the number of real entries compared. */
    public static int assertOffsetIndexMatchesKafka(Path file, long baseOffset, long... targets) {
        try (ByteSource src = MappedSource.open(file, file.getFileName().toString())) {
            OffsetIndexReader mine = new OffsetIndexReader().wrap(src, baseOffset);
            OffsetIndex kafka = new OffsetIndex(file.toFile(), baseOffset, -1, false);
            try {
                assertThat(kafka.entries()).as("Kafka counts every slot").isEqualTo(mine.slots());
                for (int i = 0; i < mine.slots(); i++) {
                    org.apache.kafka.storage.internals.log.OffsetPosition k = kafka.entry(i);
                    assertThat(mine.offset(i)).as("offset of slot %d", i).isEqualTo(k.offset());
                    assertThat(mine.position(i)).as("position of slot %d", i).isEqualTo(k.position());
                    if (i >= mine.entries()) {
                        assertThat(k.offset()).isEqualTo(baseOffset);
                        assertThat(k.position()).isZero();
                    }
                }
                assertThat(mine.kafkaSanityCheck().isPresent())
                        .as("Kafka's sanityCheck verdict").isEqualTo(kafkaSanityFails(kafka::sanityCheck));
                if (!mine.isPreallocated()) {
                    assertThat(mine.lastOffset()).isEqualTo(kafka.lastOffset());
                    for (long t : targets) {
                        org.apache.kafka.storage.internals.log.OffsetPosition k = kafka.lookup(t);
                        assertThat(mine.lookup(t)).as("lookup(%d)", t).isEqualTo(new OffsetPosition(k.offset(), k.position()));
                    }
                }
            } finally {
                kafka.close();
            }
            return mine.entries();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Compares a .timeindex file; returns the number of real entries compared. */
    public static int assertTimeIndexMatchesKafka(Path file, long baseOffset, long... targets) {
        try (ByteSource src = MappedSource.open(file, file.getFileName().toString())) {
            TimeIndexReader mine = new TimeIndexReader().wrap(src, baseOffset);
            TimeIndex kafka = new TimeIndex(file.toFile(), baseOffset, -1, false);
            try {
                assertThat(kafka.entries()).as("Kafka counts every slot").isEqualTo(mine.slots());
                for (int i = 0; i < mine.slots(); i++) {
                    org.apache.kafka.storage.internals.log.TimestampOffset k = kafka.entry(i);
                    assertThat(mine.timestamp(i)).as("timestamp of slot %d", i).isEqualTo(k.timestamp());
                    assertThat(mine.offset(i)).as("offset of slot %d", i).isEqualTo(k.offset());
                    if (i >= mine.entries()) {
                        assertThat(k.timestamp()).isZero();
                        assertThat(k.offset()).isEqualTo(baseOffset);
                    }
                }
                assertThat(mine.kafkaSanityCheck().isPresent())
                        .as("Kafka's sanityCheck verdict").isEqualTo(kafkaSanityFails(kafka::sanityCheck));
                if (!mine.isPreallocated()) {
                    org.apache.kafka.storage.internals.log.TimestampOffset last = kafka.lastEntry();
                    assertThat(mine.lastEntry()).isEqualTo(new TimestampOffset(last.timestamp(), last.offset()));
                    for (long t : targets) {
                        org.apache.kafka.storage.internals.log.TimestampOffset k = kafka.lookup(t);
                        assertThat(mine.lookup(t)).as("lookup(%d)", t).isEqualTo(new TimestampOffset(k.timestamp(), k.offset()));
                    }
                }
            } finally {
                kafka.close();
            }
            return mine.entries();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Compares a .txnindex file with {@code TransactionIndex.allAbortedTxns} (which throws on a
     * bad version, as segscope's sanity check reports) and {@code sanityCheck}; returns the
     * number of entries compared.
     */
    public static int assertTxnIndexMatchesKafka(Path file, long baseOffset) {
        try (ByteSource src = MappedSource.open(file, file.getFileName().toString())) {
            TxnIndexReader mine = new TxnIndexReader().wrap(src, baseOffset);
            List<FormatException> findings = mine.sanityCheck();
            boolean badVersion = findings.stream().anyMatch(f -> f.violation() == io.segscope.format.error.Violation.INDEX_VERSION);
            boolean belowBase = findings.stream().anyMatch(f -> f.violation() == io.segscope.format.error.Violation.INDEX_OFFSET_RANGE);
            TransactionIndex kafka = new TransactionIndex(baseOffset, file.toFile());
            try {
                if (badVersion) {
                    Optional<Throwable> thrown = thrown(kafka::allAbortedTxns);
                    assertThat(thrown).as("Kafka refuses a bad version").isPresent();
                    assertThat(thrown.get()).hasMessageContaining("Unexpected aborted transaction version");
                    return 0;
                }
                List<AbortedTxn> all = kafka.allAbortedTxns();
                assertThat(all).hasSize(mine.entries());
                for (int i = 0; i < all.size(); i++) {
                    AbortedTxn k = all.get(i);
                    assertThat(mine.producerId(i)).isEqualTo(k.producerId());
                    assertThat(mine.firstOffset(i)).isEqualTo(k.firstOffset());
                    assertThat(mine.lastOffset(i)).isEqualTo(k.lastOffset());
                    assertThat(mine.lastStableOffset(i)).isEqualTo(k.lastStableOffset());
                    assertThat(mine.version(i)).isZero();
                }
                assertThat(thrown(() -> {
                    kafka.sanityCheck();
                    return null;
                }).isPresent()).as("Kafka's sanityCheck verdict").isEqualTo(belowBase);
                return all.size();
            } finally {
                kafka.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Optional<Throwable> thrown(java.util.function.Supplier<?> action) {
        try {
            action.get();
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(e);
        }
    }
}
