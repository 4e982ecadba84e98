package io.segscope.testdata;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Checks that the committed real-broker corpus ({@code testdata/corpus/kraft-*}) is
 * complete and holds what testdata/corpus/README.md promises. Reads files only; no broker.
 */
class KraftCorpusTest {
    private static final String PLAIN = "kraft-4.4.0-plain";
    private static final String COMPRESSED = "kraft-4.4.0-compressed";
    private static final String CRASHED = "kraft-4.4.0-crashed";
    /** SIGKILLed during a burst of large batches, with partition dirs copied while the broker wrote. */
    private static final String KILLED = "kraft-4.4.0-killed-mid-write";
    /** Written by a Kafka 3.9.1 broker in KRaft mode (no share groups). */
    private static final String PLAIN_391 = "kraft-3.9.1-plain";
    private static final List<String> DUMPED = List.of(".log", ".index", ".timeindex", ".txnindex", ".snapshot", ".checkpoint");

    private static Path run(String name) {
        return Corpus.corpus().resolve(name);
    }

    /** The broker release in the run's name: {@code kraft-<version>-<kind>}. */
    private static String brokerVersion(String name) {
        return name.split("-")[1];
    }

    private static boolean hasShareGroups(String name) {
        return !brokerVersion(name).startsWith("3.");
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAIN, COMPRESSED, CRASHED, KILLED, PLAIN_391})
    void everyDumpableFileHasKafkasDump(String name) throws IOException {
        assertThat(dumpedFiles(name, "logdir", "dump")).isGreaterThan(name.equals(KILLED) ? 50 : 100);
    }

    /** Checks the dump of every dumpable file below {@code <run>/<dir>} (in {@code <run>/<dumpDir>}); returns how many. */
    private static int dumpedFiles(String name, String dir, String dumpDir) throws IOException {
        Path logDir = run(name).resolve(dir);
        List<Path> files = files(logDir);
        assertThat(files).isNotEmpty();
        int dumped = 0;
        for (Path f : files) {
            String n = f.getFileName().toString();
            if (DUMPED.stream().noneMatch(n::endsWith)) {
                continue;
            }
            String rel = logDir.relativize(f).toString();
            Path dump = run(name).resolve(dumpDir).resolve(rel + ".txt");
            assertThat(dump).as("dump of %s", rel).exists();
            String first = firstLine(dump);
            assertThat(first).isEqualTo("Dumping " + dir + "/" + rel);
            if (n.endsWith(".index") || n.endsWith(".timeindex")) {
                assertThat(run(name).resolve(dumpDir).resolve(rel + ".verify.txt")).exists();
            }
            dumped++;
        }
        return dumped;
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAIN, COMPRESSED, CRASHED, KILLED, PLAIN_391})
    void logDirMatchesTheManifestInRunJson(String name) throws Exception {
        Map<String, Object> runJson = parse(run(name).resolve("run.json"));
        assertThat(runJson.get("kafkaVersion")).isEqualTo(brokerVersion(name));
        matchesManifest(runJson, "logdirManifest", run(name).resolve("logdir"));
    }

    static void matchesManifest(Map<String, Object> runJson, String key, Path logDir) throws Exception {
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> manifest = (List<Map<String, Object>>) runJson.get(key);
        Set<String> onDisk = new TreeSet<>();
        for (Path f : files(logDir)) {
            onDisk.add(logDir.relativize(f).toString());
        }
        Set<String> listed = new TreeSet<>();
        for (Map<String, Object> m : manifest) {
            String path = (String) m.get("path");
            listed.add(path);
            Path f = logDir.resolve(path);
            assertThat(Files.size(f)).as(path).isEqualTo(((Number) m.get("size")).longValue());
            assertThat(sha256(f)).as(path).isEqualTo(m.get("sha256"));
        }
        assertThat(onDisk).isEqualTo(listed);
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAIN, COMPRESSED, CRASHED, PLAIN_391})
    void adminJsonListsEveryKindOfGroupWithHostileText(String name) throws Exception {
        Map<String, Object> admin = parse(run(name).resolve("admin.json"));
        String raw = Files.readString(run(name).resolve("admin.json"), StandardCharsets.UTF_8);
        assertThat(raw).as("non-ASCII written as UTF-8, not escaped").contains("🚀", "日本語").doesNotContain("\\uD83D");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> groups = (List<Map<String, Object>>) admin.get("groups");
        assertThat(groups.size()).isGreaterThanOrEqualTo(20);
        Set<Object> types = groups.stream().map(g -> g.get("type")).collect(Collectors.toSet());
        assertThat(types).contains("Classic", "Consumer");
        if (hasShareGroups(name)) {
            assertThat(types).contains("Share");
        } else {
            assertThat(types).doesNotContain("Share");
        }
        List<String> ids = groups.stream().map(g -> (String) g.get("groupId")).collect(Collectors.toList());
        assertThat(ids).isSorted().contains("simple\nnewline", "simple \"quoted\" group", "シンプル.日本語.グループ");
        StringBuilder metadata = new StringBuilder();
        int withEpoch = 0;
        int withoutEpoch = 0;
        for (Map<String, Object> g : groups) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> offsets = (List<Map<String, Object>>) g.getOrDefault("offsets", List.of());
            for (Map<String, Object> o : offsets) {
                metadata.append(o.get("metadata"));
                if (o.get("leaderEpoch") == null) {
                    withoutEpoch++;
                } else {
                    withEpoch++;
                }
            }
        }
        assertThat(metadata.toString()).contains("\n", "\t", "\"", "\\", ",", "日本語", "🚀");
        assertThat(withEpoch).isPositive();
        assertThat(withoutEpoch).isPositive();
        long liveStable = groups.stream().filter(g -> "Stable".equals(g.get("state"))).count();
        // 3 classic and 3 consumer-protocol groups with two live members each, and the share group.
        assertThat(liveStable).isGreaterThanOrEqualTo(hasShareGroups(name) ? 7 : 6);
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAIN, COMPRESSED, CRASHED, PLAIN_391})
    void userTopicsHoldEveryCodecTransactionsAndHeaders(String name) throws IOException {
        Path dump = run(name).resolve("dump");
        for (String codec : List.of("none", "gzip", "snappy", "lz4", "zstd")) {
            String kafkaName = codec.equals("lz4") ? "lz4" : codec;
            assertThat(grep(dump, "codec-" + codec + "-", "compresscodec: " + kafkaName)).as(codec).isPositive();
        }
        assertThat(grep(dump, "txn-orders-", "endTxnMarker: ABORT")).isPositive();
        assertThat(grep(dump, "events-log-append-time-", "LogAppendTime: ")).isPositive();
        assertThat(grep(dump, "codec-", "headerKeys: [trace-id,null-value-header]")).isPositive();
        assertThat(grep(dump, "codec-", "headerKeys: [ключ-日本語-🚀,]")).isPositive();
        assertThat(matches(dump, "codec-", Pattern.compile("keySize: -1 valueSize: (\\d+)"))).as("null key").isNotEmpty();
        assertThat(grep(dump, "compacted-state-", "valueSize: -1")).as("tombstone").isPositive();
        assertThat(grep(dump, "txn-orders-", "version: 0 producerId: ")).as(".txnindex entries").isPositive();
        if (!name.equals(CRASHED)) {
            assertThat(files(run(name).resolve("logdir")).stream()
                    .filter(f -> f.getParent().getFileName().toString().startsWith("codec-"))
                    .anyMatch(f -> f.getFileName().toString().endsWith(".snapshot")))
                    .as("producer snapshot written at clean shutdown").isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAIN, COMPRESSED, CRASHED})
    void coordinatorTopicsHoldEveryRecordType(String name) throws IOException {
        Path dump = run(name).resolve("dump");
        Set<String> keyTypes = matches(dump, "__consumer_offsets-", Pattern.compile("key: \\{\"type\":\"(\\d+)\""));
        assertThat(keyTypes).contains("1", "2", "3", "5", "6", "7", "8", "10", "11", "12", "13", "14", "15");
        Set<String> versions = matches(dump, "__consumer_offsets-", Pattern.compile("payload: \\{\"version\":\"(\\d+)\""));
        assertThat(versions).contains("0", "3", "4");
        assertThat(grep(dump, "__consumer_offsets-", "payload: <DELETE>")).isPositive();
        assertThat(grep(dump, "__consumer_offsets-", "isTransactional: true")).isPositive();
        assertThat(grep(dump, "__consumer_offsets-", "endTxnMarker: COMMIT")).isPositive();
        assertThat(grep(dump, "__consumer_offsets-", "endTxnMarker: ABORT")).isPositive();
        assertThat(grep(dump, "__transaction_state-", "\"transactionalId\":\"txn-producer-ü-1\"")).isPositive();
        assertThat(matches(dump, "__share_group_state-", Pattern.compile("key: \\{\"type\":\"(\\d+)\"")))
                .contains("0", "1");
        assertThat(grep(dump, "__cluster_metadata-", "\"type\":\"TOPIC_RECORD\"")).isPositive();
    }

    /**
     * Only the 4.4.0 plain run has a regex-subscribed consumer-protocol group (key type 16) and a
     * Kafka Streams application on the streams rebalance protocol (types 17 and 19 to 23; 18 is
     * unused in 4.4.0), all value version 0, with both groups live at snapshot time.
     */
    @Test
    @SuppressWarnings("unchecked")
    void plainRunHoldsRegexAndStreamsGroupRecords() throws Exception {
        Path dump = run(PLAIN).resolve("dump");
        Set<String> keyTypes = matches(dump, "__consumer_offsets-", Pattern.compile("key: \\{\"type\":\"(\\d+)\""));
        assertThat(keyTypes).contains("16", "17", "19", "20", "21", "22", "23").doesNotContain("18");
        assertThat(matches(dump, "__consumer_offsets-", Pattern.compile(
                "key: \\{\"type\":\"(?:16|17|19|2[0-3])\".*? payload: \\{\"version\":\"(\\d+)\"")))
                .containsExactly("0");
        assertThat(grep(dump, "__consumer_offsets-",
                "key: {\"type\":\"16\",\"data\":{\"groupId\":\"regex-group,ü\",\"regularExpression\":\"codec-.*\"}}"))
                .isPositive();
        for (String type : List.of("17", "19", "20", "21", "22", "23")) {
            assertThat(grep(dump, "__consumer_offsets-",
                    "key: {\"type\":\"" + type + "\",\"data\":{\"groupId\":\"streams app é\"")).as(type).isPositive();
        }
        assertThat(grep(dump, "__consumer_offsets-",
                "key: {\"type\":\"1\",\"data\":{\"group\":\"streams app é\",\"topic\":\"codec-none\""))
                .as("offset commits of the streams application").isPositive();
        assertThat(grep(dump, "streams-out-", "valueSize: ")).as("records the application wrote").isPositive();

        Map<String, Object> admin = parse(run(PLAIN).resolve("admin.json"));
        Map<String, Map<String, Object>> byId = new LinkedHashMap<>();
        for (Map<String, Object> g : (List<Map<String, Object>>) admin.get("groups")) {
            byId.put((String) g.get("groupId"), g);
        }
        assertThat(byId.get("regex-group,ü")).containsEntry("type", "Consumer").containsEntry("state", "Stable");
        assertThat(byId.get("streams app é")).containsEntry("type", "Streams").containsEntry("state", "Stable");
        for (String other : List.of(COMPRESSED, CRASHED, PLAIN_391)) {
            assertThat(matches(run(other).resolve("dump"), "__consumer_offsets-",
                    Pattern.compile("key: \\{\"type\":\"(1[6-9]|2[0-3])\""))).as(other).isEmpty();
        }
    }

    @Test
    void plainRunHasSeveralOffsetsSegmentsAndACleanShutdown() throws IOException {
        Path logDir = run(PLAIN).resolve("logdir");
        assertThat(logDir.resolve(".kafka_cleanshutdown")).exists();
        assertThat(maxSegments(logDir, "__consumer_offsets-")).isGreaterThanOrEqualTo(3);
        assertThat(grep(run(PLAIN).resolve("dump"), "__consumer_offsets-", "deleteHorizonMs: OptionalLong[")).isZero();
    }

    @Test
    @SuppressWarnings("unchecked")
    void kafka391RunHoldsWhatThe39CoordinatorsWrite() throws Exception {
        Path logDir = run(PLAIN_391).resolve("logdir");
        Path dump = run(PLAIN_391).resolve("dump");
        assertThat(logDir.resolve(".kafka_cleanshutdown")).exists();
        assertThat(maxSegments(logDir, "__consumer_offsets-")).isGreaterThanOrEqualTo(3);
        assertThat(matches(dump, "", Pattern.compile(" magic: (\\d+) "))).containsExactly("2");
        for (String codec : List.of("none", "gzip", "snappy", "lz4", "zstd")) {
            assertThat(grep(dump, "", "compresscodec: " + codec)).as(codec).isPositive();
        }

        // Group coordinator of 3.9: OffsetCommitValue v3 (never v4), GroupMetadataValue v3, and
        // the KIP-848 records including type 4 (ConsumerGroupPartitionMetadata), all v0.
        assertThat(matches(dump, "__consumer_offsets-", Pattern.compile("key: \\{\"type\":\"(\\d+)\"")))
                .containsExactly("1", "2", "3", "4", "5", "6", "7", "8");
        assertThat(matches(dump, "__consumer_offsets-", Pattern.compile(
                "key: \\{\"type\":\"1\".*? payload: \\{\"version\":\"(\\d+)\""))).containsExactly("3");
        assertThat(matches(dump, "__consumer_offsets-", Pattern.compile(
                "key: \\{\"type\":\"2\".*? payload: \\{\"version\":\"(\\d+)\""))).containsExactly("3");
        assertThat(matches(dump, "__consumer_offsets-", Pattern.compile(
                "key: \\{\"type\":\"[3-8]\".*? payload: \\{\"version\":\"(\\d+)\""))).containsExactly("0");
        assertThat(grep(dump, "__consumer_offsets-", "payload: <DELETE>")).isPositive();
        assertThat(grep(dump, "__consumer_offsets-", "isTransactional: true")).isPositive();
        assertThat(grep(dump, "__consumer_offsets-", "endTxnMarker: COMMIT")).isPositive();
        assertThat(grep(dump, "__consumer_offsets-", "endTxnMarker: ABORT")).isPositive();

        // Transaction coordinator of 3.9: TransactionLogValue v0 (4.4 writes v1).
        assertThat(grep(dump, "__transaction_state-", "\"transactionalId\":\"txn-producer-ü-1\"")).isPositive();
        assertThat(matches(dump, "__transaction_state-", Pattern.compile(" payload: \\{\"version\":\"(\\d+)\"")))
                .containsExactly("0");
        assertThat(grep(dump, "__cluster_metadata-", "\"type\":\"TOPIC_RECORD\"")).isPositive();

        // No share groups in 3.9, and run.json says the workload skipped them.
        try (Stream<Path> dirs = Files.list(logDir)) {
            assertThat(dirs.map(d -> d.getFileName().toString())).noneMatch(d -> d.startsWith("__share_group_state-"));
        }
        Map<String, Object> runJson = parse(run(PLAIN_391).resolve("run.json"));
        assertThat(runJson.get("clientsAndDumpVersion")).isEqualTo("4.4.0");
        assertThat(((Map<String, Object>) ((Map<String, Object>) runJson.get("workload")).get("skipped")))
                .containsOnlyKeys("shareGroup");
    }

    @Test
    @SuppressWarnings("unchecked")
    void compressedRunWasCompactedByKafkasCleaner() throws Exception {
        Path logDir = run(COMPRESSED).resolve("logdir");
        Path dump = run(COMPRESSED).resolve("dump");
        assertThat(logDir.resolve(".kafka_cleanshutdown")).exists();
        String checkpoint = Files.readString(logDir.resolve("cleaner-offset-checkpoint"));
        assertThat(checkpoint).containsPattern("__consumer_offsets \\d+ [1-9]\\d*");
        assertThat(checkpoint).containsPattern("compacted-state 0 [1-9]\\d*");
        assertThat(grep(dump, "__consumer_offsets-", "compresscodec: zstd")).isPositive();
        assertThat(grep(dump, "__consumer_offsets-", "deleteHorizonMs: OptionalLong[")).isPositive();
        assertThat(offsetGaps(dump, "__consumer_offsets-")).isPositive();

        // Phase A tombstones outlived their delete horizon and were removed with the group's
        // offsets; phase B tombstones were cleaned once and still carry the horizon.
        Map<String, Object> cleaner = (Map<String, Object>) ((Map<String, Object>) parse(
                run(COMPRESSED).resolve("run.json")).get("workload")).get("cleaner");
        String groupA = (String) ((Map<String, Object>) cleaner.get("phaseA")).get("deletedGroup");
        String groupB = (String) ((Map<String, Object>) cleaner.get("phaseB")).get("deletedGroup");
        assertThat(grep(dump, "__consumer_offsets-", "\"group\":\"" + groupA + "\"")).isZero();
        assertThat(grep(dump, "__consumer_offsets-", "{\"group\":\"" + groupB + "\"}} payload: <DELETE>")).isPositive();
    }

    @Test
    void crashedRunKeepsPreallocatedIndexes() throws IOException {
        Path logDir = run(CRASHED).resolve("logdir");
        assertThat(logDir.resolve(".kafka_cleanshutdown")).doesNotExist();
        int zeroTailed = 0;
        for (Path f : files(logDir)) {
            String n = f.getFileName().toString();
            if ((n.endsWith(".index") || n.endsWith(".timeindex")) && Files.size(f) >= 8184) {
                byte[] b = Files.readAllBytes(f);
                boolean tailZero = true;
                for (int i = b.length - 12; i < b.length; i++) {
                    tailZero &= b[i] == 0;
                }
                if (tailZero) {
                    zeroTailed++;
                }
            }
        }
        assertThat(zeroTailed).isGreaterThan(10);
        assertThat(grep(run(CRASHED).resolve("dump"), "txn-orders-", "isTransactional: true")).isPositive();
    }

    /**
     * The killed run: the copy of burst-0 taken while the broker wrote ends inside a batch (as
     * run.json says, and as the committed bytes show), the killed log dir itself ends on batch
     * boundaries (SIGKILL leaves the page cache to the kernel), the burst holds 200-900 KiB batches
     * of four codecs with transactions, and the groups' commits are in __consumer_offsets.
     */
    @Test
    @SuppressWarnings("unchecked")
    void killedRunHoldsATornCopyAndAKilledLogDir() throws Exception {
        Map<String, Object> runJson = parse(run(KILLED).resolve("run.json"));
        assertThat(runJson.get("stop")).isEqualTo(Map.of("signal", "SIGKILL", "exitCode", 137L));
        Path logDir = run(KILLED).resolve("logdir");
        Path copied = run(KILLED).resolve("copied-while-writing");
        assertThat(logDir.resolve(".kafka_cleanshutdown")).doesNotExist();
        matchesManifest(runJson, "copiedWhileWritingManifest", copied);
        assertThat(dumpedFiles(KILLED, "copied-while-writing", "dump-copied-while-writing")).isGreaterThan(10);
        try (Stream<Path> dirs = Files.list(copied)) {
            assertThat(dirs.map(d -> d.getFileName().toString()).sorted().collect(Collectors.toList()))
                    .containsExactly("__consumer_offsets-2", "burst-0");
        }

        Map<String, Object> midWrite = (Map<String, Object>) ((Map<String, Object>) runJson.get("workload")).get("midWrite");
        Map<String, Object> copy = (Map<String, Object>) midWrite.get("copy");
        List<String> tornLogs = new ArrayList<>();
        for (String dir : List.of("burst-0", "__consumer_offsets-2")) {
            for (Map.Entry<String, Object> e : ((Map<String, Object>) copy.get(dir)).entrySet()) {
                Map<String, Object> tail = (Map<String, Object>) ((Map<String, Object>) e.getValue()).get("tail");
                if (tail == null) {
                    continue;
                }
                Path log = copied.resolve(dir).resolve(e.getKey());
                long[] framing = framing(log);
                assertThat(tail.get("size")).as(e.getKey()).isEqualTo(Files.size(log));
                assertThat(tail.get("wholeBatchesEndAt")).as(e.getKey()).isEqualTo(framing[0]);
                assertThat(tail.get("torn")).as(e.getKey()).isEqualTo(framing[0] < Files.size(log));
                if (Boolean.TRUE.equals(tail.get("torn"))) {
                    tornLogs.add(dir + "/" + e.getKey());
                    assertThat(tail.get("tornBaseOffset")).isEqualTo(framing[1]);
                    assertThat((Long) tail.get("tornBatchSizeWithHeader")).isGreaterThan(Files.size(log) - framing[0]);
                }
            }
        }
        // the copy's last segment of burst-0, torn; no other copied .log is
        assertThat(tornLogs).containsExactly("burst-0/00000000000000007604.log");

        Map<String, Object> kill = (Map<String, Object>) midWrite.get("kill");
        for (Map.Entry<String, Object> dir : ((Map<String, Object>) kill.get("killedLogDirTails")).entrySet()) {
            for (Map.Entry<String, Object> e : ((Map<String, Object>) dir.getValue()).entrySet()) {
                Path log = logDir.resolve(dir.getKey()).resolve(e.getKey());
                assertThat(((Map<String, Object>) e.getValue()).get("torn")).as(e.getKey()).isEqualTo(false);
                assertThat(framing(log)[0]).as(e.getKey()).isEqualTo(Files.size(log));
            }
        }

        Path dump = run(KILLED).resolve("dump");
        // retention keeps 1 MiB of closed segments: the killed dir holds 3 data batches, the copy 3 whole ones
        Path copiedDump = run(KILLED).resolve("dump-copied-while-writing");
        assertThat(matches(dump, "burst-0", Pattern.compile("compresscodec: (\\w+)"))).containsExactly("lz4", "none", "zstd");
        assertThat(matches(copiedDump, "burst-0", Pattern.compile("compresscodec: (\\w+)"))).containsExactly("none", "zstd");
        Pattern dataBatchSize = Pattern.compile("isControl: false .* size: (\\d+) magic");
        Set<String> sizes = new TreeSet<>(matches(dump, "burst-0", dataBatchSize));
        sizes.addAll(matches(copiedDump, "burst-0", dataBatchSize));
        assertThat(sizes).hasSize(6).allMatch(n -> Long.parseLong(n) >= 200 << 10 && Long.parseLong(n) <= 900 << 10);
        assertThat(grep(dump, "burst-0", "endTxnMarker: COMMIT")).isPositive();
        assertThat(grep(dump, "__consumer_offsets-2", "endTxnMarker: COMMIT")).isPositive();
        assertThat(matches(dump, "__consumer_offsets-2", Pattern.compile("key: \\{\"type\":\"(\\d+)\"")))
                .containsExactly("1", "2");
        // no flush since the last rolls: burst-0's recovery point is behind the start of its last segment
        Matcher rp = Pattern.compile("\nburst 0 (\\d+)\n").matcher(Files.readString(logDir.resolve("recovery-point-offset-checkpoint")));
        assertThat(rp.find()).isTrue();
        String active = ((String) kill.get("activeSegment")).replace(".log", "");
        assertThat(Long.parseLong(rp.group(1))).isLessThan(Long.parseLong(active));
    }

    /** Where the last whole batch of a .log ends, and the baseOffset of the bytes after it (-1 if none). */
    private static long[] framing(Path log) throws IOException {
        byte[] b = Files.readAllBytes(log);
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b);
        long pos = 0;
        while (pos + 12 <= b.length) {
            long end = pos + 12 + buf.getInt((int) pos + 8);
            if (end > b.length) {
                return new long[] {pos, buf.getLong((int) pos)};
            }
            pos = end;
        }
        return new long[] {pos, pos < b.length ? -2 : -1};
    }

    /**
     * 4.4.0 leaves the metadata log's active indexes preallocated (10 MiB, entries then zeros) at
     * every shutdown, clean or not; they are committed as left, not cut (README quirk 1).
     */
    @ParameterizedTest
    @ValueSource(strings = {PLAIN, COMPRESSED, CRASHED})
    void metadataLogIndexesAreCommittedAsTheBrokerLeftThem(String name) throws Exception {
        Path dir = run(name).resolve("logdir/__cluster_metadata-0");
        assertThat(Files.size(dir.resolve("00000000000000000000.index"))).isEqualTo(10485760L);
        assertThat(Files.size(dir.resolve("00000000000000000000.timeindex"))).isEqualTo(10485756L);
        assertThat(nonZeroPrefix(dir.resolve("00000000000000000000.index"))).isBetween(8L, 4096L);
        assertThat(nonZeroPrefix(dir.resolve("00000000000000000000.timeindex"))).isBetween(12L, 4096L);
        assertThat(parse(run(name).resolve("run.json"))).doesNotContainKey("trimmedMetadataLogIndexes");
    }

    /** Bytes up to the last non-zero one: what a preallocated index holds (git stores its zeros in a few KB). */
    private static long nonZeroPrefix(Path f) throws IOException {
        byte[] b = Files.readAllBytes(f);
        int end = b.length;
        while (end > 0 && b[end - 1] == 0) {
            end--;
        }
        return end;
    }

    @Test
    void corpusStaysSmall() throws IOException {
        long total = 0;
        for (String name : List.of(PLAIN, COMPRESSED, CRASHED, KILLED, PLAIN_391)) {
            long size = 0;
            for (Path f : files(run(name))) {
                String n = f.getFileName().toString();
                // a preallocated index counts up to its zero tail (10 MiB of zeros are a few KB in git)
                size += n.endsWith(".index") || n.endsWith(".timeindex") ? nonZeroPrefix(f) : Files.size(f);
            }
            if (name.equals(PLAIN_391)) {
                assertThat(size).isLessThan(6L << 20);
            }
            if (name.equals(KILLED)) {
                // retention keeps the burst to a few segments: the log dir, the copy and the dumps
                assertThat(size).isLessThan(7L << 20);
            }
            total += size;
        }
        assertThat(total).isLessThan(30L << 20);
    }

    // ------------------------------------------------------------------ helpers

    static List<Path> files(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String firstLine(Path f) throws IOException {
        try (Stream<String> lines = Files.lines(f, StandardCharsets.UTF_8)) {
            return lines.findFirst().orElse("");
        }
    }

    /** Lines containing {@code needle} in the dumps of partition dirs starting with {@code dirPrefix}. */
    private static long grep(Path dump, String dirPrefix, String needle) throws IOException {
        long n = 0;
        for (Path f : dumpsOf(dump, dirPrefix)) {
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                if (line.contains(needle)) {
                    n++;
                }
            }
        }
        return n;
    }

    private static Set<String> matches(Path dump, String dirPrefix, Pattern p) throws IOException {
        Set<String> out = new TreeSet<>();
        for (Path f : dumpsOf(dump, dirPrefix)) {
            Matcher m = p.matcher(Files.readString(f, StandardCharsets.UTF_8));
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    private static List<Path> dumpsOf(Path dump, String dirPrefix) throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(dump)) {
            for (Path d : dirs.filter(Files::isDirectory)
                    .filter(d -> d.getFileName().toString().startsWith(dirPrefix)).sorted()
                    .collect(Collectors.toList())) {
                try (Stream<Path> s = Files.list(d)) {
                    s.filter(f -> f.getFileName().toString().endsWith(".log.txt")
                                    || f.getFileName().toString().endsWith(".txnindex.txt")
                                    || f.getFileName().toString().endsWith(".checkpoint.txt"))
                            .sorted().forEach(out::add);
                }
            }
        }
        return out;
    }

    /** Batches whose base offset is not the previous batch's last offset + 1 (after the first). */
    private static int offsetGaps(Path dump, String dirPrefix) throws IOException {
        Pattern batch = Pattern.compile("^baseOffset: (\\d+) lastOffset: (\\d+) ");
        int gaps = 0;
        for (Path f : dumpsOf(dump, dirPrefix)) {
            long expected = -1;
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                Matcher m = batch.matcher(line);
                if (m.find()) {
                    long base = Long.parseLong(m.group(1));
                    if (expected >= 0 && base != expected) {
                        gaps++;
                    }
                    expected = Long.parseLong(m.group(2)) + 1;
                }
            }
        }
        return gaps;
    }

    private static int maxSegments(Path logDir, String dirPrefix) throws IOException {
        int max = 0;
        try (Stream<Path> dirs = Files.list(logDir)) {
            for (Path d : dirs.filter(d -> d.getFileName().toString().startsWith(dirPrefix)).collect(Collectors.toList())) {
                try (Stream<Path> s = Files.list(d)) {
                    max = Math.max(max, (int) s.filter(f -> f.getFileName().toString().endsWith(".log")).count());
                }
            }
        }
        return max;
    }

    static String sha256(Path f) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(f)) {
            byte[] buf = new byte[65536];
            int n;
            while ((n = in.read(buf)) > 0) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** A JSON document as maps, lists, strings, numbers, booleans and nulls. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parse(Path f) throws IOException {
        try (JsonParser p = new JsonFactory().createParser(f.toFile())) {
            p.nextToken();
            Object v = read(p);
            assertThat(p.nextToken()).isNull();
            return (Map<String, Object>) v;
        }
    }

    /** A JSON document whose top level is an array. */
    @SuppressWarnings("unchecked")
    static List<Object> parseList(Path f) throws IOException {
        try (JsonParser p = new JsonFactory().createParser(f.toFile())) {
            p.nextToken();
            Object v = read(p);
            assertThat(p.nextToken()).isNull();
            return (List<Object>) v;
        }
    }

    private static Object read(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT: {
                Map<String, Object> m = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String k = p.currentName();
                    p.nextToken();
                    m.put(k, read(p));
                }
                return m;
            }
            case START_ARRAY: {
                List<Object> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    l.add(read(p));
                }
                return l;
            }
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
                return p.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return null;
            default:
                throw new IOException("unexpected " + t);
        }
    }
}
