package io.segscope.format.compat;

import io.segscope.format.record.CompressionType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which Kafka release lines can load and serve a set of logs (docs/format.md 1.6, 1.7, 2.5): the
 * partitions' {@link FormatInventory} counts joined with what each line reads ({@link KafkaReleases}).
 * A line <em>loads</em> the logs when nothing in them stops its broker: a message format, codec or
 * batch feature it does not read, a coordinator or metadata record its loader fails on, or a
 * finalized feature level of the KRaft metadata log ({@code metadata.version}, ...) its nodes do not
 * support ({@link #featureBlocker}). Records
 * its loader skips are <em>losses</em> (the state they carried is gone), not blockers.
 */
public final class Compatibility {
    /**
     * All partitions of one topic, summed.
     *
     * @param partitions how many partitions the inventory read
     * @param batchesByMagic batches of magic 0, 1, 2
     * @param codecs batches by codec (any magic)
     * @param unknownCodecBatches batches of a codec id (5 to 7) no Kafka release defines
     * @param headersCounted whether {@code recordsWithHeaders} counts every partition's records (a deep inventory)
     * @param controlTypes control batches by type name
     * @param recordVersions "type/version" to the record version summed over the partitions, with how many partitions hold it
     * @param finalizedFeatures the KRaft metadata log's finalized feature levels by name (empty for other topics)
     */
    public record TopicFormats(String topic, int partitions, long batches, long records, long[] batchesByMagic,
                               long otherMagicBatches, Map<CompressionType, Long> codecs, long unknownCodecBatches,
                               long idempotentBatches, long transactionalBatches, Map<String, Long> controlTypes,
                               long deleteHorizonBatches, long logAppendTimeBatches, long recordsWithHeaders, boolean headersCounted,
                               Map<String, FormatInventory.RecordVersion> recordVersions, Map<String, Integer> partitionsWith,
                               long unknownTaggedFields, Map<String, Short> finalizedFeatures) {
    }

    /**
     * One release line's verdict.
     *
     * @param loads whether its brokers load the logs (no blocker)
     * @param blockers what stops them, each with its reason
     * @param losses what they would skip (state lost) or read differently, each with its reason
     * @param notes what they would do to the logs beyond reading them (a cleaner rewriting old formats)
     * @param access who reads the committed offsets, with this line
     */
    public record Verdict(String line, String release, boolean loads, List<String> blockers, List<String> losses,
                          List<String> notes, Access access) {
    }

    /**
     * Who reads the committed offsets, for one release line. Each answer is a word ({@code yes},
     * {@code partly}, {@code no}, {@code unsupported}), a colon and the reason.
     *
     * @param consumers consumers through this line's brokers: whether its group coordinator loads
     *     the offset commits (the logs load, and no offset commit is skipped)
     * @param clientsOn4x this line's clients against a 4.x broker that loads the logs (KIP-896
     *     removed the protocol versions of clients older than 2.1)
     * @param tools this line's tools that read the state logs' records directly (the console
     *     consumer's formatters and {@code kafka-dump-log}'s decoders): whether they know every
     *     record version of {@code __consumer_offsets} and {@code __transaction_state} here
     */
    public record Access(String consumers, String clientsOn4x, String tools) {
        /** The word of an answer ({@code yes}, {@code partly}, {@code no}, {@code unsupported}). */
        public static String word(String answer) {
            int colon = answer.indexOf(':');
            return colon < 0 ? answer : answer.substring(0, colon);
        }
    }

    private Compatibility() {
    }

    /** Sums each topic's partitions (sorted by topic). */
    public static Map<String, TopicFormats> byTopic(List<FormatInventory.Counts> partitions) {
        Map<String, List<FormatInventory.Counts>> groups = new TreeMap<>();
        for (FormatInventory.Counts c : partitions) {
            groups.computeIfAbsent(c.topic(), k -> new ArrayList<>()).add(c);
        }
        Map<String, TopicFormats> out = new TreeMap<>();
        groups.forEach((topic, cs) -> {
            long batches = 0;
            long records = 0;
            long[] magic = new long[3];
            long other = 0;
            Map<CompressionType, Long> codecs = new TreeMap<>();
            long[] unknownCodec = {0};
            boolean deep = true;
            long idem = 0;
            long txn = 0;
            Map<String, Long> control = new TreeMap<>();
            long horizon = 0;
            long lat = 0;
            long headers = 0;
            long tags = 0;
            Map<String, long[]> versions = new java.util.LinkedHashMap<>();
            Map<String, Map<String, long[]>> tagSums = new TreeMap<>();
            Map<String, FormatInventory.RecordVersion> firstSeen = new TreeMap<>();
            Map<String, Integer> with = new TreeMap<>();
            Map<String, Short> features = new TreeMap<>();
            for (FormatInventory.Counts c : cs) {
                c.finalizedFeatures().forEach((k, v) -> features.merge(k, v, (a, b) -> (short) Math.max(a, b)));
                batches += c.batches();
                records += c.records();
                for (int m = 0; m < 3; m++) {
                    magic[m] += c.batchesByMagic()[m];
                }
                other += c.otherMagicBatches();
                c.codecs().forEach((k, v) -> {
                    String name = k.substring(k.indexOf('/') + 1);
                    if (name.equals(FormatInventory.UNKNOWN_CODEC)) {
                        unknownCodec[0] += v;
                    } else {
                        codecs.merge(CompressionType.valueOf(name.toUpperCase(Locale.ROOT)), v, Long::sum);
                    }
                });
                deep &= c.headersCounted();
                idem += c.idempotentBatches();
                txn += c.transactionalBatches();
                c.controlTypes().forEach((k, v) -> control.merge(k, v, Long::sum));
                horizon += c.deleteHorizonBatches();
                lat += c.logAppendTimeBatches();
                headers += c.recordsWithHeaders();
                tags += c.unknownTaggedFields();
                for (Map.Entry<String, FormatInventory.RecordVersion> e : c.recordVersions().entrySet()) {
                    FormatInventory.RecordVersion v = e.getValue();
                    long[] a = versions.computeIfAbsent(e.getKey(), k -> new long[] {0, Long.MAX_VALUE, -1});
                    a[0] += v.count();
                    if (v.firstTimestamp() >= 0) {
                        a[1] = Math.min(a[1], v.firstTimestamp());
                    }
                    a[2] = Math.max(a[2], v.lastTimestamp());
                    firstSeen.putIfAbsent(e.getKey(), v);
                    Map<String, long[]> ts = tagSums.computeIfAbsent(e.getKey(), k -> new java.util.LinkedHashMap<>());
                    for (FormatInventory.TaggedField f : v.taggedFields()) {
                        ts.computeIfAbsent(f.struct() + "\u0000" + f.tag() + "\u0000" + f.field(), k -> new long[1])[0] += f.count();
                    }
                    with.merge(e.getKey(), 1, Integer::sum);
                }
            }
            Map<String, FormatInventory.RecordVersion> summed = new java.util.LinkedHashMap<>();
            List<String> keys = new ArrayList<>(versions.keySet());
            keys.sort(java.util.Comparator.comparingInt((String k) -> firstSeen.get(k).type()).thenComparingInt(k -> firstSeen.get(k).version()));
            for (String k : keys) {
                long[] a = versions.get(k);
                FormatInventory.RecordVersion f = firstSeen.get(k);
                List<FormatInventory.TaggedField> fields = new ArrayList<>();
                tagSums.get(k).forEach((id, n) -> {
                    String[] parts = id.split("\u0000", -1);
                    fields.add(new FormatInventory.TaggedField(parts[0], Integer.parseInt(parts[1]), parts[2], n[0]));
                });
                fields.sort(java.util.Comparator.comparing((FormatInventory.TaggedField t) -> !t.known())
                        .thenComparing(FormatInventory.TaggedField::struct).thenComparingInt(FormatInventory.TaggedField::tag));
                summed.put(k, new FormatInventory.RecordVersion(f.type(), f.version(), f.name(), f.known(), a[0], -1, -1,
                        a[1] == Long.MAX_VALUE ? -1 : a[1], a[2], fields));
            }
            out.put(topic, new TopicFormats(topic, cs.size(), batches, records, magic, other, codecs, unknownCodec[0], idem, txn,
                    control, horizon, lat, headers, deep, summed, with, tags, java.util.Collections.unmodifiableMap(features)));
        });
        return out;
    }

    /** The verdict of every release line, oldest first. */
    public static List<Verdict> judge(Map<String, TopicFormats> topics) {
        List<Verdict> out = new ArrayList<>();
        boolean a4xLoads = false;
        for (ReleaseFormats r : KafkaReleases.all()) {
            Verdict v = judge(r, topics);
            out.add(v);
            a4xLoads |= v.loads() && r.line().startsWith("4.");
        }
        if (!a4xLoads) {
            List<Verdict> without = new ArrayList<>();
            for (Verdict v : out) {
                without.add(new Verdict(v.line(), v.release(), v.loads(), v.blockers(), v.losses(), v.notes(),
                        new Access(v.access().consumers(), "no: no Kafka 4.x broker loads these logs", v.access().tools())));
            }
            return without;
        }
        return out;
    }

    /**
     * What this line's clients get from a Kafka 4.x broker (KIP-896, docs/format.md 6.5): Kafka 4.0
     * removed the request versions older than Kafka 2.1's. A 0.10 consumer fetches with Fetch v0 to
     * v3 only, which 4.x no longer serves (its oldest Fetch is v4, checked on 4.4.0's
     * {@code ApiKeys}); 0.11 to 2.0 clients are below the baseline, and which of their requests a
     * 4.x broker still serves was not checked, so they are called unsupported rather than guessed.
     */
    static String clientsOn4x(String line) {
        if (line.startsWith("0.10")) {
            return "no: a Kafka " + line + " consumer fetches with Fetch v0 to v3, which Kafka 4.x no longer serves (KIP-896)";
        }
        if (line.startsWith("0.") || line.startsWith("1.") || line.equals("2.0")) {
            return "unsupported: below KIP-896's 2.1 baseline; Kafka's compatibility matrix lists " + line
                    + " clients as not compatible with 4.0";
        }
        return "yes: at or above KIP-896's 2.1 baseline"
                + (line.startsWith("2.") ? " (Kafka's compatibility matrix: 2.1 to 2.8 clients partially compatible)" : "");
    }

    /** One release line's verdict. */
    public static Verdict judge(ReleaseFormats r, Map<String, TopicFormats> topics) {
        List<String> blockers = new ArrayList<>();
        List<String> losses = new ArrayList<>();
        long[] magic = new long[3];
        Map<CompressionType, long[]> codecs = new TreeMap<>();
        long horizon = 0;
        int horizonTopics = 0;
        long unknownCodec = 0;
        int unknownCodecTopics = 0;
        Map<String, Long> control = new TreeMap<>();
        for (TopicFormats t : topics.values()) {
            for (int m = 0; m < 3; m++) {
                magic[m] += t.batchesByMagic()[m];
            }
            t.codecs().forEach((c, n) -> {
                long[] a = codecs.computeIfAbsent(c, k -> new long[2]);
                a[0] += n;
                a[1]++;
            });
            unknownCodec += t.unknownCodecBatches();
            unknownCodecTopics += t.unknownCodecBatches() > 0 ? 1 : 0;
            horizon += t.deleteHorizonBatches();
            horizonTopics += t.deleteHorizonBatches() > 0 ? 1 : 0;
            t.controlTypes().forEach((k, v) -> control.merge(k, v, Long::sum));
        }
        for (int m = r.maxMagic() + 1; m < 3; m++) {
            if (magic[m] > 0) {
                blockers.add(count(magic[m], "batch", "batches") + " of message format magic " + m + ": Kafka " + r.line()
                        + " reads magic 0 to " + r.maxMagic() + (m == 2 ? " (magic 2 from 0.11)" : ""));
            }
        }
        codecs.forEach((c, a) -> {
            if (!r.reads(c)) {
                blockers.add(count(a[0], "batch", "batches") + " compressed with " + c.toString().toLowerCase(Locale.ROOT) + " in "
                        + count(a[1], "topic") + ": Kafka " + r.line() + " does not read " + c.toString().toLowerCase(Locale.ROOT)
                        + (c == CompressionType.ZSTD ? " (from 2.1)" : ""));
            }
        });
        if (unknownCodec > 0) {
            blockers.add(count(unknownCodec, "batch", "batches") + " with a codec id of 5 to 7 in " + count(unknownCodecTopics, "topic")
                    + ": no Kafka release defines it (Kafka " + r.line() + " fails to read them)");
        }
        if (horizon > 0 && !r.deleteHorizon()) {
            blockers.add(count(horizon, "batch", "batches") + " with a delete horizon in " + count(horizonTopics, "topic") + ": Kafka " + r.line()
                    + " reads the horizon as the batch's base timestamp (delete horizons from 3.1, KIP-534)");
        }
        java.util.Set<String> knownControl = new java.util.HashSet<>(r.controlTypes().values());
        control.forEach((name, n) -> {
            if (!name.equals("UNKNOWN") && !knownControl.contains(name)) {
                blockers.add(count(n, "control batch", "control batches") + " of type " + name + ": unknown to Kafka " + r.line());
            }
        });
        for (TopicFormats t : topics.values()) {
            StateLog log = StateLog.forTopic(t.topic());
            if (log == null || t.recordVersions().isEmpty()) {
                continue;
            }
            LogKnowledge k = r.log(log);
            if (k == null) {
                if (log == StateLog.CLUSTER_METADATA) {
                    blockers.add("a KRaft metadata log (" + count(t.records(), "record") + "): Kafka " + r.line()
                            + " has no KRaft mode (early access from 2.8, production from 3.3)");
                } else {
                    losses.add(t.topic() + " (" + count(t.records(), "record") + "): Kafka " + r.line()
                            + " has no such coordinator and would keep it as an ordinary topic; its state is not read");
                }
                continue;
            }
            for (FormatInventory.RecordVersion v : t.recordVersions().values()) {
                int version = v.version();
                LoadOutcome outcome = version < 0 ? (k.record(v.type()) == null ? k.unknownType() : null) : k.outcome(v.type(), version);
                if (outcome == null) {
                    continue;
                }
                KnownRecord known = k.record(v.type());
                String what = count(v.count(), "record") + " of " + recordName(v) + (version >= 0 ? " v" + version : " (tombstones)")
                        + " in " + t.topic() + " (" + count(t.partitionsWith().get(v.type() + "/" + v.version()), "partition")
                        + (v.firstTimestamp() >= 0 ? ", first at " + java.time.Instant.ofEpochMilli(v.firstTimestamp()) : "") + ")";
                String why = known == null ? "type " + v.type() + " is unknown to Kafka " + r.line()
                        : "Kafka " + r.line() + " reads " + known.name() + " v" + known.valueVersions().lowest() + " to v"
                        + known.highestValueVersion();
                if (outcome == LoadOutcome.FAILS) {
                    blockers.add(what + ": " + why + ", and its loader (" + k.loader() + ") fails on them");
                } else {
                    losses.add(what + ": " + why + "; its loader skips them (their state is lost)");
                }
            }
        }
        TopicFormats metadata = topics.get(StateLog.CLUSTER_METADATA.topic);
        if (metadata != null && r.log(StateLog.CLUSTER_METADATA) != null) {
            metadata.finalizedFeatures().forEach((name, level) -> {
                String why = featureBlocker(r, name, level);
                if (why != null) {
                    blockers.add(why);
                }
            });
        }
        List<String> notes = new ArrayList<>();
        long legacy = magic[0] + magic[1];
        if (legacy > 0 && r.line().startsWith("4.")) {
            notes.add(count(legacy, "batch", "batches") + " of magic 0 and 1: Kafka " + r.line() + " reads them, and its cleaner"
                    + " rewrites those of compacted topics as magic 2 (4.0 writes no older format: KIP-724)");
        }
        return new Verdict(r.line(), r.release(), blockers.isEmpty(), List.copyOf(blockers), List.copyOf(losses), List.copyOf(notes),
                new Access(consumers(r, topics, blockers.isEmpty()), clientsOn4x(r.line()), tools(r, topics)));
    }

    /**
     * Why a line's nodes refuse a finalized feature level of the metadata log, or null when they
     * support it. Checked on 4.3.0 (docs/format.md 1.12): a controller replaying a FeatureLevelRecord
     * outside its supported range ({@code QuorumFeatures.defaultSupportedFeatureMap}: up to the
     * feature's latest production level, its latest testing level with unstable feature versions
     * enabled; an unknown feature only at level 0) throws in {@code FeatureControlManager.replay},
     * a fatal fault; a broker's {@code FeaturesDelta.replay} throws on a metadata.version its
     * {@code MetadataVersion} does not know, and the controller refuses its registration
     * ({@code ClusterControlManager}: "Unable to register because the broker does not support
     * finalized version").
     */
    static String featureBlocker(ReleaseFormats r, String name, short level) {
        FeatureSupport f = r.feature(name);
        boolean mv = name.equals("metadata.version");
        String what = mv ? "metadata.version " + KafkaReleases.metadataVersionLabel(level) : name + " " + level;
        if (f == null) {
            if (level == 0) {
                return null;
            }
            return what + " is unknown to " + r.line() + ": " + (mv ? "Kafka " + r.line() + " has no metadata.version (from 3.3, KIP-778)"
                    : "Kafka " + r.line() + " does not have the feature, and its nodes support it only at level 0");
        }
        if (f.supports(level)) {
            return null;
        }
        String range = mv ? KafkaReleases.metadataVersionLabel(f.production()) : "level " + f.production();
        if (level > f.known()) {
            return what + " is unknown to " + r.line() + ": Kafka " + r.line() + " knows " + name + " up to "
                    + (mv ? KafkaReleases.metadataVersionLabel(f.known()) : "level " + f.known())
                    + (f.known() > f.production() ? " and supports up to " + range : "")
                    + ", and its controllers and brokers refuse a finalized level above it";
        }
        return what + " is above " + r.line() + "'s latest production level: Kafka " + r.line() + " supports " + name + " up to "
                + range + ", and up to level " + f.known() + " only with unstable feature versions enabled";
    }

    /** Consumers through this line's brokers: its group coordinator serves what it loaded. */
    private static String consumers(ReleaseFormats r, Map<String, TopicFormats> topics, boolean loads) {
        if (!loads) {
            return "no: Kafka " + r.line() + " brokers do not load these logs";
        }
        TopicFormats offsets = topics.get(StateLog.CONSUMER_OFFSETS.topic);
        LogKnowledge k = r.log(StateLog.CONSUMER_OFFSETS);
        if (offsets == null || k == null) {
            return "yes";
        }
        long skipped = 0;
        String what = null;
        for (FormatInventory.RecordVersion v : offsets.recordVersions().values()) {
            if ((v.type() == 0 || v.type() == 1) && v.version() >= 0 && !k.reads(v.type(), v.version())) {
                skipped += v.count();
                what = recordName(v) + " v" + v.version();
            }
        }
        return skipped == 0 ? "yes" : "partly: its group coordinator skips " + count(skipped, "offset commit") + " (" + what + ")";
    }

    /** This line's formatters and dump decoders on the coordinator logs' record versions. */
    private static String tools(ReleaseFormats r, Map<String, TopicFormats> topics) {
        List<String> unknown = new ArrayList<>();
        for (StateLog log : new StateLog[] {StateLog.CONSUMER_OFFSETS, StateLog.TRANSACTION_STATE}) {
            TopicFormats t = topics.get(log.topic);
            LogKnowledge k = r.log(log);
            if (t == null || k == null) {
                continue;
            }
            for (FormatInventory.RecordVersion v : t.recordVersions().values()) {
                if (v.version() >= 0 && !k.reads(v.type(), v.version())) {
                    unknown.add(recordName(v) + " v" + v.version());
                }
            }
        }
        if (unknown.isEmpty()) {
            return "yes";
        }
        return "no: Kafka " + r.line() + "'s offsets and transaction log formatters do not know "
                + String.join(", ", unknown.subList(0, Math.min(3, unknown.size())))
                + (unknown.size() > 3 ? " (and " + (unknown.size() - 3) + " more)" : "");
    }

    /**
     * The oldest line from which every later line loads the logs too (the logs' minimum release),
     * or null when even the newest does not.
     */
    public static String oldestLoading(List<Verdict> verdicts) {
        String oldest = null;
        for (int i = verdicts.size() - 1; i >= 0; i--) {
            if (!verdicts.get(i).loads()) {
                break;
            }
            oldest = verdicts.get(i).line();
        }
        return oldest;
    }

    private static String recordName(FormatInventory.RecordVersion v) {
        return v.name().isEmpty() ? "record type " + v.type() : v.name();
    }

    private static String count(long n, String one) {
        return count(n, one, one + "s");
    }

    private static String count(long n, String one, String many) {
        return String.format(Locale.ROOT, "%,d %s", n, n == 1 ? one : many);
    }
}
