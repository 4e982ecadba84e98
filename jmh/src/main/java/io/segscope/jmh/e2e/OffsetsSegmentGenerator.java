package io.segscope.jmh.e2e;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;

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
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.apache.kafka.server.common.ApiMessageAndVersion;

/**
 * Writes a large, realistic {@code __consumer_offsets-0} partition with Kafka 4.4.0's own classes,
 * and the committed offsets a group coordinator loading it holds, for end-to-end runs
 * ({@code jmh/e2e/dump-throughput.sh}, the replay and compaction benchmarks); jmh/GENERATOR.md is
 * the manual.
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
 * little non-ASCII); a few percent tombstones. Everything comes from {@link SplittableRandom}s
 * seeded by {@code --seed}: the same arguments give the same bytes.
 *
 * <p>{@code --segment-mib} rolls segments named by their base offset; {@code --txn-percent} makes
 * that share of commit requests TxnOffsetCommits (transactional batches, one producer per group)
 * and closes the open transactions later with COMMIT or ABORT control batches. The options of the
 * realistic partition ({@link GeneratorOptions}) draw from a second random stream, so that without
 * them the output is the same as before they existed: {@code --max-segments},
 * {@code --commit-records} (commit request sizes), {@code --v3-percent} (a 3.x coordinator wrote
 * the start of the log: OffsetCommitValue v3, as {@code newOffsetCommitRecord} of 3.x wrote it),
 * {@code --topic-id-percent} (v4 values of clients that do not name the topic id: the zero UUID,
 * which the tagged field leaves out), {@code --metadata-max-chars} (metadata spread up to a bound)
 * and {@code --indexes} ({@link BrokerRestart}); {@code --preset realistic} sets them all.
 *
 * <p>Writes {@code OUT/__consumer_offsets-0/*.log}, {@code OUT/expected-offsets.csv} (the
 * generator's {@link ExpectedOffsets}: what {@code segscope offsets --format csv} prints for the
 * partition) and {@code OUT/generator.facts} ({@link GeneratorFacts}, also printed); it stops before
 * the batch that would take the partition past {@code --size-mib} or start segment
 * {@code --max-segments} + 1, or after {@code --max-batches} batches. The workload does not depend
 * on the compression, so {@code --compression zstd --max-batches B}, with B the batch count of an
 * uncompressed run of the same options, writes the same records as that run, compressed.
 */
public final class OffsetsSegmentGenerator {
    /** Partitions of {@code __consumer_offsets} (offsets.topic.num.partitions default). */
    static final int OFFSETS_PARTITIONS = 50;
    /** 2026-11-30T00:00:00Z. */
    static final long T0 = 1_795_996_800_000L;
    static final int PARTITION_LEADER_EPOCH = 7;
    /** The partition leader epoch after the upgrade of {@code --v3-percent}: the upgraded broker leads. */
    static final int UPGRADED_LEADER_EPOCH = 8;
    /** {@code offsets.topic.segment.bytes} default: the topic's segment.bytes for Kafka's recovery. */
    static final int OFFSETS_SEGMENT_BYTES = 100 * 1024 * 1024;
    static final String EXPECTED_CSV = "expected-offsets.csv";
    static final String FACTS = "generator.facts";

    /** What one run wrote. */
    record Result(Path partitionDir, ExpectedOffsets expected, GeneratorFacts facts, String factsText) {
    }

    /** Which coordinator write {@link #nextWrite} made. */
    private enum Write { COMMIT, REBALANCE, EXPIRATION, DELETION, MARKER }

    private final GeneratorOptions options;
    private final SplittableRandom rnd;
    /** The draws of the realistic partition's options: a stream of its own, so that {@link #rnd}'s stay the original ones. */
    private final SplittableRandom aux;
    private final Compression compression;
    private final GroupCoordinatorRecordSerde serde = new GroupCoordinatorRecordSerde();

    private final Topic[] topics;
    private final Group[] groups;
    private final double[] groupCdf;
    private final Set<String> groupIds = new HashSet<>();

    private long now = T0;
    private long nextOffset;
    /** Bytes written so far. */
    private long written;
    /**
     * Bytes written so far, counting each batch uncompressed ({@code MemoryRecordsBuilder.uncompressedBytesWritten}):
     * where the upgrade of {@code --v3-percent} happens does not depend on the compression.
     */
    private long uncompressedWritten;
    /** The first uncompressed bytes, written by the 3.x coordinator before the upgrade ({@code --v3-percent}). */
    private final long v3Bytes;
    /** The uncompressed size of the batch {@link #encode} or {@link #encodeMarker} built last. */
    private int encodedUncompressed;

    /** Upper bound of the expiration sweep's share of writes (a probability threshold; 0.035 by default). */
    private final double expireBelow;
    /** Producer ids with an open transaction on this partition, in the order they were opened. */
    private final List<Long> openTxns = new ArrayList<>();
    /** The marker to write next (set by nextWrite), or null. */
    private ControlRecordType pendingMarker;
    private long pendingMarkerProducer;
    /** The producer of the batch nextWrite returned, or NO_PRODUCER_ID. */
    private long batchProducer = RecordBatch.NO_PRODUCER_ID;
    private Write write;
    /** The next sequence number of each transactional producer. */
    private final Map<Long, Integer> sequences = new HashMap<>();

    final GeneratorFacts facts = new GeneratorFacts();
    final ExpectedOffsets expected = new ExpectedOffsets();

    OffsetsSegmentGenerator(GeneratorOptions o) {
        this.options = o;
        this.rnd = new SplittableRandom(o.seed);
        this.aux = new SplittableRandom(o.seed * 0x9E3779B97F4A7C15L + 0x5E65C09EL);
        this.compression = Compression.of(o.codec).build();
        this.expireBelow = o.expirePercent >= 0 ? 0.0068 + o.expirePercent / 100 : 0.035;
        this.v3Bytes = (long) (o.sizeMib * 1024 * 1024 * o.v3Percent / 100);
        this.topics = new Topic[o.topics];
        for (int i = 0; i < o.topics; i++) {
            topics[i] = new Topic(topicName(i), new Uuid(rnd.nextLong(), rnd.nextLong()), partitionCount());
        }
        this.groups = new Group[o.groups];
        this.groupCdf = new double[o.groups];
        double total = 0;
        for (int i = 0; i < o.groups; i++) {
            groups[i] = newGroup(i);
            // Zipf-like activity: a few busy groups, a long tail of quiet ones.
            total += 1.0 / Math.pow(i + 1, 0.8);
            groupCdf[i] = total;
        }
        for (int i = 0; i < o.groups; i++) {
            groupCdf[i] /= total;
        }
    }

    public static void main(String[] args) throws IOException {
        if (Arrays.asList(args).contains("--help")) {
            System.out.println(GeneratorOptions.USAGE);
            return;
        }
        GeneratorOptions o;
        try {
            o = GeneratorOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(GeneratorOptions.USAGE);
            System.exit(2);
            return;
        }
        System.out.print(generate(o).factsText());
    }

    /**
     * Writes the partition, expected-offsets.csv and generator.facts under {@code o.out}; the segment
     * files of an earlier run in the partition directory are replaced.
     */
    static Result generate(GeneratorOptions o) throws IOException {
        Path dir = o.out.resolve("__consumer_offsets-" + o.partition);
        Files.createDirectories(dir);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                String n = f.getFileName().toString();
                if (n.matches("\\d{20}\\.(log|index|timeindex|txnindex|snapshot)") || n.equals("leader-epoch-checkpoint")) {
                    Files.delete(f);
                }
            }
        }
        long segmentMib = o.segmentMib;
        if (o.txnPercent > 0 && segmentMib <= 0) {
            segmentMib = o.sizeMib; // one segment, shown as a directory as before
        }
        OffsetsSegmentGenerator g = new OffsetsSegmentGenerator(o);
        long bytes = g.write(dir, o.sizeMib * 1024 * 1024,
                segmentMib <= 0 ? Long.MAX_VALUE : segmentMib * 1024 * 1024, o.maxBatches);
        if (o.indexes) {
            BrokerRestart.recoverAndShutDown(dir, g.now);
        }
        g.expected.writeCsv(o.out.resolve(EXPECTED_CSV));
        int partitions = 0;
        for (Group group : g.groups) {
            partitions += g.countPartitions(group);
        }
        String text = g.facts.text(o, segmentMib <= 0 ? dir.resolve(String.format(Locale.ROOT, "%020d.log", 0)) : dir,
                bytes, g.groups.length, partitions, g.nextOffset - 1, segmentMib > 0, g.openTxns.size(), g.expected, dir);
        Files.writeString(o.out.resolve(FACTS), text, StandardCharsets.UTF_8);
        return new Result(dir, g.expected, g.facts, text);
    }

    /**
     * Writes batches into segments of at most {@code segmentLimit} bytes each, named by their base
     * offset, until the next batch would take the partition past {@code limit} or {@code maxBatches}
     * are written; returns the total size.
     */
    private long write(Path dir, long limit, long segmentLimit, long maxBatches) throws IOException {
        long segSize = 0;
        FileChannel ch = null;
        try {
            while (facts.batches < maxBatches) {
                List<CoordinatorRecord> batch = nextWrite();
                ControlRecordType marker = pendingMarker;
                long producer = marker != null ? pendingMarkerProducer : batchProducer;
                ByteBuffer buf = marker != null ? encodeMarker(producer, marker) : encode(batch, producer);
                if (written + buf.remaining() > limit) {
                    break;
                }
                if (ch == null || segSize + buf.remaining() > segmentLimit) {
                    if (facts.segments == options.maxSegments) {
                        break;
                    }
                    if (ch != null) {
                        ch.close();
                    }
                    ch = FileChannel.open(dir.resolve(String.format(Locale.ROOT, "%020d.log", nextOffset)),
                            StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
                    segSize = 0;
                    facts.segments++;
                }
                written += buf.remaining();
                uncompressedWritten += encodedUncompressed;
                segSize += buf.remaining();
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                if (marker != null) {
                    accountMarker(producer, marker);
                } else {
                    account(batch, producer);
                }
            }
        } finally {
            if (ch != null) {
                ch.close();
            }
        }
        return written;
    }

    // ---------------------------------------------------------------- the workload

    /** The records of the coordinator's next write, one batch. */
    private List<CoordinatorRecord> nextWrite() {
        now += rnd.nextInt(0, 34);
        pendingMarker = null;
        batchProducer = RecordBatch.NO_PRODUCER_ID;
        if (options.txnPercent > 0 && !openTxns.isEmpty() && rnd.nextDouble() * 100 < options.txnPercent * 0.8) {
            // the transaction coordinator's WriteTxnMarkers for the oldest open transaction
            write = Write.MARKER;
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
        if (options.txnPercent > 0 && rnd.nextDouble() * 100 < options.txnPercent) {
            // a TxnOffsetCommit (e.g. a Kafka Streams EOS task); one transactional producer per group
            long pid = 100_000L + g.index;
            if (!openTxns.contains(pid)) {
                openTxns.add(pid);
            }
            batchProducer = pid;
        }
        return commit(g);
    }

    /**
     * One member's OffsetCommit request: about 13 of its partitions, or {@code --commit-records}. Before
     * the upgrade of {@code --v3-percent}, OffsetCommitValue v3 as a 3.x coordinator wrote it (no topic
     * id); after it, v4 with the topic id if the group's client names it.
     */
    private List<CoordinatorRecord> commit(Group g) {
        write = Write.COMMIT;
        boolean v3 = uncompressedWritten < v3Bytes;
        int member = rnd.nextInt(g.members);
        int[] owned = g.assignment[member];
        if (owned.length == 0) {
            member = 0;
            owned = g.assignment[0];
        }
        int k = Math.min(owned.length, options.commitMin > 0
                ? aux.nextInt(options.commitMin, options.commitMax + 1)
                : 5 + rnd.nextInt(13) + rnd.nextInt(13));
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
            Uuid topicId = g.sendsTopicId && !v3 ? t.id : Uuid.ZERO_UUID;
            CoordinatorRecord r = GroupCoordinatorRecordHelpers.newOffsetCommitRecord(g.id, t.name, partition,
                    new OffsetAndMetadata(offset, epoch, md, now, OptionalLong.empty(), topicId));
            out.add(v3 ? CoordinatorRecord.record(r.key(), new ApiMessageAndVersion(r.value().message(), (short) 3)) : r);
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
        write = Write.EXPIRATION;
        return out;
    }

    /** DeleteGroups: tombstones of all its committed offsets, then of its GroupMetadata. */
    private List<CoordinatorRecord> deleteGroup(Group g) {
        write = Write.DELETION;
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
        write = Write.REBALANCE;
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

    /**
     * Commit metadata: mostly empty, some short tags, some JSON, a few long blobs, a little non-ASCII.
     * With {@code --metadata-max-chars N} the long JSON keeps the sources that fit in N chars and the
     * non-ASCII notes grow to a length drawn up to N, so that lengths spread from empty to N.
     */
    private String metadata(Group g) {
        int max = options.metadataMaxChars;
        double p = rnd.nextDouble();
        if (p < 0.62) {
            return "";
        }
        if (p < 0.85) {
            return bounded(SHORT_TAGS[rnd.nextInt(SHORT_TAGS.length)] + "-" + rnd.nextInt(1, 100));
        }
        if (p < 0.96) {
            return bounded("{\"host\":\"worker-" + rnd.nextInt(64) + "\",\"ts\":" + now + ",\"lag\":"
                    + rnd.nextInt(100_000) + "}");
        }
        if (p < 0.985) {
            StringBuilder sb = new StringBuilder("{\"checkpoint\":").append(rnd.nextLong(1L << 40))
                    .append(",\"sources\":[");
            int n = rnd.nextInt(2, 10);
            boolean first = true;
            for (int i = 0; i < n; i++) {
                String source = "{\"id\":\"" + Long.toHexString(rnd.nextLong()) + "\",\"pos\":" + rnd.nextInt() + '}';
                if (max == 0 || sb.length() + (first ? 0 : 1) + source.length() + 2 <= max) {
                    sb.append(first ? "" : ",").append(source);
                    first = false;
                }
            }
            return bounded(sb.append("]}").toString());
        }
        StringBuilder sb = new StringBuilder("commit by ").append(NON_ASCII[rnd.nextInt(NON_ASCII.length)])
                .append(" \"quoted\"\tnote ").append(rnd.nextInt(1000));
        if (max > 0) {
            int length = aux.nextInt(Math.min(sb.length(), max), max + 1);
            while (sb.length() < length) {
                sb.append(' ').append(NON_ASCII[aux.nextInt(NON_ASCII.length)]);
            }
        }
        return bounded(sb.toString());
    }

    /** {@code s}, cut to {@code --metadata-max-chars} (never inside a surrogate pair). */
    private String bounded(String s) {
        int max = options.metadataMaxChars;
        if (max == 0 || s.length() <= max) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max;
        return s.substring(0, end);
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
        String id = onPartition(base, groupIds, options.partition);
        int topicCount = 1 + (int) Math.floor(Math.pow(rnd.nextDouble(), 2.5) * options.maxGroupTopics);
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
        // OffsetCommit v10+ (topic ids) or an older request, per client: the share is --topic-id-percent
        g.sendsTopicId = aux.nextDouble() * 100 < options.topicIdPercent;
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

    static String onPartition0(String base, Set<String> taken) {
        return onPartition(base, taken, 0);
    }

    /**
     * The first of {@code base}, {@code base-1}, {@code base-2}... not in {@code taken} that lands on
     * partition {@code partition} of 50 (Kafka's {@code partitionFor}); adds it to {@code taken}.
     */
    static String onPartition(String base, Set<String> taken, int partition) {
        for (int i = 0; ; i++) {
            String g = i == 0 ? base : base + "-" + i;
            int h = g.hashCode();
            int abs = h == Integer.MIN_VALUE ? 0 : Math.abs(h);
            if (abs % OFFSETS_PARTITIONS == partition && taken.add(g)) {
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
        boolean sendsTopicId;
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

    /** The partition leader epoch of the next batch: 7, and 8 after the upgrade of {@code --v3-percent}. */
    private int partitionLeaderEpoch() {
        return v3Bytes > 0 && uncompressedWritten >= v3Bytes ? UPGRADED_LEADER_EPOCH : PARTITION_LEADER_EPOCH;
    }

    /** One batch; transactional when {@code producerId} is set (epoch 0, as a TxnOffsetCommit writes it). */
    private ByteBuffer encode(List<CoordinatorRecord> batch, long producerId) {
        boolean txn = producerId != RecordBatch.NO_PRODUCER_ID;
        MemoryRecordsBuilder builder = new MemoryRecordsBuilder(new ByteBufferOutputStream(1024),
                RecordBatch.MAGIC_VALUE_V2, compression, TimestampType.CREATE_TIME, nextOffset,
                RecordBatch.NO_TIMESTAMP, producerId, txn ? (short) 0 : RecordBatch.NO_PRODUCER_EPOCH,
                txn ? sequences.getOrDefault(producerId, 0) : RecordBatch.NO_SEQUENCE, txn, false,
                partitionLeaderEpoch(), Integer.MAX_VALUE);
        if (txn) {
            sequences.merge(producerId, batch.size(), Integer::sum);
        }
        long offset = nextOffset;
        for (CoordinatorRecord r : batch) {
            builder.appendWithOffset(offset++, now, serde.serializeKey(r), serde.serializeValue(r));
        }
        ByteBuffer out = builder.build().buffer();
        encodedUncompressed = builder.uncompressedBytesWritten();
        return out;
    }

    /** A COMMIT or ABORT control batch, as the transaction coordinator's WriteTxnMarkers appends it. */
    private ByteBuffer encodeMarker(long producerId, ControlRecordType type) {
        ByteBuffer out = MemoryRecords.withEndTransactionMarker(nextOffset, now, partitionLeaderEpoch(), producerId,
                (short) 0, new EndTransactionMarker(type, 3)).buffer();
        encodedUncompressed = out.remaining();
        return out;
    }

    /** A written data batch: the facts, and the model ({@link ExpectedOffsets}) record by record. */
    private void account(List<CoordinatorRecord> batch, long producer) {
        facts.timestamp(now);
        facts.batches++;
        facts.records += batch.size();
        facts.maxBatchRecords = Math.max(facts.maxBatchRecords, batch.size());
        switch (write) {
            case COMMIT -> {
                facts.commitBatches++;
                if (batch.size() <= 20) {
                    facts.commitBatchesUpTo20++;
                }
                if (producer != RecordBatch.NO_PRODUCER_ID) {
                    facts.txnBatches++;
                }
            }
            case REBALANCE -> facts.rebalances++;
            case EXPIRATION -> facts.expirationSweeps++;
            case DELETION -> facts.groupDeletions++;
            default -> throw new IllegalStateException("a data batch of a " + write);
        }
        long offset = nextOffset;
        for (CoordinatorRecord r : batch) {
            if (r.key() instanceof OffsetCommitKey k) {
                ExpectedOffsets.Key key = new ExpectedOffsets.Key(k.group(), k.topic(), k.partition());
                if (r.value() == null) {
                    facts.tombstones++;
                    expected.tombstone(key);
                } else {
                    OffsetCommitValue v = (OffsetCommitValue) r.value().message();
                    facts.commits++;
                    facts.valueVersion(r.value().version(), !v.topicId().equals(Uuid.ZERO_UUID));
                    facts.metadata(v.metadata(), v.metadata().getBytes(StandardCharsets.UTF_8).length);
                    expected.commit(key, new ExpectedOffsets.Offset(v.offset(), v.leaderEpoch(), v.metadata(),
                            v.commitTimestamp(), v.topicId(), offset, producer));
                }
            } else if (r.value() == null) {
                facts.tombstones++;
                facts.groupTombstones++;
            } else if (r.key() instanceof GroupMetadataKey) {
                facts.groupMetadata++;
            }
            offset++;
        }
        nextOffset = offset;
    }

    /** A written COMMIT or ABORT control batch. */
    private void accountMarker(long producer, ControlRecordType marker) {
        facts.timestamp(now);
        facts.batches++;
        nextOffset++;
        if (marker == ControlRecordType.COMMIT) {
            facts.commitMarkers++;
        } else {
            facts.abortMarkers++;
        }
        expected.endTransaction(producer, marker == ControlRecordType.COMMIT);
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
