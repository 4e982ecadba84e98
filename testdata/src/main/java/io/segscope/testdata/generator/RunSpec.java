package io.segscope.testdata.generator;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One broker lifetime of the corpus: its directory name, workload seed, broker settings on top of
 * the single-node defaults, and how it ends.
 *
 * @param name           directory below {@code testdata/corpus/}
 * @param seed           seeds every random choice of the workload (group ids stay fixed)
 * @param kind           which extra phases run and how the broker stops
 * @param offsetsPartitions {@code offsets.topic.num.partitions} (the group-to-partition rule needs it)
 * @param busyRounds     commit rounds per busy group (2 KB metadata, 4 partitions a round)
 * @param brokerOverrides settings on top of {@link Broker}'s single-node defaults
 * @param features       {@code --feature} arguments for StorageTool format
 * @param kafkaVersion   the broker's release: {@link #PINNED} runs on this JVM's class path,
 *                       {@code 3.9.1} on the jars of {@code testdata/generator-3.9.1/pom.xml}, any
 *                       other on those of {@code testdata/generator-kafka/pom.xml} ({@link #versioned})
 */
record RunSpec(String name, long seed, Kind kind, int offsetsPartitions, int busyRounds,
               Map<String, String> brokerOverrides, List<String> features, String kafkaVersion) {

    /** The release everything else (clients, Admin, DumpLogSegments) is pinned to. */
    static final String PINNED = "4.4.0";
    /** The older KRaft release a run can be written by (no share groups; KIP-848 by config). */
    static final String KAFKA_391 = "3.9.1";

    /**
     * Whether the workload runs a share group (and StorageTool gets {@code share.version=1}): the
     * pinned release and 4.2 on. KIP-932 arrived in 4.0 as early access and 4.1 as a preview,
     * whose wire versions a 4.4.0 share consumer is not meant to speak; 3.x has none.
     */
    boolean shareGroups() {
        return atLeast(kafkaVersion, 4, 2);
    }

    /**
     * Whether the workload runs consumer-protocol (KIP-848) groups: from 3.9 on (3.9 only with
     * {@code group.coordinator.rebalance.protocols=classic,consumer}, which turns the new group
     * coordinator on; 4.0 on by default). Before 3.9 every group is classic and the old group
     * coordinator writes {@code __consumer_offsets}.
     */
    boolean consumerProtocolGroups() {
        return atLeast(kafkaVersion, 3, 9);
    }

    /** Whether release {@code version} (major.minor.patch) is {@code major.minor} or later. */
    static boolean atLeast(String version, int major, int minor) {
        String[] v = version.split("\\.");
        int ma = Integer.parseInt(v[0]);
        int mi = Integer.parseInt(v[1]);
        return ma > major || (ma == major && mi >= minor);
    }

    /**
     * Whether the workload adds a regex-subscribed consumer-protocol group and a Kafka Streams
     * application on the streams rebalance protocol (KIP-1071): the 4.4.0 plain run only.
     */
    boolean regexAndStreamsGroups() {
        return kind == Kind.PLAIN && PINNED.equals(kafkaVersion);
    }

    enum Kind {
        /** Default offsets topic settings except small segments; SIGTERM. */
        PLAIN,
        /** zstd offsets topic, an eager log cleaner that is waited for; SIGTERM. */
        COMPRESSED,
        /** SIGKILL after the Admin snapshot, with a transaction left open. */
        CRASHED,
        /**
         * Only a burst of large batches and offset commits ({@link MidWriteBurst}); partition dirs
         * copied file by file while the broker writes; SIGKILL in the middle of the burst.
         */
        KILLED,
        /**
         * Three brokers and a controller ({@link ReplicaCluster}, {@link ReplicaRun}): replicas that
         * lag and diverge, open and hanging transactions; brokers SIGTERMed at the end but one
         * SIGKILLed part way.
         */
        REPLICAS
    }

    /** Settings every run shares. */
    private static Map<String, String> common() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("offsets.topic.segment.bytes", "1048576");
        m.put("transaction.state.log.num.partitions", "5");
        m.put("share.coordinator.state.topic.num.partitions", "3");
        m.put("log.cleaner.dedupe.buffer.size", "8388608");
        m.put("metadata.log.max.snapshot.interval.ms", "15000");
        return m;
    }

    static RunSpec plain() {
        Map<String, String> m = common();
        m.put("log.cleaner.enable", "false");
        return new RunSpec("kraft-4.4.0-plain", 0x5E65C09E0001L, Kind.PLAIN, 50, 160, m,
                List.of("share.version=1"), PINNED);
    }

    static RunSpec compressed() {
        Map<String, String> m = common();
        m.put("offsets.topic.compression.codec", "4");
        m.put("log.cleaner.enable", "true");
        m.put("log.cleaner.min.cleanable.ratio", "0.01");
        m.put("log.cleaner.backoff.ms", "1000");
        m.put("log.cleaner.delete.retention.ms", "30000");
        m.put("log.roll.ms", "8000");
        return new RunSpec("kraft-4.4.0-compressed", 0x5E65C09E0002L, Kind.COMPRESSED, 50, 120, m,
                List.of("share.version=1"), PINNED);
    }

    static RunSpec crashed() {
        Map<String, String> m = common();
        m.put("log.cleaner.enable", "false");
        m.put("offsets.topic.num.partitions", "10");
        m.put("log.index.size.max.bytes", "8192");
        return new RunSpec("kraft-4.4.0-crashed", 0x5E65C09E0003L, Kind.CRASHED, 10, 70, m,
                List.of("share.version=1"), PINNED);
    }

    /**
     * A broker killed in the middle of writing: large batches (200-900 KiB) from several producers
     * into 1 MiB segments, offset commits during the burst, a copy of live partition dirs taken
     * while the broker appends, then SIGKILL during the burst. {@code log.flush.*} stay at their
     * defaults (nothing is fsynced before the kill); small preallocated indexes as in the crashed
     * run; retention on the burst topic keeps the committed tree small (old segments deleted a
     * second after they fall out of 2 MiB).
     */
    static RunSpec killed() {
        Map<String, String> m = common();
        m.put("log.cleaner.enable", "false");
        m.put("offsets.topic.num.partitions", "3");
        m.put("log.index.size.max.bytes", "8192");
        m.put("log.retention.check.interval.ms", "1000");
        return new RunSpec("kraft-4.4.0-killed-mid-write", 0x5E65C09E0004L, Kind.KILLED, 3, 0, m,
                List.of("share.version=1"), PINNED);
    }

    /**
     * A Kafka 3.9.1 broker in KRaft mode (magic 2, the 3.9 coordinator's record versions), stopped
     * with SIGTERM. 3.x accepts offsets segments below 1 MiB, so a quarter of the 4.4.0 plain
     * run's commits still span several segments. The consumer rebalance protocol (KIP-848) is
     * enabled with {@code group.coordinator.rebalance.protocols}; 3.9 has no share groups.
     */
    static RunSpec plain391() {
        Map<String, String> m = common();
        m.remove("share.coordinator.state.topic.num.partitions");
        m.put("offsets.topic.segment.bytes", "262144");
        m.put("log.cleaner.enable", "false");
        m.put("group.coordinator.rebalance.protocols", "classic,consumer");
        return new RunSpec("kraft-3.9.1-plain", 0x5E65C09E0391L, Kind.PLAIN, 50, 40, m, List.of(), KAFKA_391);
    }

    /**
     * Three brokers with real replicas ({@link ReplicaRun}); {@code transaction.partition.verification.enable=false}
     * lets a transactional batch in without its coordinator (the hanging transaction); the log
     * cleaner is off so that replicas differ only by what the workload did to them; small
     * preallocated indexes as in the crashed run (the SIGKILLed broker's active segments keep them).
     */
    static RunSpec replicas() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("num.partitions", "1");
        m.put("offsets.topic.replication.factor", "3");
        m.put("offsets.topic.num.partitions", "5");
        m.put("offsets.topic.segment.bytes", "1048576");
        m.put("transaction.state.log.replication.factor", "3");
        m.put("transaction.state.log.min.isr", "1");
        m.put("transaction.state.log.num.partitions", "3");
        m.put("share.coordinator.state.topic.replication.factor", "3");
        m.put("share.coordinator.state.topic.min.isr", "1");
        m.put("share.coordinator.state.topic.num.partitions", "3");
        m.put("min.insync.replicas", "1");
        m.put("transaction.partition.verification.enable", "false");
        m.put("log.cleaner.enable", "false");
        m.put("log.index.size.max.bytes", "8192");
        m.put("metadata.log.max.snapshot.interval.ms", "15000");
        return new RunSpec("kraft-4.4.0-replicas", 0x5E65C09E0005L, Kind.REPLICAS, 5, 0, m, List.of(), PINNED);
    }

    private static final java.util.regex.Pattern VERSIONED =
            java.util.regex.Pattern.compile("(\\d+\\.\\d+\\.\\d+)-(plain|compressed|crashed)");

    /**
     * A plain, compressed (eager cleaner, zstd offsets topic) or crashed (SIGKILL, open
     * transaction) run of any KRaft release from 3.3 on, named {@code kraft-<version>-<kind>}, its
     * broker and StorageTool on the jars of {@code testdata/generator-kafka/pom.xml}
     * ({@code -Dkafka.version=<version>}). What the release lacks is left out: share groups before
     * 4.2, consumer-protocol groups before 3.9 ({@link #shareGroups()},
     * {@link #consumerProtocolGroups()}); 3.x accepts offsets segments below 1 MiB (as in
     * {@link #plain391()}). Short name {@code <version>-<kind>}, e.g. {@code 3.6.2-crashed}.
     */
    static RunSpec versioned(String version, Kind kind) {
        RunSpec base = kind == Kind.COMPRESSED ? compressed() : kind == Kind.CRASHED ? crashed() : plain();
        Map<String, String> m = new LinkedHashMap<>(base.brokerOverrides());
        boolean v4 = atLeast(version, 4, 0);
        if (!v4) {
            m.remove("share.coordinator.state.topic.num.partitions");
            m.put("offsets.topic.segment.bytes", "262144");
        }
        if (atLeast(version, 3, 9) && !v4) {
            m.put("group.coordinator.rebalance.protocols", "classic,consumer");
        }
        int busyRounds = base.busyRounds() / (v4 ? 2 : 4);
        long seed = 0x5E65C09E0000L ^ ((long) version.hashCode() << 8) ^ kind.ordinal();
        RunSpec spec = new RunSpec("kraft-" + version + "-" + kind.name().toLowerCase(java.util.Locale.ROOT), seed, kind,
                base.offsetsPartitions(), busyRounds, m, List.of(), version);
        return spec.shareGroups() ? new RunSpec(spec.name(), seed, kind, spec.offsetsPartitions(), busyRounds, m,
                List.of("share.version=1"), version) : spec;
    }

    static RunSpec byShortName(String shortName) {
        java.util.regex.Matcher v = VERSIONED.matcher(shortName.trim());
        if (v.matches()) {
            return versioned(v.group(1), Kind.valueOf(v.group(2).toUpperCase(java.util.Locale.ROOT)));
        }
        switch (shortName.trim()) {
            case "plain":
                return plain();
            case "compressed":
                return compressed();
            case "crashed":
                return crashed();
            case "3.9.1-plain":
                return plain391();
            case "killed-mid-write":
                return killed();
            case "replicas":
                return replicas();
            default:
                throw new IllegalArgumentException("unknown run '" + shortName
                        + "' (plain, compressed, crashed, killed-mid-write, 3.9.1-plain, replicas, <version>-plain|compressed|crashed)");
        }
    }
}
