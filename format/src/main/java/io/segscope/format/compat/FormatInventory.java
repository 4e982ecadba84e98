package io.segscope.format.compat;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.Field;
import io.segscope.format.coordinator.StructSchema;
import io.segscope.format.coordinator.TagSink;
import io.segscope.format.coordinator.Unknown;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataRecordDecoder;
import io.segscope.format.coordinator.metadata.MetadataResult;
import io.segscope.format.coordinator.metadata.MetadataSchemas;
import io.segscope.format.coordinator.metadata.MetadataUnknown;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.record.Batch;
import io.segscope.format.record.CompressionType;
import io.segscope.format.record.ControlRecord;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.TimestampType;
import io.segscope.format.walk.DecoderChoice;
import io.segscope.format.walk.RecordContent;
import io.segscope.format.walk.RecordFilter;
import io.segscope.format.walk.RecordSink;
import io.segscope.format.walk.RecordWalk;
import io.segscope.format.walk.TransactionOutcome;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one partition's log holds, format by format (docs/format.md 1.6, 1.7, 2.5): batches by
 * message format (magic 0, 1, 2), by codec, and by feature (idempotent, transactional, control
 * batches by type, delete horizons, LogAppendTime, records with headers); for the coordinator topics
 * and the KRaft metadata log, every (record type, value version) with its count, first and last
 * offset and time, the records that do not decode (unknown types and versions) and the tagged
 * fields present, known ones by field name and unknown ones by tag number. One pass of the walk;
 * what a Kafka release can read of it is the compatibility verdict's business.
 *
 * <p>Scan speed: a batch is counted from its header ({@link RecordSink#wants}); its records are read
 * (and decompressed) only where the header does not tell enough: a control batch (its type is its
 * record's key), a magic 0 or 1 wrapper (its inner messages), the records of a state log (their
 * type and version), and, with {@code deep}, every batch (records with headers). A coordinator
 * record's value is checked against its schema without building it
 * ({@link CoordinatorRecordDecoder#check}).
 */
public final class FormatInventory implements RecordSink {
    /**
     * One tagged field seen in the records of a (record type, value version).
     *
     * @param struct the struct it was read in: "" for the record's value itself, else the nested struct's name
     * @param tag the tag number
     * @param field the field's name, or "" when the schema does not know the tag at that version
     * @param count the records that hold it (times it was read)
     */
    public record TaggedField(String struct, int tag, String field, long count) {
        public boolean known() {
            return !field.isEmpty();
        }

        /** {@code topicId}, {@code Struct.field}, {@code tag7}, {@code Struct.tag7}. */
        public String label() {
            return (struct.isEmpty() ? "" : struct + ".") + (known() ? field : "tag" + tag);
        }
    }

    /**
     * One (record type, value version) of a coordinator topic or the metadata log.
     *
     * @param type the record type (key version; the metadata log's apiKey)
     * @param version the value version (-1: tombstones)
     * @param name the record's name, or "" when the type is unknown
     * @param known whether segscope's schemas decode it (false: an unknown type or version)
     * @param taggedFields the tagged fields its decoded records hold, known ones first (by tag), then unknown ones
     */
    public record RecordVersion(short type, short version, String name, boolean known, long count, long firstOffset,
                                long lastOffset, long firstTimestamp, long lastTimestamp, List<TaggedField> taggedFields) {
        public RecordVersion {
            taggedFields = List.copyOf(taggedFields);
        }
    }

    /**
     * One thing counted over time: a magic, a codec or a record version, with its count per time bucket.
     *
     * @param key "0", "1", "2" (magic), "2/zstd" (as {@link Counts#codecs}) or "type/version" (as {@link Counts#recordVersions})
     * @param counts batches (magic, codec) or records (record version) per bucket of the timeline's buckets
     * @param first the first time one was seen (batch max timestamp; a record's own for record versions), or -1
     * @param last the last such time, or -1
     */
    public record Series(String key, long[] counts, long first, long last) {
        public long total() {
            long t = 0;
            for (long c : counts) {
                t += c;
            }
            return t;
        }
    }

    /**
     * Counts per time bucket: batches by magic and by codec (each batch by its max timestamp), records
     * of each coordinator or metadata record version (by the record's timestamp). Bounded: one array
     * of {@code buckets.count()} per magic, codec and record version.
     *
     * @param undated batches with no timestamp or one outside the buckets (and records of those)
     */
    public record Timeline(TimeBuckets buckets, List<Series> magics, List<Series> codecs, List<Series> recordVersions, long undated) {
        public Timeline {
            magics = List.copyOf(magics);
            codecs = List.copyOf(codecs);
            recordVersions = List.copyOf(recordVersions);
        }
    }

    /**
     * The counts of one partition.
     *
     * @param records records by the batch headers' counts (magic 2) and the inner messages read (magic 0 and 1)
     * @param batchesByMagic batches of magic 0, 1 and 2 (other magics: {@code otherMagicBatches})
     * @param codecs "magic/codec" (e.g. {@code 2/zstd}; {@code unknown} for codec ids 5 to 7) to batches
     * @param controlTypes control batch type (by its first record: ABORT, COMMIT, LEADER_CHANGE, …) to batches
     * @param recordsWithHeaders records with headers, counted only when {@code headersCounted}
     * @param headersCounted whether every batch's records were read (deep), so that {@code recordsWithHeaders} is a count
     * @param recordVersions "type/version" to the record version's figures, sorted
     * @param unknownTaggedFields tagged fields the value schemas do not know, summed over the records
     * @param timeline counts per time bucket, or null when no buckets were asked for
     * @param finalizedFeatures the KRaft metadata log's finalized features ({@code metadata.version},
     *     {@code kraft.version}, ...) by name: the level of the last FeatureLevelRecord of each, in offset
     *     order after the latest snapshot's; a level 0 removes the feature, as Kafka's FeaturesDelta does
     * @param damage what kept part of the partition from being read (damaged bytes skipped, a file
     *     ended by damage, records that do not parse), one message naming file and position each:
     *     the counts then cover only what was read
     */
    public record Counts(String topic, int partition, long batches, long records, long[] batchesByMagic,
                         long otherMagicBatches, Map<String, Long> codecs, long idempotentBatches,
                         long transactionalBatches, Map<String, Long> controlTypes, long deleteHorizonBatches,
                         long logAppendTimeBatches, long recordsWithHeaders, boolean headersCounted,
                         Map<String, RecordVersion> recordVersions, long unknownTaggedFields, long firstTimestamp,
                         long lastTimestamp, Timeline timeline, Map<String, Short> finalizedFeatures,
                         List<String> damage) {
    }

    /** The codec name of a batch whose codec id (5 to 7) no Kafka release defines. */
    public static final String UNKNOWN_CODEC = "unknown";
    private static final String[] CODEC_NAMES = codecNames();

    private final String topic;
    private final int partition;
    private final boolean deep;
    private final StateLog stateLog;
    private final CoordinatorRecordDecoder coordinator;
    private long batches;
    private long records;
    private final long[] byMagic = new long[3];
    private long otherMagic;
    private final Map<String, Long> codecs = new TreeMap<>();
    private final long[][] codecCounts = new long[3][CODEC_NAMES.length];
    private long idempotent;
    private long transactional;
    private final Map<String, Long> controlTypes = new TreeMap<>();
    private long deleteHorizon;
    private long logAppendTime;
    private long withHeaders;
    private final Map<Integer, Version> versions = new TreeMap<>();
    private long unknownTagged;
    private long firstTs = -1;
    private long lastTs = -1;
    private final Tags tags = new Tags();
    /** The buckets counted in, or null. */
    private final TimeBuckets buckets;
    /** Batches from the first one whose largest timestamp is later than this are not counted. */
    private final long asOfTime;
    private boolean cut;
    private final long[][][] codecBuckets = new long[3][CODEC_NAMES.length][];
    private final long[][] codecTimes = new long[3 * CODEC_NAMES.length][];
    private final long[][] magicBuckets = new long[3][];
    private final long[][] magicTimes = new long[3][];
    private long undated;
    private final Map<String, Short> features = new TreeMap<>();
    private final List<String> damage = new java.util.ArrayList<>();

    /** The figures of one (type, version), and the tags its records hold. */
    private static final class Version {
        final short type;
        final short version;
        String name;
        boolean known = true;
        long count;
        long firstOffset = -1;
        long lastOffset = -1;
        long firstTs = -1;
        long lastTs = -1;
        /** Field (a known tag) or UnknownTag to {count}; its struct in structs. */
        final Map<Object, long[]> tagCounts = new java.util.LinkedHashMap<>();
        final Map<Object, StructSchema> structs = new java.util.HashMap<>();
        long[] perBucket;
        long minTs = -1;
        long maxTs = -1;

        Version(short type, short version) {
            this.type = type;
            this.version = version;
        }
    }

    private record UnknownTag(StructSchema struct, int tag) {
    }

    /** The tags of the record being read, kept until it is known to decode. */
    private static final class Tags implements TagSink {
        StructSchema[] structs = new StructSchema[8];
        int[] numbers = new int[8];
        Field[] fields = new Field[8];
        int n;

        @Override
        public void tag(StructSchema struct, int tag, Field field) {
            if (n == numbers.length) {
                structs = java.util.Arrays.copyOf(structs, 2 * n);
                numbers = java.util.Arrays.copyOf(numbers, 2 * n);
                fields = java.util.Arrays.copyOf(fields, 2 * n);
            }
            structs[n] = struct;
            numbers[n] = tag;
            fields[n] = field;
            n++;
        }
    }

    private FormatInventory(String topic, int partition, boolean deep, TimeBuckets buckets, long asOfTime) {
        this.buckets = buckets;
        this.asOfTime = asOfTime;
        this.topic = topic;
        this.partition = partition;
        this.deep = deep;
        this.stateLog = StateLog.forTopic(topic);
        CoordinatorTopic ct = CoordinatorTopic.forTopicName(topic);
        this.coordinator = ct == null ? null : CoordinatorRecordDecoder.forTopic(ct);
    }

    /**
     * Reads a partition dir: {@link #files(PartitionDir)}, decoding records by topic, without
     * reading user topics' records for their headers.
     */
    public static Counts of(PartitionDir dir, ReaderOptions options) {
        return of(dir, options, false);
    }

    /** As {@link #of(PartitionDir, ReaderOptions)}; {@code deep} reads every batch's records to count those with headers. */
    public static Counts of(PartitionDir dir, ReaderOptions options, boolean deep) {
        return of(dir.topic(), dir.partition(), files(dir), options, deep);
    }

    /**
     * A partition's live {@code .log} files in offset order; for the KRaft metadata log its latest
     * KRaft snapshot first, the state a broker loads before the log (after a snapshot the segments
     * below it may be gone, and with them the only copy of the record versions it holds).
     */
    public static List<LogFile> files(PartitionDir dir) {
        List<LogFile> out = new java.util.ArrayList<>();
        if (dir.name().isMetadataLog()) {
            LogFile latest = null;
            for (io.segscope.format.logdir.FileEntry e : dir.dir().children()) {
                LogFile f = LogFile.classify(e, java.util.Optional.of(dir.name()));
                if (f.kind() == io.segscope.format.logdir.FileKind.KRAFT_SNAPSHOT
                        && (latest == null || f.baseOffset() > latest.baseOffset())) {
                    latest = f;
                }
            }
            if (latest != null) {
                out.add(latest);
            }
        }
        for (io.segscope.format.logdir.Segment s : dir.segments().segments()) {
            s.log().ifPresent(l -> out.add(LogFile.classify(l, java.util.Optional.of(dir.name()))));
        }
        return out;
    }

    /**
     * Reads one partition's {@code .log} files (and a metadata log's KRaft snapshots) in offset
     * order, decoding records by topic, every batch's records read (deep).
     */
    public static Counts of(String topic, int partition, List<LogFile> files, ReaderOptions options) {
        return of(topic, partition, files, options, true);
    }

    /** As {@link #of(String, int, List, ReaderOptions)}; without {@code deep}, records are read only where needed. */
    public static Counts of(String topic, int partition, List<LogFile> files, ReaderOptions options, boolean deep) {
        return of(topic, partition, files, options, deep, null);
    }

    /** As {@link #of(PartitionDir, ReaderOptions, boolean)}, counting also per bucket of {@code buckets} ({@link Counts#timeline}). */
    public static Counts of(PartitionDir dir, ReaderOptions options, boolean deep, TimeBuckets buckets) {
        return of(dir.topic(), dir.partition(), files(dir), options, deep, buckets, Long.MAX_VALUE);
    }

    /**
     * As {@link #of(PartitionDir, ReaderOptions, boolean, TimeBuckets)}, as of {@code asOfTime}: the
     * partition's batches (in the files' order) counted up to the first one whose largest timestamp is
     * later (that one and those after it are not), as {@code ReplicaScanner.cut} cuts a partition.
     */
    public static Counts of(PartitionDir dir, ReaderOptions options, boolean deep, TimeBuckets buckets, long asOfTime) {
        return of(dir.topic(), dir.partition(), files(dir), options, deep, buckets, asOfTime);
    }

    /** As {@link #of(String, int, List, ReaderOptions, boolean)}, counting also per bucket of {@code buckets} (null: none). */
    public static Counts of(String topic, int partition, List<LogFile> files, ReaderOptions options, boolean deep, TimeBuckets buckets) {
        return of(topic, partition, files, options, deep, buckets, Long.MAX_VALUE);
    }

    /** As {@link #of(String, int, List, ReaderOptions, boolean, TimeBuckets)}, as of {@code asOfTime} (Long.MAX_VALUE: no cut). */
    public static Counts of(String topic, int partition, List<LogFile> files, ReaderOptions options, boolean deep, TimeBuckets buckets,
                            long asOfTime) {
        FormatInventory inv = new FormatInventory(topic, partition, deep, buckets, asOfTime);
        // counts only, no view kept: each segment unmapped once read (a whole log dir's pass holds one segment's pages)
        new RecordWalk(options, DecoderChoice.NONE, RecordFilter.ALL, Long.MAX_VALUE).releaseEachFile(true).walk(files, inv);
        return inv.counts();
    }

    /**
     * The largest timestamp of a partition's first batch (its first segment's, read alone), or -1 when
     * there is none, it has none, or the segment is a stream (an archive's): where a timeline that
     * counts batches by their largest timestamp starts. A cheap bound for {@link TimeBuckets#covering}.
     */
    public static long firstBatchMaxTimestamp(PartitionDir dir, ReaderOptions options) {
        for (io.segscope.format.logdir.Segment s : dir.segments().segments()) {
            if (s.log().isEmpty()) {
                continue;
            }
            io.segscope.format.logdir.FileEntry log = s.log().get();
            if (log.isStream() || log.size() == 0) {
                return -1;
            }
            try (io.segscope.format.io.ByteSource src = log.open();
                 io.segscope.format.record.BatchReader r = new io.segscope.format.record.BatchReader(src, options)) {
                return r.next() ? r.batch().maxTimestamp() : -1;
            } catch (io.segscope.format.error.FormatException | java.io.UncheckedIOException e) {
                return -1;
            }
        }
        return -1;
    }

    private static String[] codecNames() {
        String[] names = new String[CompressionType.values().length + 1];
        for (CompressionType c : CompressionType.values()) {
            names[c.ordinal()] = c.toString().toLowerCase(java.util.Locale.ROOT);
        }
        names[names.length - 1] = UNKNOWN_CODEC;
        return names;
    }

    /** Counts a batch from its header; true when its records must be read too. */
    @Override
    public boolean wants(LogFile file, Batch b) {
        if (cut || asOfTime != Long.MAX_VALUE && b.maxTimestamp() > asOfTime) {
            cut = true;
            return false;
        }
        batches++;
        byte magic = b.magic();
        if (magic >= 0 && magic <= 2) {
            byMagic[magic]++;
            CompressionType codec = b.compression();
            int c = codec == null ? CODEC_NAMES.length - 1 : codec.ordinal();
            codecCounts[magic][c]++;
            if (buckets != null) {
                long t = b.maxTimestamp();
                int i = buckets.indexOf(t);
                if (i < 0) {
                    undated++;
                } else {
                    if (magicBuckets[magic] == null) {
                        magicBuckets[magic] = new long[buckets.count()];
                        magicTimes[magic] = new long[] {-1, -1};
                    }
                    if (codecBuckets[magic][c] == null) {
                        codecBuckets[magic][c] = new long[buckets.count()];
                        codecTimes[magic * CODEC_NAMES.length + c] = new long[] {-1, -1};
                    }
                    magicBuckets[magic][i]++;
                    codecBuckets[magic][c][i]++;
                    seen(magicTimes[magic], t);
                    seen(codecTimes[magic * CODEC_NAMES.length + c], t);
                }
            }
        } else {
            otherMagic++;
        }
        if (magic >= 2 && b.producerId() >= 0) {
            if (b.isTransactional()) {
                transactional++;
            } else {
                idempotent++;
            }
        }
        if (magic >= 2 && b.hasDeleteHorizon()) {
            deleteHorizon++;
        }
        if (magic >= 1 && b.timestampType() == TimestampType.LOG_APPEND_TIME) {
            logAppendTime++;
        }
        long ts = b.maxTimestamp();
        if (ts >= 0) {
            if (firstTs < 0) {
                firstTs = ts;
            }
            lastTs = Math.max(lastTs, ts);
        }
        if (magic >= 2) {
            records += Math.max(0, b.countOrMinusOne());
            return deep || stateLog != null || b.isControl();
        }
        return true;   // a magic 0/1 wrapper: its inner messages are the records
    }

    @Override
    public void record(LogFile file, Batch batch, LogRecord record, RecordContent content) {
        if (cut) {
            return;
        }
        if (batch.magic() < 2) {
            records++;
        }
        if (record.headerCount() > 0) {
            withHeaders++;
        }
        if (batch.isControl()) {
            if (record.offset() == batch.baseOffset()) {   // a marker batch holds one record
                controlTypes.merge(ControlRecord.type(batch, record).name(), 1L, Long::sum);
            }
            return;
        }
        if (stateLog == null) {
            return;
        }
        tags.n = 0;
        short type;
        short version;
        String name;
        boolean decoded;
        StructSchema value;
        if (stateLog == StateLog.CLUSTER_METADATA) {
            MetadataResult r = MetadataRecordDecoder.decode(record.buffer(), record.valueOffset(), record.valueLength(),
                    MetadataSchemas::forApiKey, tags);
            if (r instanceof MetadataDecoded d) {
                type = d.apiKey();
                version = d.version();
                name = d.schema().name();
                decoded = true;
                value = d.schema().value();
                if (type == 12) {   // FeatureLevelRecord: the finalized level of a feature (0 removes it)
                    short level = (short) d.value().getInt("FeatureLevel");
                    String feature = d.value().getString("Name");
                    if (level == 0 && !feature.equals("metadata.version")) {
                        features.remove(feature);
                    } else {
                        features.put(feature, level);
                    }
                }
            } else if (r instanceof MetadataUnknown u) {
                type = u.apiKey();
                version = u.version();
                name = "";
                decoded = false;
                value = null;
            } else {
                return;
            }
        } else {
            CoordinatorResult r = coordinator.check(record.hasKey() ? record.buffer() : null, record.keyOffset(),
                    record.keyLength(), record.hasValue() ? record.buffer() : null, record.valueOffset(), record.valueLength(), tags);
            if (r instanceof Decoded d) {
                type = d.recordType();
                version = d.valueVersion();
                name = d.schema().name();
                decoded = true;
                value = d.schema().value();
            } else if (r instanceof Unknown u) {
                if (u.reason() == io.segscope.format.coordinator.UnknownReason.MALFORMED_VALUE
                        || u.reason() == io.segscope.format.coordinator.UnknownReason.MALFORMED_KEY
                        || u.reason() == io.segscope.format.coordinator.UnknownReason.MISSING_KEY) {
                    // bytes of a known type that do not parse: no release's loader reads them (damage,
                    // not a format any release lacks)
                    damage.add(u.toException(file.path(), batch.position(), record.offset()).getMessage());
                }
                type = u.recordType();
                version = u.valueVersion();
                if (version < 0 && u.value() != null && u.value().length() >= 2) {
                    // an unknown type: the decoder stopped at the key; the value's version is its first int16
                    byte[] v = u.value().array();
                    version = (short) (((v[0] & 0xff) << 8) | (v[1] & 0xff));
                }
                name = "";
                decoded = false;
                value = null;
            } else {
                return;
            }
        }
        Version v = versions.get((type << 16) | (version & 0xffff));
        if (v == null) {
            v = new Version(type, version);
            v.name = name;
            versions.put((type << 16) | (version & 0xffff), v);
        }
        v.count++;
        if (v.firstOffset < 0) {
            v.firstOffset = record.offset();
            v.firstTs = record.timestamp();
        }
        v.lastOffset = record.offset();
        v.lastTs = record.timestamp();
        v.known &= decoded;
        if (buckets != null) {
            long t = record.timestamp() >= 0 ? record.timestamp() : batch.maxTimestamp();
            int i = buckets.indexOf(t);
            if (i >= 0) {
                if (v.perBucket == null) {
                    v.perBucket = new long[buckets.count()];
                }
                v.perBucket[i]++;
                v.minTs = v.minTs < 0 ? t : Math.min(v.minTs, t);
                v.maxTs = Math.max(v.maxTs, t);
            }
        }
        if (decoded) {
            for (int i = 0; i < tags.n; i++) {
                Field f = tags.fields[i];
                Object key = f != null ? f : new UnknownTag(tags.structs[i], tags.numbers[i]);
                long[] c = v.tagCounts.get(key);
                if (c == null) {
                    c = new long[1];
                    v.tagCounts.put(key, c);
                    v.structs.put(key, tags.structs[i] == value ? null : tags.structs[i]);
                }
                c[0]++;
                if (f == null) {
                    unknownTagged++;
                }
            }
        }
    }

    private static void seen(long[] firstLast, long t) {
        firstLast[0] = firstLast[0] < 0 ? t : Math.min(firstLast[0], t);
        firstLast[1] = Math.max(firstLast[1], t);
    }

    private Timeline timeline(List<Version> sorted) {
        if (buckets == null) {
            return null;
        }
        List<Series> magics = new java.util.ArrayList<>();
        List<Series> codecSeries = new java.util.ArrayList<>();
        List<Series> versionSeries = new java.util.ArrayList<>();
        for (int m = 0; m < 3; m++) {
            if (magicBuckets[m] != null) {
                magics.add(new Series(Integer.toString(m), magicBuckets[m].clone(), magicTimes[m][0], magicTimes[m][1]));
            }
            for (int c = 0; c < CODEC_NAMES.length; c++) {
                if (codecBuckets[m][c] != null) {
                    long[] t = codecTimes[m * CODEC_NAMES.length + c];
                    codecSeries.add(new Series(m + "/" + CODEC_NAMES[c], codecBuckets[m][c].clone(), t[0], t[1]));
                }
            }
        }
        for (Version v : sorted) {
            if (v.perBucket != null) {
                versionSeries.add(new Series(v.type + "/" + v.version, v.perBucket.clone(), v.minTs, v.maxTs));
            }
        }
        return new Timeline(buckets, magics, codecSeries, versionSeries, undated);
    }

    private Counts counts() {
        for (int m = 0; m < 3; m++) {
            for (int c = 0; c < CODEC_NAMES.length; c++) {
                if (codecCounts[m][c] > 0) {
                    codecs.put(m + "/" + CODEC_NAMES[c], codecCounts[m][c]);
                }
            }
        }
        Map<String, RecordVersion> out = new java.util.LinkedHashMap<>();
        // sorted by type, then version (tombstones, -1, first)
        List<Version> sorted = new java.util.ArrayList<>(versions.values());
        sorted.sort(java.util.Comparator.comparingInt((Version x) -> x.type).thenComparingInt(x -> x.version));
        for (Version v : sorted) {
            List<TaggedField> fields = new java.util.ArrayList<>();
            v.tagCounts.forEach((k, c) -> {
                StructSchema s = v.structs.get(k);
                String struct = s == null ? "" : s.name();
                fields.add(k instanceof Field f ? new TaggedField(struct, f.tag(), f.name(), c[0])
                        : new TaggedField(struct, ((UnknownTag) k).tag(), "", c[0]));
            });
            fields.sort(java.util.Comparator.comparing((TaggedField t) -> !t.known()).thenComparing(TaggedField::struct)
                    .thenComparingInt(TaggedField::tag));
            out.put(v.type + "/" + v.version, new RecordVersion(v.type, v.version, v.name, v.known, v.count, v.firstOffset,
                    v.lastOffset, v.firstTs, v.lastTs, fields));
        }
        return new Counts(topic, partition, batches, records, byMagic.clone(), otherMagic, Map.copyOf(codecs), idempotent,
                transactional, Map.copyOf(controlTypes), deleteHorizon, logAppendTime, withHeaders, deep, out, unknownTagged,
                firstTs, lastTs, timeline(sorted), java.util.Collections.unmodifiableMap(new TreeMap<>(features)),
                List.copyOf(damage));
    }

    @Override
    public void problem(LogFile file, String message) {
        damage.add(message);
    }

    @Override
    public void endFile(LogFile file, io.segscope.format.record.Tail tail, long validBytes, long fileSize, String error) {
        // a torn tail alone (error null) is what a crash leaves and recovery truncates: not damage
        if (error != null) {
            damage.add(error.startsWith(file.path()) ? error : file.path() + ": " + error);
        }
    }
}
