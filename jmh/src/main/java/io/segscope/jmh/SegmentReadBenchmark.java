package io.segscope.jmh;

import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.format.record.Batch;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.RecordIterator;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.FileLogInputStream.FileChannelRecordBatch;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.internals.ByteBufferOutputStream;
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

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Reading every record of one segment (offset, timestamp, key and value lengths, first value
 * byte): segscope's mapped flyweights against Kafka's {@code FileRecords} on the same file, in
 * the same run. The segment is built once per trial with Kafka's own builder: 500 batches of 100
 * records (~80-byte values, a few compressible), one codec per parameter.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar SegmentReadBenchmark -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class SegmentReadBenchmark {
    @Param({"none", "gzip", "snappy", "lz4", "zstd"})
    public String codec;

    private Path dir;
    private Path file;
    private ByteSource mapped;
    private FileRecords kafka;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("segscope-jmh");
        file = dir.resolve("00000000000000000000.log");
        Random rnd = new Random(42);
        long offset = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int b = 0; b < 500; b++) {
                MemoryRecordsBuilder builder = new MemoryRecordsBuilder(new ByteBufferOutputStream(16 * 1024),
                        RecordBatch.MAGIC_VALUE_V2, Compression.of(codec).build(), TimestampType.CREATE_TIME, offset,
                        RecordBatch.NO_TIMESTAMP, -1L, (short) -1, -1, false, false, 0, Integer.MAX_VALUE,
                        RecordBatch.NO_TIMESTAMP);
                for (int i = 0; i < 100; i++) {
                    byte[] value = new byte[80];
                    if (rnd.nextBoolean()) {
                        rnd.nextBytes(value);
                    }
                    builder.appendWithOffset(offset++, 1_700_000_000_000L + offset,
                            ("key-" + (offset % 1000)).getBytes(StandardCharsets.UTF_8), value);
                }
                ch.write(builder.build().buffer());
            }
        }
        mapped = MappedSource.open(file);
        kafka = FileRecords.open(file.toFile(), false);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        kafka.close();
        mapped.close();
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    /** segscope: BatchReader over the mapped file, flyweight records. */
    @Benchmark
    public void segscope(Blackhole bh) {
        long sum = 0;
        try (BatchReader reader = new BatchReader(mapped)) {
            while (reader.next()) {
                Batch batch = reader.batch();
                RecordIterator it = batch.records();
                while (it.next()) {
                    LogRecord r = it.record();
                    sum += r.offset() + r.timestamp() + r.keyLength() + r.valueLength();
                    if (r.valueLength() > 0) {
                        sum += r.buffer().get(r.valueOffset());
                    }
                }
            }
        }
        bh.consume(sum);
    }

    /** Kafka: FileRecords.batches(), iterating each batch's records. */
    @Benchmark
    public void kafka(Blackhole bh) {
        long sum = 0;
        for (FileChannelRecordBatch batch : kafka.batches()) {
            for (Record r : batch) {
                sum += r.offset() + r.timestamp() + r.keySize() + r.valueSize();
                if (r.valueSize() > 0) {
                    sum += r.value().get(r.value().position());
                }
            }
        }
        bh.consume(sum);
    }

    /** segscope: walk and CRC-check every batch, records untouched (what log recovery does). */
    @Benchmark
    public void segscopeShallowCrc(Blackhole bh) {
        int valid = 0;
        try (BatchReader reader = new BatchReader(mapped)) {
            while (reader.next()) {
                valid += reader.batch().isValid() ? 1 : 0;
            }
        }
        bh.consume(valid);
    }

    /** Kafka: FileRecords.batches() with isValid() per batch. */
    @Benchmark
    public void kafkaShallowCrc(Blackhole bh) {
        int valid = 0;
        for (FileChannelRecordBatch batch : kafka.batches()) {
            valid += batch.isValid() ? 1 : 0;
        }
        bh.consume(valid);
    }
}
