package io.segscope.format.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.segscope.format.error.FormatException;
import io.segscope.format.index.FixedSizeIndexReader;
import io.segscope.format.index.OffsetIndexReader;
import io.segscope.format.index.TimeIndexReader;
import io.segscope.format.index.TxnIndexReader;
import io.segscope.format.io.ByteSource;
import io.segscope.format.state.CleanShutdown;
import io.segscope.format.state.LeaderEpochCheckpoint;
import io.segscope.format.state.MetaProperties;
import io.segscope.format.state.OffsetCheckpoint;
import io.segscope.format.state.PartitionMetadata;
import io.segscope.format.state.ProducerSnapshotReader;

import java.nio.ByteBuffer;
import java.util.function.Function;

/**
 * The fuzzer's bytes as a partition's side files (format/FUZZING.md): every reader of
 * {@code io.segscope.format.index} and {@code io.segscope.format.state} returns a result or
 * throws a {@link FormatException}; anything else is a finding.
 */
class SideFileFuzzTest {
    private static final long BASE_OFFSET = 100;

    /**
     * The bytes as an offset index, a time index (both as stored, and followed by a preallocated
     * zero tail) and a transaction index: every entry, lookups, and the sanity checks.
     */
    @FuzzTest(maxDuration = "30s")
    void indexes(byte[] bytes) {
        OffsetIndexReader offsets = new OffsetIndexReader();
        TimeIndexReader times = new TimeIndexReader();
        for (ByteSource source : new ByteSource[] {
                Fuzzed.source(bytes, "00000000000000000100.index"),
                ByteSource.withZeroTail(ByteBuffer.wrap(bytes).asReadOnlyBuffer(), bytes.length + 96L, "00000000000000000100.index")}) {
            try {
                offsets.wrap(source, BASE_OFFSET);
                for (int i = 0; i < offsets.entries(); i++) {
                    offsets.lookup(offsets.offset(i));
                    offsets.position(i);
                }
                offsets.lookup(Long.MAX_VALUE);
                offsets.lastOffset();
                checks(offsets);
            } catch (FormatException expected) {
                // segscope's typed problem
            }
            try {
                times.wrap(source, BASE_OFFSET);
                for (int i = 0; i < times.entries(); i++) {
                    times.lookup(times.timestamp(i));
                    times.offset(i);
                }
                times.lookup(Long.MIN_VALUE);
                times.lastEntry();
                checks(times);
            } catch (FormatException expected) {
                // segscope's typed problem
            }
        }
        try {
            TxnIndexReader txns = new TxnIndexReader().wrap(Fuzzed.source(bytes, "00000000000000000100.txnindex"), BASE_OFFSET);
            for (int i = 0; i < txns.entries(); i++) {
                txns.collectAbortedTxns(txns.firstOffset(i), txns.lastStableOffset(i));
                txns.searchComplete(txns.lastOffset(i));
                txns.version(i);
                txns.producerId(i);
            }
            txns.sanityCheck();
            txns.ensureValid();
        } catch (FormatException expected) {
            // segscope's typed problem
        }
    }

    private static void checks(FixedSizeIndexReader index) {
        index.sanityCheck();
        index.kafkaSanityCheck();
        index.ensureValid();
    }

    /**
     * The bytes as a producer snapshot (structure, CRC, every entry) and as each of the text side
     * files: leader-epoch-checkpoint, the offset checkpoints, .kafka_cleanshutdown,
     * meta.properties and partition.metadata.
     */
    @FuzzTest(maxDuration = "30s")
    void stateFiles(byte[] bytes) {
        try {
            ProducerSnapshotReader snapshot = new ProducerSnapshotReader().wrap(Fuzzed.source(bytes, "00000000000000000100.snapshot"));
            snapshot.isCrcValid();
            snapshot.entries();
            snapshot.findings();
            snapshot.trailingBytes();
            snapshot.verifyCrc();
        } catch (FormatException expected) {
            // segscope's typed problem
        }
        read(bytes, "leader-epoch-checkpoint", LeaderEpochCheckpoint::read);
        read(bytes, OffsetCheckpoint.RECOVERY_POINT, OffsetCheckpoint::read);
        read(bytes, CleanShutdown.FILE_NAME, CleanShutdown::read);
        read(bytes, "meta.properties", MetaProperties::read);
        read(bytes, "partition.metadata", PartitionMetadata::read);
    }

    private static void read(byte[] bytes, String name, Function<ByteSource, ?> reader) {
        try {
            reader.apply(Fuzzed.source(bytes, name));
        } catch (FormatException expected) {
            // segscope's typed problem
        }
    }
}
