package io.segscope.jmh.e2e;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.internals.ByteBufferOutputStream;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordHelpers;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.coordinator.group.OffsetAndMetadata;
import org.apache.kafka.coordinator.group.generated.GroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.GroupMetadataValue.MemberMetadata;
import org.apache.kafka.server.common.ApiMessageAndVersion;

/**
 * Writes one large, realistic {@code __consumer_offsets-0} segment with Kafka 4.4.0's own classes,
 * for end-to-end dump throughput runs ({@code jmh/e2e/dump-throughput.sh}).
 *
 * <p>The records are what a 4.4.0 group coordinator writes for classic consumer groups:
 * OffsetCommit records built by {@code GroupCoordinatorRecordHelpers.newOffsetCommitRecord}
 * (OffsetCommitValue v4, with topic id and leader epoch), their tombstones, and GroupMetadata
 * records (value v3) on rebalances, serialized by {@code GroupCoordinatorRecordSerde} and put into
 * magic v2 CreateTime batches by {@code MemoryRecordsBuilder}, one batch per coordinator write:
 * one commit request (about 13 partitions), one rebalance, one expiration sweep or one group
 * deletion. Every group id hashes to partition 0 of the default 50.
 *
 * <p>The workload: a few thousand groups with skewed activity, each subscribed to one to six of
 * some hundreds of topics (1 to 128 partitions), split between one to eight members; commit
 * metadata of mixed lengths (mostly empty, some short, some JSON of tens to hundreds of bytes, a
 * little non-ASCII); a few percent tombstones. Everything comes from one {@link SplittableRandom}
 * seeded by {@code --seed}: the same arguments give the same bytes.
 *
 * <pre>
 * java -cp jmh/target/benchmarks.jar io.segscope.jmh.e2e.OffsetsSegmentGenerator \
 *     --out /work/perfdata/none [--seed 42] [--size-mib 100] [--compression none|zstd|lz4|gzip|snappy]
 *     [--max-batches N] [--topics 600] [--groups 4000] [--max-group-topics 6] [--expire-percent P]
 *     [--segment-mib N] [--txn-percent P]
 * </pre>
 *
 * <p>{@code --segment-mib} rolls segments named by their base offset; {@code --txn-percent} makes
 * that share of commit requests TxnOffsetCommits (transactional batches, one producer per group)
 * and closes the open transactions later with COMMIT or ABORT control batches. Without these
 * options the output is the same as before they existed.
 *
 * <p>Writes {@code OUT/__consumer_offsets-0/00000000000000000000.log} (no index files) and prints
 * the segment's facts; it stops before the batch that would take the file past {@code --size-mib},
 * or after {@code --max-batches} batches. The workload does not depend on the compression, so
 * {@code --compression zstd --max-batches B}, with B the batch count of an uncompressed run of the
 * same seed, writes the same records as that run, compressed.
 */
public final class OffsetsSegmentGenerator {
    /** Partitions of {@code __consumer_offsets} (offsets.topic.num.partitions default). */
    static final int OFFSETS_PARTITIONS = 50;
    /** 2026-11-30T00:00:00Z. */
    static final long T0 = 1_795_996_800_000L;
    static final int PARTITION_LEADER_EPOCH = 7;

    private final SplittableRandom rnd;
    private final Compression compression;
    private final GroupCoordinatorRecordSerde serde = new GroupCoordinatorRecordSerde();

    private final Topic[] topics;
    private final Group[] groups;
    private final double[] groupCdf;
    private final Set<String> groupIds = new HashSet<>();

    private long now = T0;
    private long nextOffset;

    /** Percent of commit requests that are TxnOffsetCommits (0: none, and no extra random draws). */
    private double txnPercent;
    /** Upper bound of the expiration sweep's share of writes (a probability threshold; 0.035 by default). */
    private double expireBelow = 0.035;
    /** At most this many topics per group (6 by default). */
    private int maxGroupTopics = 6;
    /** Producer ids with an open transaction on this partition, in the order they were opened. */
    private final List<Long> openTxns = new ArrayList<>();
    /** The marker to write next (set by nextWrite), or null. */
    private ControlRecordType pendingMarker;
    private long pendingMarkerProducer;
    /** The producer of the batch nextWrite returned, or NO_PRODUCER_ID. */
    private long batchProducer = RecordBatch.NO_PRODUCER_ID;
    /** The next sequence number of each transactional producer. */
    private final java.util.Map<Long, Integer> sequences = new java.util.HashMap<>();

    // Facts.
    long batches;
    long records;
    long commits;
    long tombstones;
    long groupMetadata;
    long metadataBytes;
    int maxBatchRecords;
    long txnBatches;
    long commitMarkers;
    long abortMarkers;
    int segments;

    OffsetsSegmentGenerator(long seed, Compression compression, int topicCount, int groupCount) {
        this(seed, compression, topicCount, groupCount, 6);
    }

    OffsetsSegmentGenerator(long seed, Compression compression, int topicCount, int groupCount, int maxGroupTopics) {
        this.maxGroupTopics = maxGroupTopics;
        this.rnd = new SplittableRandom(seed);
        this.compression = compression;
        this.topics = new Topic[topicCount];
        for (int i = 0; i < topicCount; i++) {
            topics[i] = new Topic(topicName(i), new Uuid(rnd.nextLong(), rnd.nextLong()), partitionCount());
        }
        this.groups = new Group[groupCount];
        this.groupCdf = new double[groupCount];
        double total = 0;
        for (int i = 0; i < groupCount; i++) {
            groups[i] = newGroup(i);
            // Zipf-like activity: a few busy groups, a long tail of quiet ones.
            total += 1.0 / Math.pow(i + 1, 0.8);
            groupCdf[i] = total;
        }
        for (int i = 0; i < groupCount; i++) {
            groupCdf[i] /= total;
        }
    }

    public static void main(String[] args) throws IOException {
        Path out = null;
        long seed = 42;
        long sizeMib = 100;
        String codec = "none";
        int topicCount = 600;
        int groupCount = 4000;
        long maxBatches = Long.MAX_VALUE;
        long segmentMib = 0;
        double txnPercent = 0;
        double expirePercent = -1;
        int maxGroupTopics = 6;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--out" -> out = Path.of(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--size-mib" -> sizeMib = Long.parseLong(args[++i]);
                case "--compression" -> codec = args[++i].toLowerCase(Locale.ROOT);
                case "--topics" -> topicCount = Integer.parseInt(args[++i]);
                case "--groups" -> groupCount = Integer.parseInt(args[++i]);
                case "--max-batches" -> maxBatches = Long.parseLong(args[++i]);
                case "--segment-mib" -> segmentMib = Long.parseLong(args[++i]);
                case "--txn-percent" -> txnPercent = Double.parseDouble(args[++i]);
                case "--expire-percent" -> expirePercent = Double.parseDouble(args[++i]);
                case "--max-group-topics" -> maxGroupTopics = Integer.parseInt(args[++i]);
                default -> usage("unknown argument: " + a);
            }
        }
        if (out == null) {
            usage("--out is required");
        }
        Compression compression = Compression.of(codec).build();
        Path dir = out.resolve("__consumer_offsets-0");
        Files.createDirectories(dir);
        Path log = dir.resolve("00000000000000000000.log");
        OffsetsSegmentGenerator g = new OffsetsSegmentGenerator(seed, compression, topicCount, groupCount, maxGroupTopics);
        if (expirePercent >= 0) {
            g.expireBelow = 0.0068 + expirePercent / 100;
        }
        g.txnPercent = txnPercent;
        if (txnPercent > 0 && segmentMib <= 0) {
            segmentMib = sizeMib; // markers are written by the segment writer
        }
        long bytes = segmentMib <= 0
                ? g.write(log, sizeMib * 1024 * 1024, maxBatches)
                : g.writeSegments(dir, sizeMib * 1024 * 1024, segmentMib * 1024 * 1024, maxBatches);
        g.printFacts(System.out, segmentMib <= 0 ? log : dir, bytes, seed, codec);
    }

    private static void usage(String problem) {
        System.err.println(problem);
        System.err.println("usage: OffsetsSegmentGenerator --out DIR [--seed N] [--size-mib N]"
                + " [--compression none|gzip|snappy|lz4|zstd] [--max-batches N] [--topics N] [--groups N]"
                + " [--segment-mib N] [--txn-percent P] [--expire-percent P] [--max-group-topics N]");
        System.exit(2);
    }

    /**
     * Writes batches until the next one would take the file past {@code limit}, or {@code maxBatches}
     * are written; returns the size.
     */
    long write(Path log, long limit, long maxBatches) throws IOException {
        long size = 0;
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (batches < maxBatches) {
                List<CoordinatorRecord> batch = nextWrite();
                ByteBuffer buf = encode(batch);
                if (size + buf.remaining() > limit) {
                    break;
                }
                size += buf.remaining();
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                account(batch);
            }
        }
        return size;
    }

    /**
     * Writes batches into segments of at most {@code segmentLimit} bytes each, named by their base
     * offset, until the next batch would take the partition past {@code limit} or {@code maxBatches}
     * are written; returns the total size.
     */
    long writeSegments(Path dir, long limit, long segmentLimit, long maxBatches) throws IOException {
        long size = 0;
        long segSize = 0;
        FileChannel ch = null;
        try {
            while (batches < maxBatches) {
                List<CoordinatorRecord> batch = nextWrite();
                ControlRecordType marker = pendingMarker;
                long producer = marker != null ? pendingMarkerProducer : batchProducer;
                ByteBuffer buf = marker != null ? encodeMarker(producer, marker) : encode(batch, producer);
                if (size + buf.remaining() > limit) {
                    break;
                }
                if (ch == null || segSize + buf.remaining() > segmentLimit) {
                    if (ch != null) {
                        ch.close();
                    }
                    ch = FileChannel.open(dir.resolve(String.format(Locale.ROOT, "%020d.log", nextOffset)),
                            StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
                    segSize = 0;
                    segments++;
                }
                size += buf.remaining();
                segSize += buf.remaining();
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                if (marker != null) {
                    nextOffset++;
                    batches++;
                    if (marker == ControlRecordType.COMMIT) {
                        commitMarkers++;
                    } else {
                        abortMarkers++;
                    }
                } else {
                    account(batch);
                    if (producer != RecordBatch.NO_PRODUCER_ID) {
                        txnBatches++;
                    }
                }
            }
        } finally {
            if (ch != null) {
                ch.close();
            }
        }
        return size;
    }

    // ---------------------------------------------------------------- the workload

    /** The records of the coordinator's next write, one batch. */
    private List<CoordinatorRecord> nextWrite() {
        now += rnd.nextInt(0, 34);
        pendingMarker = null;
        batchProducer = RecordBatch.NO_PRODUCER_ID;
        if (txnPercent > 0 && !openTxns.isEmpty() && rnd.nextDouble() * 100 < txnPercent * 0.8) {
            // the transaction coordinator's WriteTxnMarkers for the oldest open transaction
            pendingMarkerProducer = openTxns.remove(0);
            pendingMarker = rnd.nextDouble() < 0.85 ? ControlRecordType.COMMIT : ControlRecordType.ABORT;
            return List.of();
        }
        Group g = groups[pickGroup()];
        double p = rnd.nextDouble();
        if (g.generation == 0 || p < 0.006) {
            return List.of(rebalance(g));
        }
        if (p < 0.0068) {
            return deleteGroup(g);
        }
        if (p < expireBelow) {
            return expire(g);
        }
        if (txnPercent > 0 && rnd.nextDouble() * 100 < txnPercent) {
            // a TxnOffsetCommit (e.g. a Kafka Streams EOS task); one transactional producer per group
            long pid = 100_000L + g.index;
            if (!openTxns.contains(pid)) {
                openTxns.add(pid);
            }
            batchProducer = pid;
        }
        return commit(g);
    }

    /** One member's OffsetCommit request: about 13 of its partitions. */
    private List<CoordinatorRecord> commit(Group g) {
        int member = rnd.nextInt(g.members);
        int[] owned = g.assignment[member];
        if (owned.length == 0) {
            member = 0;
            owned = g.assignment[0];
        }
        int k = Math.min(owned.length, 5 + rnd.nextInt(13) + rnd.nextInt(13));
        int start = rnd.nextInt(owned.length);
        String metadata = g.metadataStyle == 0 ? OffsetAndMetadata.NO_METADATA : null;
        List<CoordinatorRecord> out = new ArrayList<>(k);
        for (int j = 0; j < k; j++) {
            int slot = owned[(start + j) % owned.length];
            Topic t = topics[g.topics[slot >>> 8]];
            int partition = slot & 0xff;
            long offset = g.advance(slot, rnd.nextInt(1, 5_000));
            OptionalInt epoch = g.sendsEpoch ? OptionalInt.of(t.leaderEpoch(partition)) : OptionalInt.empty();
            String md = metadata != null ? metadata : metadata(g);
            out.add(GroupCoordinatorRecordHelpers.newOffsetCommitRecord(g.id, t.name, partition,
                    new OffsetAndMetadata(offset, epoch, md, now, OptionalLong.empty(), t.id)));
        }
        return out;
    }

    /** The coordinator's expiration sweep for one group: tombstones of some committed offsets. */
    private List<CoordinatorRecord> expire(Group g) {
        int k = 1 + rnd.nextInt(4) + rnd.nextInt(24);
        List<CoordinatorRecord> out = new ArrayList<>();
        int first = g.committed.nextSetBit(rnd.nextInt(g.slotLimit()));
        for (int slot = first >= 0 ? first : g.committed.nextSetBit(0); slot >= 0 && out.size() < k;
             slot = g.committed.nextSetBit(slot + 1)) {
            g.committed.clear(slot);
            out.add(GroupCoordinatorRecordHelpers.newOffsetCommitTombstoneRecord(g.id,
                    topics[g.topics[slot >>> 8]].name, slot & 0xff));
        }
        if (out.isEmpty()) {
            return commit(g);
        }
        return out;
    }

    /** DeleteGroups: tombstones of all its committed offsets, then of its GroupMetadata. */
    private List<CoordinatorRecord> deleteGroup(Group g) {
        List<CoordinatorRecord> out = new ArrayList<>();
        for (int slot = g.committed.nextSetBit(0); slot >= 0; slot = g.committed.nextSetBit(slot + 1)) {
            out.add(GroupCoordinatorRecordHelpers.newOffsetCommitTombstoneRecord(g.id,
                    topics[g.topics[slot >>> 8]].name, slot & 0xff));
        }
        g.committed.clear();
        out.add(GroupCoordinatorRecordHelpers.newGroupMetadataTombstoneRecord(g.id));
        g.generation = 0;
        return out;
    }

    /** A completed rebalance of a classic consumer group: GroupMetadataValue v3 with every member. */
    private CoordinatorRecord rebalance(Group g) {
        g.generation++;
        g.members = Math.max(1, Math.min(g.maxMembers, g.members + rnd.nextInt(-1, 2)));
        g.assign();
        List<String> subscribed = new ArrayList<>(g.topics.length);
        for (int t : g.topics) {
            subscribed.add(topics[t].name);
        }
        List<MemberMetadata> members = new ArrayList<>(g.members);
        for (int m = 0; m < g.members; m++) {
            List<TopicPartition> assigned = new ArrayList<>(g.assignment[m].length);
            for (int slot : g.assignment[m]) {
                assigned.add(new TopicPartition(topics[g.topics[slot >>> 8]].name, slot & 0xff));
            }
            String clientId = "consumer-" + g.id + "-" + (m + 1);
            Optional<String> rack = g.racks ? Optional.of("use1-az" + (1 + m % 3)) : Optional.empty();
            ByteBuffer sub = ConsumerProtocol.serializeSubscription(
                    new Subscription(subscribed, null, assigned, g.generation - 1, rack), (short) 3);
            ByteBuffer asg = ConsumerProtocol.serializeAssignment(new Assignment(assigned, null), (short) 3);
            members.add(new MemberMetadata()
                    .setMemberId(clientId + "-" + new Uuid(rnd.nextLong(), rnd.nextLong()))
                    .setGroupInstanceId(g.staticMembers ? g.id + "-instance-" + m : null)
                    .setClientId(clientId)
                    .setClientHost("/10." + (g.index % 250) + "." + m + "." + (1 + rnd.nextInt(250)))
                    .setRebalanceTimeout(300_000)
                    .setSessionTimeout(45_000)
                    .setSubscription(bytes(sub))
                    .setAssignment(bytes(asg)));
        }
        GroupMetadataValue value = new GroupMetadataValue()
                .setProtocolType(ConsumerProtocol.PROTOCOL_TYPE)
                .setGeneration(g.generation)
                .setProtocol(g.assignor)
                .setLeader(members.get(0).memberId())
                .setCurrentStateTimestamp(now)
                .setMembers(members);
        return CoordinatorRecord.record(new GroupMetadataKey().setGroup(g.id), new ApiMessageAndVersion(value, (short) 3));
    }

    private int pickGroup() {
        int i = Arrays.binarySearch(groupCdf, rnd.nextDouble());
        int g = i >= 0 ? i : -i - 1;
        return Math.min(g, groups.length - 1);
    }

    /** Commit metadata: mostly empty, some short tags, some JSON, a few long blobs. */
    private String metadata(Group g) {
        double p = rnd.nextDouble();
        if (p < 0.62) {
            return "";
        }
        if (p < 0.85) {
            return SHORT_TAGS[rnd.nextInt(SHORT_TAGS.length)] + "-" + rnd.nextInt(1, 100);
        }
        if (p < 0.96) {
            return "{\"host\":\"worker-" + rnd.nextInt(64) + "\",\"ts\":" + now + ",\"lag\":" + rnd.nextInt(100_000)
                    + "}";
        }
        if (p < 0.985) {
            StringBuilder sb = new StringBuilder("{\"checkpoint\":").append(rnd.nextLong(1L << 40))
                    .append(",\"sources\":[");
            int n = rnd.nextInt(2, 10);
            for (int i = 0; i < n; i++) {
                sb.append(i == 0 ? "" : ",").append("{\"id\":\"").append(Long.toHexString(rnd.nextLong()))
                        .append("\",\"pos\":").append(rnd.nextInt()).append('}');
            }
            return sb.append("]}").toString();
        }
        return "commit by " + NON_ASCII[rnd.nextInt(NON_ASCII.length)] + " \"quoted\"\tnote " + rnd.nextInt(1000);
    }

    private static final String[] SHORT_TAGS = {"ok", "v2", "batch", "replay", "worker", "sink-task", "etl"};
    private static final String[] NON_ASCII = {"Zoë", "Łódź-consumer", "東京-reader", "café", "Ærø"};

    // ---------------------------------------------------------------- names and shapes

    private static final String[] DOMAINS = {"orders", "payments", "inventory", "shipping", "users", "clicks",
        "search", "billing", "fraud", "ledger", "catalog", "pricing", "notifications", "audit", "sessions", "ads"};
    private static final String[] KINDS = {"events", "commands", "changelog", "cdc", "snapshots", "dlq", "enriched",
        "raw", "compacted", "metrics"};
    private static final String[] SERVICES = {"order-service", "payment-gateway", "stock-sync", "email-sender",
        "analytics", "indexer", "fraud-scorer", "billing-job", "archiver", "recommender", "reporting",
        "connect-s3-sink", "connect-jdbc-sink", "spark-kafka-source", "flink-job", "streams-app"};

    private String topicName(int i) {
        String domain = DOMAINS[i % DOMAINS.length];
        String kind = KINDS[(i / DOMAINS.length) % KINDS.length];
        int style = rnd.nextInt(20);
        if (style < 6) {
            return domain + "-" + kind + "-" + i;
        } else if (style < 10) {
            return domain + "." + kind + ".v" + (1 + i % 4);
        } else if (style < 13) {
            return domain + "_" + i;
        } else if (style < 19) {
            return domain + i;
        }
        return "com.example.platform." + domain + "." + kind + "-stream-" + i;
    }

    private int partitionCount() {
        int[] choices = {1, 1, 3, 3, 6, 6, 6, 12, 12, 12, 16, 24, 24, 32, 48, 64, 128};
        return choices[rnd.nextInt(choices.length)];
    }

    private Group newGroup(int index) {
        int style = rnd.nextInt(20);
        String service = SERVICES[rnd.nextInt(SERVICES.length)];
        String base;
        if (style < 11) {
            base = service + "-" + index;
        } else if (style < 15) {
            base = "prod-" + service + "-" + index;
        } else if (style < 19) {
            base = service.substring(0, Math.min(6, service.length())) + "." + DOMAINS[rnd.nextInt(DOMAINS.length)];
        } else {
            base = "spark-kafka-source-" + new Uuid(rnd.nextLong(), rnd.nextLong()) + "-" + index + "-driver-0";
        }
        String id = onPartition0(base, groupIds);
        int topicCount = 1 + (int) Math.floor(Math.pow(rnd.nextDouble(), 2.5) * maxGroupTopics);
        int[] ts = new int[topicCount];
        for (int i = 0; i < topicCount; i++) {
            int t;
            do {
                t = rnd.nextInt(topics.length);
            } while (contains(ts, i, t));
            ts[i] = t;
        }
        int partitions = 0;
        for (int t : ts) {
            partitions += topics[t].partitions;
        }
        int maxMembers = Math.max(1, Math.min(8, partitions / 32 + 1));
        Group g = new Group(index, id, ts, maxMembers);
        g.members = 1 + rnd.nextInt(maxMembers);
        g.sendsEpoch = rnd.nextDouble() < 0.93;
        g.metadataStyle = rnd.nextDouble() < 0.5 ? 0 : 1;
        g.staticMembers = rnd.nextDouble() < 0.05;
        g.racks = rnd.nextDouble() < 0.2;
        g.assignor = rnd.nextDouble() < 0.6 ? "range" : (rnd.nextBoolean() ? "cooperative-sticky" : "roundrobin");
        g.assign();
        return g;
    }

    private static boolean contains(int[] a, int n, int v) {
        for (int i = 0; i < n; i++) {
            if (a[i] == v) {
                return true;
            }
        }
        return false;
    }

    /**
     * The first of {@code base}, {@code base-1}, {@code base-2}... not in {@code taken} that lands on
     * partition 0 of 50 (Kafka's {@code partitionFor}); adds it to {@code taken}.
     */
    static String onPartition0(String base, Set<String> taken) {
        for (int i = 0; ; i++) {
            String g = i == 0 ? base : base + "-" + i;
            int h = g.hashCode();
            int abs = h == Integer.MIN_VALUE ? 0 : Math.abs(h);
            if (abs % OFFSETS_PARTITIONS == 0 && taken.add(g)) {
                return g;
            }
        }
    }

    private static final class Topic {
        final String name;
        final Uuid id;
        final int partitions;

        Topic(String name, Uuid id, int partitions) {
            this.name = name;
            this.id = id;
            this.partitions = partitions;
        }

        int leaderEpoch(int partition) {
            return (name.hashCode() ^ partition * 31) & 0x0f;
        }
    }

    /** A classic consumer group; a partition slot is {@code topicIndexInGroup << 8 | partition}. */
    private final class Group {
        final int index;
        final String id;
        final int[] topics;
        final int maxMembers;
        final BitSet committed = new BitSet();
        final long[] offsets;
        int members;
        int generation;
        int[][] assignment;
        boolean sendsEpoch;
        int metadataStyle;
        boolean staticMembers;
        boolean racks;
        String assignor;

        Group(int index, String id, int[] topics, int maxMembers) {
            this.index = index;
            this.id = id;
            this.topics = topics;
            this.maxMembers = maxMembers;
            this.offsets = new long[topics.length << 8];
        }

        int slotLimit() {
            return topics.length << 8;
        }

        long advance(int slot, int by) {
            committed.set(slot);
            offsets[slot] += by;
            return offsets[slot];
        }

        /** Round-robin split of every partition of every subscribed topic between the members. */
        void assign() {
            List<List<Integer>> per = new ArrayList<>();
            for (int m = 0; m < members; m++) {
                per.add(new ArrayList<>());
            }
            int n = 0;
            for (int t = 0; t < topics.length; t++) {
                int parts = OffsetsSegmentGenerator.this.topics[topics[t]].partitions;
                for (int p = 0; p < parts; p++) {
                    per.get(n++ % members).add(t << 8 | p);
                }
            }
            assignment = new int[members][];
            for (int m = 0; m < members; m++) {
                assignment[m] = per.get(m).stream().mapToInt(Integer::intValue).toArray();
            }
        }
    }

    // ---------------------------------------------------------------- encoding

    private ByteBuffer encode(List<CoordinatorRecord> batch) {
        return encode(batch, RecordBatch.NO_PRODUCER_ID);
    }

    /** One batch; transactional when {@code producerId} is set (epoch 0, as a TxnOffsetCommit writes it). */
    private ByteBuffer encode(List<CoordinatorRecord> batch, long producerId) {
        boolean txn = producerId != RecordBatch.NO_PRODUCER_ID;
        MemoryRecordsBuilder builder = new MemoryRecordsBuilder(new ByteBufferOutputStream(1024),
                RecordBatch.MAGIC_VALUE_V2, compression, TimestampType.CREATE_TIME, nextOffset,
                RecordBatch.NO_TIMESTAMP, producerId, txn ? (short) 0 : RecordBatch.NO_PRODUCER_EPOCH,
                txn ? sequences.getOrDefault(producerId, 0) : RecordBatch.NO_SEQUENCE, txn, false,
                PARTITION_LEADER_EPOCH, Integer.MAX_VALUE);
        if (txn) {
            sequences.merge(producerId, batch.size(), Integer::sum);
        }
        long offset = nextOffset;
        for (CoordinatorRecord r : batch) {
            builder.appendWithOffset(offset++, now, serde.serializeKey(r), serde.serializeValue(r));
        }
        return builder.build().buffer();
    }

    /** A COMMIT or ABORT control batch, as the transaction coordinator's WriteTxnMarkers appends it. */
    private ByteBuffer encodeMarker(long producerId, ControlRecordType type) {
        return MemoryRecords.withEndTransactionMarker(nextOffset, now, PARTITION_LEADER_EPOCH, producerId, (short) 0,
                new EndTransactionMarker(type, 3)).buffer();
    }

    private void account(List<CoordinatorRecord> batch) {
        nextOffset += batch.size();
        batches++;
        records += batch.size();
        maxBatchRecords = Math.max(maxBatchRecords, batch.size());
        for (CoordinatorRecord r : batch) {
            if (r.value() == null) {
                tombstones++;
            } else if (r.key() instanceof GroupMetadataKey) {
                groupMetadata++;
            } else {
                commits++;
                metadataBytes += ((org.apache.kafka.coordinator.group.generated.OffsetCommitValue) r.value().message())
                        .metadata().getBytes(StandardCharsets.UTF_8).length;
            }
        }
    }

    private void printFacts(PrintStream out, Path log, long bytes, long seed, String codec) {
        int partitions = 0;
        for (Group g : groups) {
            partitions += countPartitions(g);
        }
        out.printf(Locale.ROOT, "segment        %s%n", log);
        out.printf(Locale.ROOT, "bytes          %d (%.1f MiB)%n", bytes, bytes / 1048576.0);
        out.printf(Locale.ROOT, "seed           %d%n", seed);
        out.printf(Locale.ROOT, "compression    %s%n", codec);
        out.printf(Locale.ROOT, "batches        %d%n", batches);
        out.printf(Locale.ROOT, "records        %d (%.1f per batch, max %d)%n", records,
                (double) records / batches, maxBatchRecords);
        out.printf(Locale.ROOT, "offset commits %d (OffsetCommitValue v4; avg metadata %.1f bytes)%n",
                commits, (double) metadataBytes / Math.max(1, commits));
        out.printf(Locale.ROOT, "tombstones     %d (%.2f%%)%n", tombstones, 100.0 * tombstones / records);
        out.printf(Locale.ROOT, "group metadata %d (GroupMetadataValue v3)%n", groupMetadata);
        out.printf(Locale.ROOT, "groups         %d, topics %d, group-partitions %d%n", groups.length, topics.length,
                partitions);
        if (segments > 0) {
            out.printf(Locale.ROOT, "segments       %d%n", segments);
        }
        if (txnPercent > 0) {
            out.printf(Locale.ROOT, "transactional  %d batches; markers: %d COMMIT, %d ABORT; %d left open%n",
                    txnBatches, commitMarkers, abortMarkers, openTxns.size());
        }
        out.printf(Locale.ROOT, "last offset    %d%n", nextOffset - 1);
    }

    private int countPartitions(Group g) {
        int n = 0;
        for (int t : g.topics) {
            n += topics[t].partitions;
        }
        return n;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
