package io.segscope.jmh;

import io.segscope.format.record.CompressionType;
import io.segscope.format.write.BatchBuilder;
import io.segscope.format.write.RecordHeaders;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Building 100 magic-2 batches of 100 records (16-byte keys, ~80-byte values, half of them
 * compressible): segscope's {@code BatchBuilder} (one reused builder) against Kafka's
 * {@code MemoryRecordsBuilder} (one per batch, as the cleaner's {@code filterTo} makes them), the
 * same bytes out (the format tests check that), one codec per parameter.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar BatchBuildBenchmark -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class BatchBuildBenchmark {
    private static final int BATCHES = 100;
    private static final int RECORDS = 100;

    @Param({"none", "gzip", "snappy", "lz4", "zstd"})
    public String codec;

    private byte[][] keys;
    private byte[][] values;
    private BatchBuilder builder;
    private CompressionType type;
    private Compression compression;

    @Setup(Level.Trial)
    public void setup() {
        Random rnd = new Random(42);
        keys = new byte[RECORDS][16];
        values = new byte[RECORDS][];
        for (int i = 0; i < RECORDS; i++) {
            rnd.nextBytes(keys[i]);
            values[i] = new byte[60 + rnd.nextInt(40)];
            if (rnd.nextBoolean()) {
                rnd.nextBytes(values[i]);
            } else {
                java.util.Arrays.fill(values[i], (byte) 'v');
            }
        }
        builder = new BatchBuilder(64 * 1024);
        type = CompressionType.valueOf(codec.toUpperCase(java.util.Locale.ROOT));
        compression = Compression.of(codec).build();
    }

    @Benchmark
    public void segscope(Blackhole bh) {
        long offset = 0;
        for (int b = 0; b < BATCHES; b++) {
            builder.begin(offset, type).partitionLeaderEpoch(3);
            for (int i = 0; i < RECORDS; i++) {
                byte[] k = keys[i];
                byte[] v = values[i];
                builder.append(offset, 1_700_000_000_000L + offset, k, 0, k.length, v, 0, v.length, RecordHeaders.NONE);
                offset++;
            }
            ByteBuffer out = builder.finish();
            bh.consume(out.getInt(17));
        }
    }

    @Benchmark
    public void kafka(Blackhole bh) {
        long offset = 0;
        for (int b = 0; b < BATCHES; b++) {
            MemoryRecordsBuilder mrb = new MemoryRecordsBuilder(new ByteBufferOutputStream(64 * 1024),
                    RecordBatch.MAGIC_VALUE_V2, compression, TimestampType.CREATE_TIME, offset,
                    RecordBatch.NO_TIMESTAMP, -1L, (short) -1, -1, false, false, 3, Integer.MAX_VALUE,
                    RecordBatch.NO_TIMESTAMP);
            for (int i = 0; i < RECORDS; i++) {
                mrb.appendWithOffset(offset, 1_700_000_000_000L + offset, keys[i], values[i], Record.EMPTY_HEADERS);
                offset++;
            }
            bh.consume(mrb.build().buffer().getInt(17));
        }
    }
}
