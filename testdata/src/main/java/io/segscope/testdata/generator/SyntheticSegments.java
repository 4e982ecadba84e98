package io.segscope.testdata.generator;

import static io.segscope.testdata.generator.SyntheticBatches.T0;
import static io.segscope.testdata.generator.SyntheticBatches.filler;
import static io.segscope.testdata.generator.SyntheticBatches.legacy;
import static io.segscope.testdata.generator.SyntheticBatches.run;
import static io.segscope.testdata.generator.SyntheticBatches.utf8;
import static io.segscope.testdata.generator.SyntheticBatches.v2;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import io.segscope.testdata.generator.SyntheticBatches.PartitionWriter;
import io.segscope.testdata.generator.SyntheticBatches.Rec;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * Writes {@code testdata/synthetic/}: partition dirs holding what no current broker writes
 * (magic 0 and 1 message sets with every legacy codec, magic 2 edge cases, a file mixing all three
 * magics, and a {@code __consumer_offsets} partition with old value versions), built with Kafka
 * 4.4.0's own {@code MemoryRecordsBuilder} and {@code LogSegment}, then Kafka 4.4.0's
 * DumpLogSegments output for each file.
 *
 * <p>Deterministic: fixed timestamps ({@link SyntheticBatches#T0}), fixed seeds, no clock or
 * random UUID reaches the bytes. Run it twice and the tree is byte for byte the same.
 *
 * <p>Usage: {@code SyntheticSegments <out dir, normally testdata/synthetic>}; the repository root
 * (for relative paths in the dumps) is the out dir's grandparent.
 */
public final class SyntheticSegments {
    private static final byte M0 = RecordBatch.MAGIC_VALUE_V0;
    private static final byte M1 = RecordBatch.MAGIC_VALUE_V1;
    private static final TimestampType NO_TS = TimestampType.NO_TIMESTAMP_TYPE;
    private static final TimestampType CREATE = TimestampType.CREATE_TIME;
    private static final TimestampType APPEND = TimestampType.LOG_APPEND_TIME;
    private static final long NONE = RecordBatch.NO_TIMESTAMP;

    private SyntheticSegments() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "testdata/synthetic").toAbsolutePath().normalize();
        Path repoRoot = out.getParent().getParent();
        Path logDir = out.resolve("logdir");
        Path dumpDir = out.resolve("dump");
        Trees.deleteTree(logDir);
        Trees.deleteTree(dumpDir);

        writeMagic0(logDir.resolve("synthetic-magic0-0"));
        writeMagic1(logDir.resolve("synthetic-magic1-0"));
        writeMagic2(logDir.resolve("synthetic-magic2-0"));
        writeMixed(logDir.resolve("synthetic-mixed-0"));
        SyntheticOffsets.write(logDir.resolve("__consumer_offsets-0"));

        LegacyDumps.dumpTree(logDir, dumpDir, repoRoot, System.getProperty("java.class.path"));
        System.out.println("wrote " + logDir + " and " + dumpDir);
    }

    /**
     * Magic 0: uncompressed entries with null key, null value and empty value; one wrapper per
     * codec (lz4 with the broken header checksum, docs/format.md 1.5); values larger than one
     * snappy (32 KiB) and one lz4 (64 KiB) block; the first segment starts at offset 3 (as after
     * compaction) and offsets have gaps between and inside wrappers.
     */
    static void writeMagic0(Path dir) throws IOException {
        try (PartitionWriter w = new PartitionWriter(dir)) {
            w.roll(0);
            w.append(legacy(M0, Compression.NONE, NO_TS, NONE, List.of(
                    new Rec(3, NONE, "k3", "plain v0 message"),
                    new Rec(4, NONE, null, "null key"),
                    new Rec(5, NONE, "k5-tombstone", (byte[]) null),
                    new Rec(7, NONE, "k7-empty", new byte[0]))));
            w.append(legacy(M0, Compression.gzip().build(), NO_TS, NONE, List.of(
                    new Rec(10, NONE, "g10", "gzip inner 10"),
                    new Rec(11, NONE, null, "gzip inner 11, null key"),
                    new Rec(12, NONE, "g12", new byte[0]),
                    new Rec(13, NONE, "g13", (byte[]) null),
                    new Rec(14, NONE, "g14", "gzip inner 14 \u00fc\u00df\u6f22\u5b57"))));
            w.append(legacy(M0, Compression.snappy().build(), NO_TS, NONE, List.of(
                    new Rec(20, NONE, "s20", "snappy inner 20"),
                    new Rec(21, NONE, "s21-large", filler(21, 40 * 1024)),
                    new Rec(22, NONE, null, "snappy inner 22"))));
            w.append(legacy(M0, Compression.lz4().build(), NO_TS, NONE, List.of(
                    new Rec(30, NONE, "l30", "lz4 inner 30 (broken frame header checksum)"),
                    new Rec(31, NONE, "l31-large", filler(31, 100 * 1024)),
                    new Rec(32, NONE, "l32", (byte[]) null))));

            w.roll(50);
            w.append(legacy(M0, Compression.NONE, NO_TS, NONE, run(50, 3, "k", "second segment v0 ")));
            w.append(legacy(M0, Compression.gzip().build(), NO_TS, NONE, List.of(
                    new Rec(60, NONE, "g60", "gzip 60"),
                    new Rec(61, NONE, "g61", "gzip 61"),
                    new Rec(63, NONE, "g63", "gzip 63 after an inner gap"))));
            w.append(legacy(M0, Compression.snappy().build(), NO_TS, NONE, run(70, 4, "s", "snappy ")));
            w.append(legacy(M0, Compression.lz4().build(), NO_TS, NONE, run(80, 4, "l", "lz4 ")));
        }
    }

    /**
     * Magic 1: the same shapes as magic 0, each codec with CreateTime and LogAppendTime, wrappers
     * whose inner timestamps are out of order, inner offset gaps, and a partition that starts at
     * offset 1000.
     */
    static void writeMagic1(Path dir) throws IOException {
        long lat = T0 + 3_600_000;
        try (PartitionWriter w = new PartitionWriter(dir)) {
            w.roll(1000);
            w.append(legacy(M1, Compression.NONE, CREATE, NONE, List.of(
                    new Rec(1000, T0 + 1000, "k1000", "plain v1 CreateTime"),
                    new Rec(1001, T0 + 900, null, "null key, earlier timestamp"),
                    new Rec(1002, T0 + 1100, "k1002-tombstone", (byte[]) null),
                    new Rec(1003, T0 + 1200, "k1003-empty", new byte[0]))));
            w.append(legacy(M1, Compression.NONE, APPEND, lat, run(1005, 2, "k", "plain v1 LogAppendTime ")));
            for (Object[] c : new Object[][] {
                    {Compression.gzip().build(), 1010L, 40 * 1024},
                    {Compression.snappy().build(), 1030L, 40 * 1024},
                    {Compression.lz4().build(), 1050L, 100 * 1024}}) {
                Compression codec = (Compression) c[0];
                long base = (Long) c[1];
                String name = codec.type().name;
                w.append(legacy(M1, codec, CREATE, NONE, List.of(
                        new Rec(base, T0 + base * 10 + 500, name + base, name + " CreateTime inner, latest timestamp first"),
                        new Rec(base + 1, T0 + base * 10, null, name + " null key"),
                        new Rec(base + 2, T0 + base * 10 + 100, name + (base + 2) + "-large", filler(base, (Integer) c[2])),
                        new Rec(base + 3, T0 + base * 10 + 200, name + (base + 3), new byte[0]),
                        new Rec(base + 4, T0 + base * 10 + 300, name + (base + 4), (byte[]) null))));
                w.append(legacy(M1, codec, APPEND, lat + base, run(base + 10, 3, name, name + " LogAppendTime inner ")));
            }
            w.append(legacy(M1, Compression.gzip().build(), CREATE, NONE, List.of(
                    new Rec(1070, T0 + 70_000, "g1070", "inner offset 0"),
                    new Rec(1072, T0 + 72_000, "g1072", "inner offset 2"),
                    new Rec(1075, T0 + 75_000, "g1075", "inner offset 5, wrapper offset 1075"))));

            w.roll(1100);
            w.append(legacy(M1, Compression.NONE, CREATE, NONE, run(1100, 3, "k", "second segment v1 ")));
            w.append(legacy(M1, Compression.snappy().build(), CREATE, NONE, run(1110, 5, "s", "snappy ")));
            w.append(legacy(M1, Compression.lz4().build(), APPEND, lat + 1120, run(1120, 5, "l", "lz4 ")));
        }
    }

    /**
     * Magic 2 edge cases: every codec incl. zstd, headers (null value, empty key, non-ASCII),
     * negative timestamp deltas, LogAppendTime, leader epochs, idempotent sequences that wrap past
     * Integer.MAX_VALUE, committed and aborted transactions with their markers (and the
     * {@code .txnindex} entry), an empty batch as compaction leaves it, a batch carrying a delete
     * horizon, large records.
     */
    static void writeMagic2(Path dir) throws IOException {
        Header[] headers = {
                new RecordHeader("trace-id", utf8("0af7651916cd43dd8448eb211c80319c")),
                new RecordHeader("null-value", null),
                new RecordHeader("", utf8("empty key")),
                new RecordHeader("cl\u00e9-\u6f22\u5b57", utf8("valeur \u00e9t\u00e9 \u2603"))};
        try (PartitionWriter w = new PartitionWriter(dir)) {
            w.roll(0);
            w.append(v2().leaderEpoch(0).build(List.of(
                    new Rec(0, T0 + 5000, utf8("h0"), utf8("headers, base timestamp is the latest"), headers),
                    new Rec(1, T0 + 1000, null, utf8("negative timestamp delta, null key"), new Header[0]),
                    new Rec(2, T0 - 86_400_000, utf8("h2"), null, headers))));
            long offset = 3;
            Compression[] codecs = {Compression.gzip().build(), Compression.snappy().build(), Compression.lz4().build(),
                    Compression.zstd().build()};
            int[] large = {50 * 1024, 40 * 1024, 100 * 1024, 160 * 1024};
            for (int i = 0; i < codecs.length; i++) {
                String name = codecs[i].type().name;
                w.append(v2().leaderEpoch(0).compression(codecs[i]).build(List.of(
                        new Rec(offset, T0 + offset * 1000, utf8(name + offset), utf8(name + " record"), headers),
                        new Rec(offset + 1, T0 + offset * 1000 + 1, utf8(name + (offset + 1) + "-large"),
                                filler(offset, large[i]), new Header[0]),
                        new Rec(offset + 2, T0 + offset * 1000 - 1, null, new byte[0], new Header[0]))));
                offset += 3;
            }
            // offset 15
            w.append(v2().leaderEpoch(1).logAppendTime(T0 + 7_200_000).build(run(15, 2, "lat", "LogAppendTime ")));
            // Idempotent producer 4000: sequences MAX-2, MAX-1, MAX, 0, 1 (wrap), then 2, 3
            w.append(v2().leaderEpoch(1).producer(4000, (short) 0, Integer.MAX_VALUE - 2)
                    .build(run(17, 5, "idem", "sequence wraps ")));
            w.append(v2().leaderEpoch(1).producer(4000, (short) 0, 2).compression(Compression.zstd().build())
                    .build(run(22, 2, "idem", "after the wrap ")));
            // Transactional producer 5000: committed.
            SyntheticBatches.V2 txA = v2().leaderEpoch(1).producer(5000, (short) 1, 0).transactional();
            w.append(txA.build(run(24, 3, "txA", "committed ")));
            w.append(txA.marker(27, T0 + 27_500, ControlRecordType.COMMIT, 7));
            // Transactional producer 6000: aborted (.txnindex entry, last stable offset 31).
            SyntheticBatches.V2 txB = v2().leaderEpoch(2).producer(6000, (short) 0, 0).transactional()
                    .compression(Compression.zstd().build());
            w.append(txB.build(run(28, 2, "txB", "aborted ")));
            w.append(txB.marker(30, T0 + 30_500, ControlRecordType.ABORT, 7));
            w.aborted(6000, 28, 30, 31);
            // What the cleaner leaves of producer 4000's last batch when all its records are gone.
            w.append(v2().leaderEpoch(2).producer(4000, (short) 0, 4).empty(31, 33, T0 + 33_000, 4));
            // A cleaned batch: tombstone kept until the delete horizon (base timestamp = horizon).
            w.append(v2().leaderEpoch(2).deleteHorizon(T0 + 86_400_000).build(List.of(
                    new Rec(34, T0 + 34_000, "compacted-key", "kept value"),
                    new Rec(36, T0 + 36_000, "deleted-key", (byte[]) null))));

            w.roll(100);
            w.append(v2().leaderEpoch(5).compression(Compression.gzip().build()).build(List.of(
                    new Rec(100, T0 + 100_000, utf8("big"), filler(100, 100 * 1024), headers))));
            w.append(v2().leaderEpoch(5).compression(Compression.lz4().build()).build(run(101, 4, "e5-", "leader epoch 5 ")));
            w.append(v2().leaderEpoch(7).build(run(105, 3, "e7-", "leader epoch 7 ")));
        }
    }

    /** One segment holding magic 0, then magic 1, then magic 2 entries, as an upgraded partition can. */
    static void writeMixed(Path dir) throws IOException {
        try (PartitionWriter w = new PartitionWriter(dir)) {
            w.roll(0);
            w.append(legacy(M0, Compression.NONE, NO_TS, NONE, run(0, 3, "m0-", "magic 0 plain ")));
            w.append(legacy(M0, Compression.gzip().build(), NO_TS, NONE, run(3, 3, "m0-", "magic 0 gzip ")));
            w.append(legacy(M1, Compression.NONE, CREATE, NONE, run(6, 2, "m1-", "magic 1 plain ")));
            w.append(legacy(M1, Compression.lz4().build(), CREATE, NONE, run(8, 3, "m1-", "magic 1 lz4 ")));
            w.append(legacy(M1, Compression.snappy().build(), APPEND, T0 + 3_600_000, run(11, 2, "m1-", "magic 1 snappy LogAppendTime ")));
            w.append(v2().leaderEpoch(0).build(run(13, 3, "m2-", "magic 2 plain ")));
            w.append(v2().leaderEpoch(0).compression(Compression.zstd().build()).build(run(16, 3, "m2-", "magic 2 zstd ")));
        }
    }
}
