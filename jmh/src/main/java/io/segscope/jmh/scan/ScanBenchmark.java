package io.segscope.jmh.scan;

import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.format.json.JsonOut;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.ReaderOptions;
import io.segscope.jmh.e2e.OffsetsSegments;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
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
 * Walking every batch of a {@code __consumer_offsets} segment and checking its CRC, records
 * untouched: what {@code segscope verify} does first with each batch and what Kafka's
 * {@code DumpLogSegments} (without {@code --deep-iteration}) and its log recovery do. One operation
 * is one pass over the whole segment ({@link OffsetsSegments}: 100 MiB by default, generated on
 * first use).
 *
 * <ul>
 *   <li>{@code segscope}: verify's own calls ({@code SegmentWalk}): the file mapped by
 *   {@code MappedSource.open}, a {@code BatchReader} with the default options, {@code isValid()} on
 *   every batch (CRC-32C of attributes..end, computed over the mapping in place).</li>
 *   <li>{@code kafka}: {@code FileRecords.open(file, false).batches()} and {@code ensureValid()} on
 *   each batch, as {@code DumpLogSegments}' batch pass does (each batch is read from the channel
 *   into a heap buffer of its own).</li>
 *   <li>{@code limitCrc32c}: the machine's limit for the CRC part: {@code java.util.zip.CRC32C}
 *   over every byte of the same mapping in one call (segscope's CRCs cover all but the 21 header
 *   bytes of each batch).</li>
 *   <li>{@code limitMemcpy}: the machine's limit for touching the bytes at all: every byte of the
 *   same mapping copied into one preallocated heap buffer.</li>
 *   <li>{@code limitJsonWriter}: the dump's JSON writer alone, one jsonl-sized line per record of
 *   the segment (its size is printed at setup): the most {@code dump --format jsonl} could write
 *   per second on one core.</li>
 * </ul>
 *
 * Compare the four in the same run: {@code limitCrc32c / segscope} (times) is the share of raw
 * CRC-32C throughput that segscope's scan reaches. The setup walks once with both readers and fails
 * unless they count the same batches, all valid.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar ScanBenchmark -prof gc
 * java -jar jmh/target/benchmarks.jar ScanBenchmark -p codec=zstd
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class ScanBenchmark {
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
    private ByteBuffer whole;
    private ByteBuffer copy;
    private final CRC32C crc32c = new CRC32C();
    private FileRecords kafka;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        Path log = OffsetsSegments.segment(Path.of(data), codec, sizeMib);
        mapped = MappedSource.open(log);
        int size = (int) mapped.size();
        if (mapped.ensure(0, size) != 0) {
            throw new IllegalStateException("not mapped whole: " + log);
        }
        whole = mapped.buffer().duplicate().position(0).limit(size);
        copy = ByteBuffer.allocate(size);
        kafka = FileRecords.open(log.toFile(), false);
        long ours = segscope();
        long theirs = kafka();
        if (ours != theirs) {
            throw new IllegalStateException("valid batches: segscope " + ours + ", Kafka " + theirs);
        }
        java.util.List<long[]> records = new java.util.ArrayList<>();
        try (BatchReader reader = new BatchReader(mapped, ReaderOptions.defaults())) {
            while (reader.next()) {
                io.segscope.format.record.RecordIterator it = reader.batch().records();
                while (it.next()) {
                    records.add(new long[]{it.record().offset(), it.record().timestamp()});
                }
            }
        }
        recordOffsets = records.stream().mapToLong(r -> r[0]).toArray();
        recordTimes = records.stream().mapToLong(r -> r[1]).toArray();
        jsonBytes = limitJsonWriter();
        System.out.printf(Locale.ROOT, "%n%s: %,d bytes, %,d batches, all valid (segscope = Kafka); limitJsonWriter writes"
                + " %,d bytes for its %,d records%n", log, size, ours, jsonBytes, recordOffsets.length);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            kafka.close();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        mapped.close();
    }

    /** The valid batches; a bad CRC throws as verify reports it. */
    @Benchmark
    public long segscope() {
        long valid = 0;
        try (BatchReader reader = new BatchReader(mapped, ReaderOptions.defaults())) {
            while (reader.next()) {
                Batch b = reader.batch();
                if (!b.isValid()) {
                    b.ensureValid();
                }
                valid++;
            }
        }
        return valid;
    }

    /** The valid batches; {@code ensureValid()} throws on a bad CRC. */
    @Benchmark
    public long kafka() {
        long valid = 0;
        for (FileChannelRecordBatch batch : kafka.batches()) {
            batch.ensureValid();
            valid++;
        }
        return valid;
    }

    @Benchmark
    public long limitCrc32c() {
        crc32c.reset();
        crc32c.update(whole.position(0));
        return crc32c.getValue();
    }

    /**
     * The dump's JSON writer alone ({@code JsonOut}, what {@code dump --format jsonl} writes with):
     * one line per record of the segment with the fields and sizes of a jsonl record line (batch
     * fields, offset, time, an offset commit's key and value), its values taken from arrays read
     * in the setup, into a buffer emptied every 4 MiB; nothing read, decoded or written to a file.
     * {@link #jsonBytes} bytes per operation.
     */
    @Benchmark
    public long limitJsonWriter() {
        JsonOut o = json;
        o.reset();
        long total = 0;
        for (int i = 0; i < recordOffsets.length; i++) {
            long offset = recordOffsets[i];
            long time = recordTimes[i];
            o.writeStartObject();
            o.writeStringField(LINE, "record");
            o.writeStringField(FILE, "/data/kafka/__consumer_offsets-0/00000000000000000000.log");
            o.writeStringField(TOPIC, "__consumer_offsets");
            o.writeNumberField(PARTITION, 0);
            for (JsonOut.Name n : BATCH_NUMBERS) {
                o.writeNumberField(n, offset);
            }
            o.writeStringField(COMPRESSION, "none");
            o.writeBooleanField(TRANSACTIONAL, false);
            o.writeNumberField(OFFSET, offset);
            o.writeNumberField(TIMESTAMP, time);
            o.writeStringField(TIME, "2026-11-30T00:00:00.016Z");
            o.writeArrayFieldStart(HEADERS).writeEndArray();
            o.writeStringField(OWNER, "connect.pricing-81");
            o.writeStringField(KEY_TOPIC, "audit.raw.v2");
            o.writeNumberField(PARTITION, (int) (offset & 63));
            o.writeObjectFieldStart(KEY).writeNumberField(TYPE, 1).writeStringField(NAME, "OffsetCommit");
            o.writeObjectFieldStart(DATA).writeStringField(GROUP, "connect.pricing-81").writeStringField(TOPIC, "audit.raw.v2")
                    .writeNumberField(PARTITION, (int) (offset & 63)).writeEndObject().writeEndObject();
            o.writeObjectFieldStart(VALUE).writeNumberField(VERSION, 4).writeObjectFieldStart(DATA)
                    .writeNumberField(OFFSET, offset * 7).writeNumberField(LEADER_EPOCH, 15).writeStringField(METADATA, "")
                    .writeNumberField(COMMIT_TIMESTAMP, time).writeStringField(TOPIC_ID, "VeGRTrcJAypQ_iYrK-KIYg")
                    .writeEndObject().writeEndObject();
            o.writeEndObject();
            o.raw('\n');
            if (o.size() >= 4 << 20) {
                total += o.size();
                o.reset();
            }
        }
        return total + o.size();
    }

    private static final JsonOut.Name LINE = JsonOut.name("line");
    private static final JsonOut.Name FILE = JsonOut.name("file");
    private static final JsonOut.Name TOPIC = JsonOut.name("topic");
    private static final JsonOut.Name PARTITION = JsonOut.name("partition");
    private static final JsonOut.Name[] BATCH_NUMBERS = java.util.stream.Stream.of("position", "baseOffset", "lastOffset",
            "magic", "producerId", "producerEpoch", "partitionLeaderEpoch", "crc", "size", "count", "baseSequence",
            "lastSequence", "maxTimestamp", "sequence").map(JsonOut::name).toArray(JsonOut.Name[]::new);
    private static final JsonOut.Name COMPRESSION = JsonOut.name("compression");
    private static final JsonOut.Name TRANSACTIONAL = JsonOut.name("isTransactional");
    private static final JsonOut.Name OFFSET = JsonOut.name("offset");
    private static final JsonOut.Name TIMESTAMP = JsonOut.name("timestamp");
    private static final JsonOut.Name TIME = JsonOut.name("time");
    private static final JsonOut.Name HEADERS = JsonOut.name("headers");
    private static final JsonOut.Name OWNER = JsonOut.name("owner");
    private static final JsonOut.Name KEY_TOPIC = JsonOut.name("keyTopic");
    private static final JsonOut.Name KEY = JsonOut.name("key");
    private static final JsonOut.Name TYPE = JsonOut.name("type");
    private static final JsonOut.Name NAME = JsonOut.name("name");
    private static final JsonOut.Name DATA = JsonOut.name("data");
    private static final JsonOut.Name GROUP = JsonOut.name("group");
    private static final JsonOut.Name VALUE = JsonOut.name("value");
    private static final JsonOut.Name VERSION = JsonOut.name("version");
    private static final JsonOut.Name LEADER_EPOCH = JsonOut.name("leaderEpoch");
    private static final JsonOut.Name METADATA = JsonOut.name("metadata");
    private static final JsonOut.Name COMMIT_TIMESTAMP = JsonOut.name("commitTimestamp");
    private static final JsonOut.Name TOPIC_ID = JsonOut.name("topicId");

    private final JsonOut json = new JsonOut(8 << 20);
    private long[] recordOffsets;
    private long[] recordTimes;
    /** Bytes {@link #limitJsonWriter} writes per operation. */
    public long jsonBytes;

    @Benchmark
    public ByteBuffer limitMemcpy() {
        copy.clear();
        copy.put(whole.position(0));
        return copy;
    }
}
