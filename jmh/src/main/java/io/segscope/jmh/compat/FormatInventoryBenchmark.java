package io.segscope.jmh.compat;

import io.segscope.format.compat.FormatInventory;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.TopicPartitionName;
import io.segscope.format.record.ReaderOptions;
import io.segscope.jmh.e2e.OffsetsSegments;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
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

/**
 * The format inventory of {@code segscope compat}: what one partition's log holds, format by
 * format, on the same bytes with Kafka 4.4.0's own code in the same run. The segment is
 * {@link OffsetsSegments}' (100 MiB by default, generated on first use under {@code data}), read as
 * two partitions:
 *
 * <ul>
 *   <li>{@code input=user}: the segment as the only segment of a user topic's partition
 *   ({@code events-0}). {@code segscope}: {@code FormatInventory.of} without {@code --deep} (batches
 *   by magic, codec and feature from their headers; records read only for control batches).
 *   {@code kafka}: {@code FileRecords.open(file, false).batches()} and the same header facts of each
 *   batch (magic, codec, producer id, transactional, control, timestamp type, delete horizon, record
 *   count), a control batch's first record read for its type.</li>
 *   <li>{@code input=offsets}: the segment as {@code __consumer_offsets-0}. {@code segscope}:
 *   {@code FormatInventory.of} (every record's type and value version counted, its value checked
 *   against its schema, tagged fields heard). {@code kafka}: the same {@code batches()} and
 *   {@code GroupCoordinatorRecordSerde.deserialize} of every record, counted by type and value
 *   version, as the group coordinator's load reads them.</li>
 * </ul>
 *
 * The setup runs both sides once and fails unless they count the same batches and records (and for
 * {@code offsets} the same records per type and version).
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar FormatInventoryBenchmark -p codec=zstd -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class FormatInventoryBenchmark {
    /** Where the generated segments live ({@link OffsetsSegments}). */
    @Param({"/work/perfdata"})
    public String data;

    /** The segment's size in MiB: 100 by default; 2 for a smoke run. */
    @Param({"100"})
    public int sizeMib;

    /** Compression of the segment's batches: none or zstd. */
    @Param({"zstd"})
    public String codec;

    /** The partition the segment is read as: a user topic's or {@code __consumer_offsets}'. */
    @Param({"user", "offsets"})
    public String input;

    private Path dir;
    private Path link;
    private String topic;
    private List<LogFile> files;
    private FileRecords kafka;
    private final GroupCoordinatorRecordSerde serde = new GroupCoordinatorRecordSerde();

    @Setup(Level.Trial)
    public void setup() throws IOException {
        Path segment = OffsetsSegments.segment(Path.of(data), codec, sizeMib);
        topic = input.equals("user") ? "events" : "__consumer_offsets";
        dir = Files.createTempDirectory("segscope-compat-bench-").resolve(topic + "-0");
        Files.createDirectories(dir);
        link = Files.createSymbolicLink(dir.resolve(segment.getFileName()), segment);
        Path log = link;
        files = List.of(LogFile.classify(FileEntry.of(log), Optional.of(TopicPartitionName.parse(topic + "-0"))));
        kafka = FileRecords.open(log.toFile(), false);
        FormatInventory.Counts ours = FormatInventory.of(topic, 0, files, ReaderOptions.defaults(), false);
        long[] theirs = input.equals("user") ? kafkaUser() : kafkaOffsets();
        if (ours.batches() != theirs[0] || ours.records() != theirs[1]) {
            throw new IllegalStateException("segscope " + ours.batches() + " batches, " + ours.records() + " records; Kafka "
                    + theirs[0] + ", " + theirs[1]);
        }
        if (input.equals("offsets")) {
            Map<String, Long> mine = new TreeMap<>();
            ours.recordVersions().forEach((k, v) -> mine.put(k, v.count()));
            if (!mine.equals(kafkaVersions)) {
                throw new IllegalStateException("record versions: segscope " + mine + ", Kafka " + kafkaVersions);
            }
        }
        System.out.printf(Locale.ROOT, "%n%s as %s-0: %,d bytes, %,d batches, %,d records (segscope = Kafka)%n", segment, topic,
                Files.size(segment), ours.batches(), ours.records());
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        kafka.close();
        Files.delete(link);
        Files.delete(dir);
        Files.delete(dir.getParent());
    }

    /** The partition's format inventory, as {@code segscope compat} reads it. */
    @Benchmark
    public FormatInventory.Counts segscope() {
        return FormatInventory.of(topic, 0, files, ReaderOptions.defaults(), false);
    }

    /** The same facts with Kafka's reader (and, for {@code __consumer_offsets}, its coordinator serde). */
    @Benchmark
    public long[] kafka() throws IOException {
        return input.equals("user") ? kafkaUser() : kafkaOffsets();
    }

    /** Batches, records, then the header facts folded in so that none is optimised away. */
    private long[] kafkaUser() throws IOException {
        long batches = 0;
        long records = 0;
        long facts = 0;
        long[] codecs = new long[8];
        for (FileChannelRecordBatch b : kafka.batches()) {
            batches++;
            codecs[b.compressionType().id]++;
            facts += b.magic() + (b.producerId() >= 0 ? 1 : 0) + (b.isTransactional() ? 2 : 0)
                    + (b.timestampType() == TimestampType.LOG_APPEND_TIME ? 4 : 0) + (b.deleteHorizonMs().isPresent() ? 8 : 0)
                    + b.maxTimestamp();
            Integer n = b.countOrNull();
            records += n == null ? 0 : n;
            if (b.isControlBatch()) {
                for (Record r : b) {
                    facts += r.key().getShort(2);   // the control type
                    break;
                }
            }
        }
        return new long[] {batches, records, facts, codecs[0] + codecs[4]};
    }

    private Map<String, Long> kafkaVersions;

    private long[] kafkaOffsets() throws IOException {
        long batches = 0;
        long records = 0;
        Map<String, Long> versions = new TreeMap<>();
        long[][] counts = new long[64][16];
        long[] tombstones = new long[64];
        for (FileChannelRecordBatch b : kafka.batches()) {
            batches++;
            if (b.isControlBatch()) {
                records += b.countOrNull();
                continue;
            }
            for (Record r : b) {
                records++;
                ByteBuffer key = r.key();
                CoordinatorRecord c = serde.deserialize(key, r.value());
                short type = c.key().apiKey();
                if (c.value() == null) {
                    tombstones[type]++;
                } else {
                    counts[type][c.value().version()]++;
                }
            }
        }
        for (int t = 0; t < counts.length; t++) {
            if (tombstones[t] > 0) {
                versions.put(t + "/-1", tombstones[t]);
            }
            for (int v = 0; v < counts[t].length; v++) {
                if (counts[t][v] > 0) {
                    versions.put(t + "/" + v, counts[t][v]);
                }
            }
        }
        kafkaVersions = versions;
        return new long[] {batches, records, versions.size()};
    }
}
