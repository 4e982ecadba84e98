package io.segscope.format.compat;

import io.segscope.format.coordinator.CoordinatorResult;
import io.segscope.format.coordinator.Decoded;
import io.segscope.format.coordinator.Unknown;
import io.segscope.format.coordinator.metadata.MetadataDecoded;
import io.segscope.format.coordinator.metadata.MetadataUnknown;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.record.Batch;
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
 * offset and time, the records that do not decode (unknown types and versions) and the tagged fields
 * their schemas do not know. One pass of the walk; what a Kafka release can read of it is the
 * compatibility verdict's business.
 */
public final class FormatInventory implements RecordSink {
    /**
     * One (record type, value version) of a coordinator topic or the metadata log.
     *
     * @param type the record type (key version; the metadata log's apiKey)
     * @param version the value version (-1: tombstones)
     * @param name the record's name, or "" when the type is unknown
     * @param known whether segscope's schemas decode it (false: an unknown type or version)
     */
    public record RecordVersion(short type, short version, String name, boolean known, long count, long firstOffset,
                                long lastOffset, long firstTimestamp, long lastTimestamp) {
    }

    /**
     * The counts of one partition.
     *
     * @param batchesByMagic batches of magic 0, 1 and 2 (other magics: {@code otherMagicBatches})
     * @param codecs "magic/codec" (e.g. {@code 2/zstd}) to batches
     * @param controlTypes control batch type (by its first record: ABORT, COMMIT, LEADER_CHANGE, …) to batches
     * @param recordVersions "type/version" to the record version's figures, sorted
     * @param unknownTaggedFields tagged fields the value schemas do not know, summed over the records
     */
    public record Counts(String topic, int partition, long batches, long records, long[] batchesByMagic,
                         long otherMagicBatches, Map<String, Long> codecs, long idempotentBatches,
                         long transactionalBatches, Map<String, Long> controlTypes, long deleteHorizonBatches,
                         long logAppendTimeBatches, long recordsWithHeaders, Map<String, RecordVersion> recordVersions,
                         long unknownTaggedFields, long firstTimestamp, long lastTimestamp) {
    }

    private final String topic;
    private final int partition;
    private long batches;
    private long records;
    private final long[] byMagic = new long[3];
    private long otherMagic;
    private final Map<String, Long> codecs = new TreeMap<>();
    private long idempotent;
    private long transactional;
    private final Map<String, Long> controlTypes = new TreeMap<>();
    private long deleteHorizon;
    private long logAppendTime;
    private long withHeaders;
    private final Map<String, long[]> versions = new TreeMap<>();
    private final Map<String, String> names = new TreeMap<>();
    private final Map<String, Boolean> known = new TreeMap<>();
    private long unknownTagged;
    private long firstTs = -1;
    private long lastTs = -1;

    private FormatInventory(String topic, int partition) {
        this.topic = topic;
        this.partition = partition;
    }

    /**
     * Reads a partition dir: {@link #files(PartitionDir)}, decoding records by topic.
     */
    public static Counts of(PartitionDir dir, ReaderOptions options) {
        return of(dir.topic(), dir.partition(), files(dir), options);
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
     * order, decoding records by topic.
     */
    public static Counts of(String topic, int partition, List<LogFile> files, ReaderOptions options) {
        FormatInventory inv = new FormatInventory(topic, partition);
        // counts only, no view kept: each segment unmapped once read (a whole log dir's pass holds one segment's pages)
        new RecordWalk(options, DecoderChoice.AUTO, RecordFilter.ALL, Long.MAX_VALUE).releaseEachFile(true).walk(files, inv);
        return inv.counts();
    }

    @Override
    public void batch(LogFile file, Batch b, TransactionOutcome transaction) {
        batches++;
        byte magic = b.magic();
        if (magic >= 0 && magic <= 2) {
            byMagic[magic]++;
        } else {
            otherMagic++;
        }
        codecs.merge(magic + "/" + b.compression().toString().toLowerCase(java.util.Locale.ROOT), 1L, Long::sum);
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
    }

    @Override
    public void record(LogFile file, Batch batch, LogRecord record, RecordContent content) {
        records++;
        if (record.headerCount() > 0) {
            withHeaders++;
        }
        if (batch.isControl()) {
            if (record.offset() == batch.baseOffset()) {   // a marker batch holds one record
                controlTypes.merge(ControlRecord.type(batch, record).name(), 1L, Long::sum);
            }
            return;
        }
        short type;
        short version;
        String name;
        boolean decoded;
        int unknownTags;
        if (content instanceof RecordContent.Coordinator c) {
            CoordinatorResult r = c.result();
            if (r instanceof Decoded d) {
                type = d.recordType();
                version = d.valueVersion();
                name = d.schema().name();
                decoded = true;
                unknownTags = d.isTombstone() ? 0 : d.value().totalUnknownTaggedFields();
            } else if (r instanceof Unknown u) {
                type = u.recordType();
                version = u.valueVersion();
                if (version < 0 && u.value() != null && u.value().length() >= 2) {
                    // an unknown type: the decoder stopped at the key; the value's version is its first int16
                    byte[] v = u.value().array();
                    version = (short) (((v[0] & 0xff) << 8) | (v[1] & 0xff));
                }
                name = "";
                decoded = false;
                unknownTags = 0;
            } else {
                return;
            }
        } else if (content instanceof RecordContent.Metadata m) {
            if (m.result() instanceof MetadataDecoded d) {
                type = d.apiKey();
                version = d.version();
                name = d.schema().name();
                decoded = true;
                unknownTags = d.unknownTaggedFields();
            } else if (m.result() instanceof MetadataUnknown u) {
                type = u.apiKey();
                version = u.version();
                name = "";
                decoded = false;
                unknownTags = 0;
            } else {
                return;
            }
        } else {
            return;
        }
        unknownTagged += unknownTags;
        String key = String.format("%05d/%05d", type + 1, version + 1);
        short t = type;
        short ver = version;
        long[] v = versions.computeIfAbsent(key, k -> new long[] {0, -1, -1, -1, -1, t, ver});
        v[0]++;
        if (v[1] < 0) {
            v[1] = record.offset();
            v[3] = record.timestamp();
        }
        v[2] = record.offset();
        v[4] = record.timestamp();
        names.putIfAbsent(key, name);
        known.merge(key, decoded, (a, b) -> a && b);
    }

    private Counts counts() {
        Map<String, RecordVersion> out = new java.util.LinkedHashMap<>();
        versions.forEach((k, v) -> out.put(v[5] + "/" + v[6], new RecordVersion((short) v[5], (short) v[6], names.get(k),
                known.get(k), v[0], v[1], v[2], v[3], v[4])));
        return new Counts(topic, partition, batches, records, byMagic.clone(), otherMagic, Map.copyOf(codecs), idempotent,
                transactional, Map.copyOf(controlTypes), deleteHorizon, logAppendTime, withHeaders, out, unknownTagged, firstTs,
                lastTs);
    }
}
