package io.segscope.jmh.decode;

import io.segscope.format.coordinator.Utf8Slice;
import io.segscope.format.coordinator.group.OffsetCommitView;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.RecordIterator;
import io.segscope.jmh.e2e.OffsetsSegments;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.LegacyOffsetCommitValue;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decoding every offset commit (key types 0 and 1, tombstones included) of a
 * {@code __consumer_offsets} segment ({@link OffsetsSegments}: 100 MiB by default, generated on
 * first use), every field consumed: group, topic, partition; offset, leader epoch, metadata,
 * commit and expire timestamps, topic id; control batches and other record types skipped by both
 * sides alike (the key's int16 type is read first). One operation is one pass over the segment.
 *
 * <ul>
 *   <li>{@code segscope}: the replay engine's decoding ({@code OffsetsReplay}): a
 *   {@code BatchReader} over the mapped file, each record's key and value read in place by one
 *   reused {@link OffsetCommitView}; the strings stay {@link Utf8Slice}s of the mapped bytes (the
 *   replay hashes and compares them there), so their position and length are what is consumed.
 *   The reader is made once per trial and sent back to position 0 ({@code resync(0)}) for each
 *   pass, so that {@code -prof gc} shows what one pass allocates, and nothing else.</li>
 *   <li>{@code kafka}: the coordinator's load ({@code CoordinatorLoaderImpl}, as
 *   {@code KafkaShards.load}): {@code FileRecords.readInto} one reused 5 MiB heap buffer
 *   ({@code offsets.load.buffer.size}), the batches and records of {@code MemoryRecords}, and
 *   {@code GroupCoordinatorRecordSerde.deserialize(key, value)} of each offset commit into Kafka's
 *   generated {@code OffsetCommitKey} / {@code OffsetCommitValue} (strings decoded).</li>
 * </ul>
 *
 * The setup decodes once with both and fails unless they saw the same records with the same
 * numeric fields (a sum over them); it prints the counts.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar DecodeBenchmark -prof gc
 * java -jar jmh/target/benchmarks.jar DecodeBenchmark -p codec=zstd -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class DecodeBenchmark {
    /** Kafka's {@code offsets.load.buffer.size} default. */
    private static final int LOAD_BUFFER_SIZE = 5 * 1024 * 1024;
    /** Added to the sum for a tombstone. */
    private static final long TOMBSTONE = 1_000_003L;

    /** Where the generated segments live ({@link OffsetsSegments}). */
    @Param({"/work/perfdata"})
    public String data;

    /** The segment's size in MiB: 100 is the README's segment; 1 for a smoke run. */
    @Param({"100"})
    public int sizeMib;

    /** Compression of the segment's batches (the same records): none or zstd. */
    @Param({"none"})
    public String codec;

    private ByteSource mapped;
    private BatchReader reader;
    private final OffsetCommitView view = new OffsetCommitView();
    private FileRecords file;
    private ByteBuffer loadBuffer;
    private final GroupCoordinatorRecordSerde serde = new GroupCoordinatorRecordSerde();

    @Setup(Level.Trial)
    public void setup() throws IOException {
        Path log = OffsetsSegments.segment(Path.of(data), codec, sizeMib);
        mapped = MappedSource.open(log);
        reader = new BatchReader(mapped, ReaderOptions.defaults());
        file = FileRecords.open(log.toFile(), false);
        loadBuffer = ByteBuffer.allocate(LOAD_BUFFER_SIZE);
        Blackhole bh = new Blackhole(
                "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
        long ours = segscope(bh);
        long theirs = kafka(bh);
        bh.evaporate("Yes, I am Stephen Hawking, and know a thing or two about black holes.");
        if (ours != theirs) {
            throw new IllegalStateException("the sums of the decoded fields differ: segscope " + ours + ", Kafka " + theirs);
        }
        long tombstones = 0;
        long commits = 0;
        reader.resync(0);
        while (reader.next()) {
            RecordIterator it = reader.batch().isControl() ? null : reader.batch().records();
            while (it != null && it.next()) {
                LogRecord rec = it.record();
                if (OffsetCommitView.isOffsetCommitKey(rec.buffer(), rec.keyOffset(), rec.keyLength())) {
                    if (rec.hasValue()) {
                        commits++;
                    } else {
                        tombstones++;
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%n%s: %,d bytes, %,d offset commits and %,d tombstones decoded (segscope = Kafka)%n",
                log, mapped.size(), commits, tombstones);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        reader.close();
        file.close();
        mapped.close();
    }

    /** One pass; returns a sum of the numeric fields (the setup's check). */
    @Benchmark
    public long segscope(Blackhole bh) {
        BatchReader r = reader;
        OffsetCommitView v = view;
        long sum = 0;
        r.resync(0);
        while (r.next()) {
            Batch batch = r.batch();
            if (batch.isControl()) {
                continue;
            }
            RecordIterator it = batch.records();
            while (it.next()) {
                LogRecord rec = it.record();
                ByteBuffer buf = rec.buffer();
                int keyOffset = rec.keyOffset();
                int keyLength = rec.keyLength();
                if (!OffsetCommitView.isOffsetCommitKey(buf, keyOffset, keyLength)) {
                    continue;
                }
                if (!v.wrap(buf, keyOffset, keyLength, rec.hasValue() ? buf : null, rec.valueOffset(), rec.valueLength())) {
                    throw new IllegalStateException("not an offset commit at offset " + rec.offset());
                }
                sum += consume(bh, v);
            }
        }
        return sum;
    }

    private static long consume(Blackhole bh, OffsetCommitView v) {
        consume(bh, v.group());
        consume(bh, v.topic());
        long sum = 1 + 7L * v.partition();
        if (v.isTombstone()) {
            return sum + TOMBSTONE;
        }
        consume(bh, v.metadata());
        bh.consume(v.valueVersion());
        return sum + v.offset() + v.leaderEpoch() + v.commitTimestamp() + v.expireTimestamp()
                + v.topicIdMostSignificantBits() + v.topicIdLeastSignificantBits();
    }

    private static void consume(Blackhole bh, Utf8Slice s) {
        bh.consume(s.offset());
        bh.consume(s.length());
    }

    /** One pass; returns a sum of the numeric fields (the setup's check). */
    @Benchmark
    public long kafka(Blackhole bh) throws IOException {
        ByteBuffer buffer = loadBuffer;
        long sum = 0;
        int size = file.sizeInBytes();
        int position = 0;
        while (position < size) {
            buffer.clear();
            file.readInto(buffer, position);
            MemoryRecords records = MemoryRecords.readableRecords(buffer);
            int consumed = 0;
            for (MutableRecordBatch batch : records.batches()) {
                consumed += batch.sizeInBytes();
                if (batch.isControlBatch()) {
                    continue;
                }
                for (Record r : batch) {
                    if (!r.hasKey()) {
                        continue;
                    }
                    ByteBuffer key = r.key();
                    short type = key.getShort(key.position());
                    if (type != 0 && type != 1) {
                        continue;
                    }
                    CoordinatorRecord rec = serde.deserialize(key, r.value());
                    sum += consume(bh, rec);
                }
            }
            if (consumed == 0) {
                throw new IOException(file.file() + ": no whole batch at position " + position);
            }
            position += consumed;
        }
        return sum;
    }

    private static long consume(Blackhole bh, CoordinatorRecord rec) {
        ApiMessage key = rec.key();
        long sum;
        if (key instanceof OffsetCommitKey k) {
            bh.consume(k.group());
            bh.consume(k.topic());
            sum = 1 + 7L * k.partition();
        } else {
            LegacyOffsetCommitKey k = (LegacyOffsetCommitKey) key;
            bh.consume(k.group());
            bh.consume(k.topic());
            sum = 1 + 7L * k.partition();
        }
        ApiMessageAndVersion value = rec.value();
        if (value == null) {
            return sum + TOMBSTONE;
        }
        bh.consume(value.version());
        if (value.message() instanceof OffsetCommitValue v) {
            bh.consume(v.metadata());
            return sum + v.offset() + v.leaderEpoch() + v.commitTimestamp() + v.expireTimestamp()
                    + v.topicId().getMostSignificantBits() + v.topicId().getLeastSignificantBits();
        }
        LegacyOffsetCommitValue v = (LegacyOffsetCommitValue) value.message();
        bh.consume(v.metadata());
        return sum + v.offset() - 1 + v.commitTimestamp() - 1;
    }
}
