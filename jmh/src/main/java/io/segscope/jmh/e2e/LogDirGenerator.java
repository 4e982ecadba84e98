package io.segscope.jmh.e2e;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.checkpoint.OffsetCheckpointFile;
import org.apache.kafka.storage.internals.checkpoint.PartitionMetadataFile;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;

/**
 * Writes a whole broker log dir, as a Kafka 4.4.0 KRaft broker leaves it after a clean shutdown, for
 * the scale runs of jmh/SCALE.md (jmh/GENERATOR.md, "A whole log dir"):
 *
 * <ul>
 *   <li>{@code meta.properties}, {@code .kafka_cleanshutdown}, and the four checkpoints
 *       ({@code recovery-point-offset-checkpoint}, {@code replication-offset-checkpoint}: every
 *       partition at its log end offset; {@code log-start-offset-checkpoint},
 *       {@code cleaner-offset-checkpoint}: empty, every log starts at 0 and none was cleaned),
 *       written by Kafka's {@code OffsetCheckpointFile};</li>
 *   <li>a tenth of {@code --partitions} (at most 50) {@code __consumer_offsets-N} partitions, each
 *       written by {@link OffsetsSegmentGenerator} ({@code --partition N}: groups that hash to N);</li>
 *   <li>the rest split over five user topics: {@code orders} (none), {@code events} (zstd),
 *       {@code clicks} (lz4), {@code customer-state} (compacted, snappy, every record keyed from a
 *       bounded key space, 3% tombstones) and {@code payments} (transactional, zstd: transactions of
 *       one to three batches closed by COMMIT, or ABORT one time in ten), magic v2 CreateTime batches
 *       of 1 to 200 records built by Kafka's {@code MemoryRecordsBuilder}; the partition leader epoch
 *       goes from 0 to 1 halfway.</li>
 * </ul>
 *
 * <p>Every partition has {@code --segments-per-partition} segments, rolled before the batch that
 * would pass {@code --segment-kib} (the {@code __consumer_offsets} ones at the nearest whole MiB, at
 * least 1), and is then opened once by Kafka's {@code UnifiedLog} and shut down cleanly
 * ({@link BrokerRestart}): its recovery writes the {@code .index}, {@code .timeindex},
 * {@code .txnindex}, producer snapshots, {@code leader-epoch-checkpoint} and, for the user topics,
 * {@code partition.metadata} ({@code PartitionMetadataFile} for {@code __consumer_offsets}). Topic
 * ids, cluster and directory ids, keys and values come from {@link SplittableRandom}s seeded by
 * {@code --seed}: the same options give the same bytes.
 *
 * <p>Beside the log dir, {@code DIR.expected-offsets.csv}: the {@code expected-offsets.csv} lines of
 * every {@code __consumer_offsets} partition ({@link ExpectedOffsets}), in partition order; sorted,
 * they are what {@code segscope offsets --format csv DIR} prints, sorted.
 */
public final class LogDirGenerator {
    static final String USAGE = String.join("\n",
            "usage: LogDirGenerator --out DIR [options]",
            "  --out DIR                     the log dir to write (its partitions are replaced)",
            "  --partitions N                partitions in all (500): a tenth of them (at most 50) __consumer_offsets",
            "  --segments-per-partition N    segments of every partition (10)",
            "  --segment-kib N               roll a segment before the batch that would pass N KiB (512);",
            "                                __consumer_offsets at the nearest whole MiB, at least 1",
            "  --seed N                      random seed (42)",
            "Also writes DIR.expected-offsets.csv beside DIR: the committed offsets of its __consumer_offsets",
            "partitions, as `segscope offsets --format csv DIR` prints them (in another order).");

    /** The log's clock: six hours after the first record, so that no producer has expired. */
    static final long NOW = OffsetsSegmentGenerator.T0 + 6 * 3_600_000L;

    /** A user topic: its codec, whether it is compacted or transactional, and its share of the user partitions. */
    record TopicSpec(String name, String codec, boolean compacted, boolean transactional, int share) {
    }

    static final List<TopicSpec> TOPICS = List.of(
            new TopicSpec("orders", "none", false, false, 8),
            new TopicSpec("events", "zstd", false, false, 8),
            new TopicSpec("clicks", "lz4", false, false, 6),
            new TopicSpec("customer-state", "snappy", true, false, 4),
            new TopicSpec("payments", "zstd", false, true, 4));

    private static final String[] WORDS = ("order customer item price quantity status created updated shipped "
            + "delivered pending cancelled payment card amount currency EUR USD GBP address street city zip "
            + "country session page view click user agent Mozilla/5.0 referrer campaign source medium id "
            + "true false null region eu-west-1 us-east-1 warehouse sku discount total tax").split(" ");

    private final Path out;
    private final int partitions;
    private final int segments;
    private final int segmentKib;
    private final long seed;
    /** Pseudo-text, keys and values are slices of it: compressible as JSON-ish payloads are. */
    private final byte[] text;
    private final Map<TopicPartition, Long> logEnd = new LinkedHashMap<>();
    /** The {@code expected-offsets.csv} lines of every {@code __consumer_offsets} partition, in partition order. */
    private final List<String> expectedOffsets = new ArrayList<>();

    LogDirGenerator(Path out, int partitions, int segments, int segmentKib, long seed) {
        this.out = out;
        this.partitions = partitions;
        this.segments = segments;
        this.segmentKib = segmentKib;
        this.seed = seed;
        SplittableRandom r = new SplittableRandom(seed);
        StringBuilder b = new StringBuilder();
        while (b.length() < 256 * 1024) {
            b.append('"').append(WORDS[r.nextInt(WORDS.length)]).append("\":");
            if (r.nextBoolean()) {
                b.append(r.nextInt(100_000));
            } else {
                b.append('"').append(WORDS[r.nextInt(WORDS.length)]).append('"');
            }
            b.append(r.nextInt(8) == 0 ? "}\n{" : ",");
        }
        this.text = b.toString().getBytes(StandardCharsets.UTF_8);
    }

    public static void main(String[] args) throws IOException {
        Path out = null;
        int partitions = 500;
        int segments = 10;
        int segmentKib = 512;
        long seed = 42;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--out" -> out = Path.of(args[++i]);
                    case "--partitions" -> partitions = Integer.parseInt(args[++i]);
                    case "--segments-per-partition" -> segments = Integer.parseInt(args[++i]);
                    case "--segment-kib" -> segmentKib = Integer.parseInt(args[++i]);
                    case "--seed" -> seed = Long.parseLong(args[++i]);
                    case "--help" -> {
                        System.out.println(USAGE);
                        return;
                    }
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            if (out == null || partitions < 2 || segments < 1 || segmentKib < 16) {
                throw new IllegalArgumentException("--out is required; --partitions at least 2, --segment-kib at least 16");
            }
        } catch (RuntimeException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        new LogDirGenerator(out, partitions, segments, segmentKib, seed).generate();
    }

    void generate() throws IOException {
        long started = System.nanoTime();
        Files.createDirectories(out);
        SplittableRandom ids = new SplittableRandom(seed ^ 0x10_6D1EL);
        KafkaScheduler scheduler = new KafkaScheduler(1);
        scheduler.startup();
        try {
            int offsetsPartitions = Math.min(OffsetsSegmentGenerator.OFFSETS_PARTITIONS, Math.max(1, partitions / 10));
            Uuid offsetsId = uuid(ids);
            for (int p = 0; p < offsetsPartitions; p++) {
                offsetsPartition(p, offsetsId, scheduler);
            }
            int user = partitions - offsetsPartitions;
            int shares = TOPICS.stream().mapToInt(TopicSpec::share).sum();
            int left = user;
            for (int t = 0; t < TOPICS.size(); t++) {
                TopicSpec spec = TOPICS.get(t);
                int n = t == TOPICS.size() - 1 ? left : Math.max(1, user * spec.share() / shares);
                left -= n;
                Uuid id = uuid(ids);
                for (int p = 0; p < n; p++) {
                    userPartition(spec, p, id, scheduler);
                }
            }
        } finally {
            try {
                scheduler.shutdown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        writeRoot(ids);
        // beside the log dir, not in it: a broker's log dir holds no such file
        Files.write(out.resolveSibling(out.getFileName() + ".expected-offsets.csv"), expectedOffsets, StandardCharsets.UTF_8);
        long bytes;
        long files;
        try (Stream<Path> all = Files.walk(out)) {
            List<Path> list = all.filter(Files::isRegularFile).toList();
            files = list.stream().filter(f -> f.getFileName().toString().endsWith(".log")).count();
            bytes = 0;
            for (Path f : list) {
                bytes += Files.size(f);
            }
        }
        System.out.printf(Locale.ROOT, "%s: %d partitions, %d segments, %,d bytes in all files, %.1f s%n", out,
                logEnd.size(), files, bytes, (System.nanoTime() - started) / 1e9);
    }

    private static Uuid uuid(SplittableRandom r) {
        Uuid u;
        do {
            u = new Uuid(r.nextLong(), r.nextLong());
        } while (u.toString().startsWith("-")); // as Uuid.randomUuid: no id starting with '-'
        return u;
    }

    /** {@code __consumer_offsets-p} by {@link OffsetsSegmentGenerator}, written beside and moved in. */
    private void offsetsPartition(int p, Uuid topicId, KafkaScheduler scheduler) throws IOException {
        long mib = Math.max(1, Math.round(segmentKib / 1024.0));
        Path tmp = out.resolve(".offsets-" + p + ".tmp");
        GeneratorOptions o = GeneratorOptions.parse(new String[] {"--out", tmp.toString(), "--partition", Integer.toString(p),
            "--seed", Long.toString(seed + p), "--groups", "400", "--topics", "60", "--segment-mib", Long.toString(mib),
            "--max-segments", Integer.toString(segments), "--size-mib", Long.toString(mib * segments),
            "--txn-percent", "3", "--no-indexes"});
        OffsetsSegmentGenerator.generate(o);
        expectedOffsets.addAll(Files.readAllLines(tmp.resolve(OffsetsSegmentGenerator.EXPECTED_CSV), StandardCharsets.UTF_8));
        String name = "__consumer_offsets-" + p;
        Path dir = out.resolve(name);
        deleteTree(dir);
        Files.move(tmp.resolve(name), dir, StandardCopyOption.ATOMIC_MOVE);
        deleteTree(tmp);
        LogConfig config = new LogConfig(Map.of("cleanup.policy", "compact",
                "segment.bytes", Integer.toString(OffsetsSegmentGenerator.OFFSETS_SEGMENT_BYTES)));
        long end = BrokerRestart.recoverAndShutDown(dir, NOW, config, Optional.empty(), scheduler);
        PartitionMetadataFile metadata = new PartitionMetadataFile(PartitionMetadataFile.newFile(dir.toFile()),
                new LogDirFailureChannel(1));
        metadata.record(topicId);
        metadata.maybeFlush();
        logEnd.put(new TopicPartition("__consumer_offsets", p), end);
    }

    /** One partition of a user topic: its segments, then Kafka's recovery for the rest. */
    private void userPartition(TopicSpec spec, int p, Uuid topicId, KafkaScheduler scheduler) throws IOException {
        Path dir = out.resolve(spec.name() + "-" + p);
        deleteTree(dir);
        Files.createDirectories(dir);
        SplittableRandom r = new SplittableRandom(seed * 31 + (spec.name().hashCode() * 1_000_003L) + p);
        Compression compression = Compression.of(spec.codec()).build();
        long segmentLimit = segmentKib * 1024L;
        long producerId = 10_000L + (Math.abs(spec.name().hashCode()) % 1000) * 10_000L + p;
        ByteBuffer buf = ByteBuffer.allocate(1024 * 1024);
        long offset = 0;
        long time = OffsetsSegmentGenerator.T0;
        int sequence = 0;
        int txnBatches = 0;
        int segment = 0;
        long segSize = 0;
        FileChannel ch = null;
        try {
            while (true) {
                time += r.nextInt(1, 200);
                int epoch = segment < segments / 2 ? 0 : 1;
                buf.clear();
                ByteBuffer batch = buf;
                int records = 0;
                boolean marker = spec.transactional() && txnBatches > 0 && (txnBatches >= 3 || r.nextInt(3) == 0);
                if (marker) {
                    ControlRecordType type = r.nextInt(10) == 0 ? ControlRecordType.ABORT : ControlRecordType.COMMIT;
                    MemoryRecords.writeEndTransactionalMarker(buf, offset, time, epoch, producerId, (short) 0,
                            new EndTransactionMarker(type, 3));
                    buf.flip();
                    records = 1;
                    txnBatches = 0;
                } else {
                    records = 1 + (int) (r.nextDouble() * r.nextDouble() * 200);
                    MemoryRecordsBuilder b = MemoryRecords.builder(buf, RecordBatch.CURRENT_MAGIC_VALUE, compression,
                            TimestampType.CREATE_TIME, offset, RecordBatch.NO_TIMESTAMP,
                            spec.transactional() ? producerId : RecordBatch.NO_PRODUCER_ID,
                            spec.transactional() ? (short) 0 : RecordBatch.NO_PRODUCER_EPOCH,
                            spec.transactional() ? sequence : RecordBatch.NO_SEQUENCE, spec.transactional(), epoch);
                    for (int i = 0; i < records; i++) {
                        byte[] key = key(spec, r);
                        byte[] value = spec.compacted() && r.nextInt(100) < 3 ? null : slice(r, 40, 600);
                        b.appendWithOffset(offset + i, time + i / 16, key, value);
                    }
                    batch = b.build().buffer();
                    if (spec.transactional()) {
                        sequence += records;
                        txnBatches++;
                    }
                }
                if (ch == null || segSize + batch.remaining() > segmentLimit) {
                    if (segment == segments) {
                        if (txnBatches > 0 && !marker) {
                            // the transaction stays open past the last segment: close it in the last one
                            buf.clear();
                            MemoryRecords.writeEndTransactionalMarker(buf, offset, time, epoch, producerId, (short) 0,
                                    new EndTransactionMarker(ControlRecordType.COMMIT, 3));
                            buf.flip();
                            sequence -= records; // the batch was not written
                            write(ch, buf);
                            offset++;
                        }
                        break;
                    }
                    if (ch != null) {
                        ch.close();
                    }
                    ch = FileChannel.open(dir.resolve(String.format(Locale.ROOT, "%020d.log", offset)),
                            StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
                    segment++;
                    segSize = 0;
                }
                segSize += batch.remaining();
                write(ch, batch);
                offset += records;
            }
        } finally {
            if (ch != null) {
                ch.close();
            }
        }
        Map<String, String> props = new LinkedHashMap<>();
        props.put("segment.bytes", Long.toString(Math.max(segmentLimit, 1024 * 1024)));
        if (spec.compacted()) {
            props.put("cleanup.policy", "compact");
        }
        long end = BrokerRestart.recoverAndShutDown(dir, NOW, new LogConfig(props), Optional.of(topicId), scheduler);
        logEnd.put(new TopicPartition(spec.name(), p), end);
    }

    private static void write(FileChannel ch, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    private byte[] key(TopicSpec spec, SplittableRandom r) {
        if (spec.compacted()) {
            return ("customer-" + r.nextInt(20_000)).getBytes(StandardCharsets.US_ASCII);
        }
        return r.nextBoolean() ? null : ("user-" + r.nextInt(1_000_000)).getBytes(StandardCharsets.US_ASCII);
    }

    private byte[] slice(SplittableRandom r, int min, int max) {
        int n = r.nextInt(min, max);
        int from = r.nextInt(text.length - n);
        byte[] v = new byte[n];
        System.arraycopy(text, from, v, 0, n);
        return v;
    }

    /** meta.properties, .kafka_cleanshutdown and the checkpoints, as in testdata/corpus/kraft-4.4.0-plain/logdir. */
    private void writeRoot(SplittableRandom ids) throws IOException {
        String meta = "#\n#Mon Nov 30 04:03:28 UTC 2026\nnode.id=1\ndirectory.id=" + uuid(ids) + "\nversion=1\ncluster.id="
                + uuid(ids) + "\n";
        Files.writeString(out.resolve("meta.properties"), meta, StandardCharsets.UTF_8);
        Files.writeString(out.resolve(".kafka_cleanshutdown"), "{\"version\":0,\"brokerEpoch\":11}", StandardCharsets.UTF_8);
        LogDirFailureChannel failures = new LogDirFailureChannel(1);
        new OffsetCheckpointFile(out.resolve("recovery-point-offset-checkpoint").toFile(), failures).write(logEnd);
        new OffsetCheckpointFile(out.resolve("replication-offset-checkpoint").toFile(), failures).write(logEnd);
        new OffsetCheckpointFile(out.resolve("log-start-offset-checkpoint").toFile(), failures).write(Map.of());
        new OffsetCheckpointFile(out.resolve("cleaner-offset-checkpoint").toFile(), failures).write(Map.of());
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(all::add);
        }
        for (Path f : all) {
            Files.delete(f);
        }
    }
}
