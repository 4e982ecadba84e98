package io.segscope.testdata;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import io.segscope.testdata.generator.ZkCorpusGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks that every committed ZooKeeper corpus run ({@code testdata/corpus-zookeeper/<run>}) is
 * whole and consistent with what its README promises: the data files run.json lists (size and
 * SHA-256, inside {@code data.tar.gz} for the archived run), file names, the writes of
 * history.json in zxid order, and the offsets of expected.json equal to replaying history.json's
 * acknowledged writes. Reads files only; no ZooKeeper.
 */
class ZooKeeperCorpusTest {
    private static final Pattern SNAPSHOT = Pattern.compile("snapshot\\.([0-9a-f]+)(\\.gz|\\.snappy)?");
    private static final Pattern LOG = Pattern.compile("log\\.([0-9a-f]+)");

    static List<String> runs() {
        return Corpus.zookeeperRuns().stream().map(p -> p.getFileName().toString()).collect(Collectors.toList());
    }

    private static Path run(String name) {
        return Corpus.zookeeperCorpus().resolve(name);
    }

    /** The Kafka broker run: the broker wrote most of the tree; the generator only old consumers' znodes. */
    private static boolean kafkaRun(String name) throws IOException {
        return json(run(name).resolve("run.json")).get("kafkaVersion") != null;
    }

    @Test
    void theRunsAreThere() {
        assertThat(runs()).contains("zk-3.9.5", "zk-3.4.14");
    }

    @ParameterizedTest
    @MethodSource("runs")
    void everyDataFileIsListedWithItsSizeAndHash(String name) throws IOException {
        Map<String, Object> runJson = json(run(name).resolve("run.json"));
        assertThat(runJson.get("run")).isEqualTo(name);
        Map<String, DataFile> actual = dataFiles(name, runJson);
        Map<String, Object> listed = new TreeMap<>();
        for (Map<String, Object> f : list(runJson, "files")) {
            listed.put((String) f.get("path"), f);
        }
        assertThat(actual.keySet()).containsExactlyInAnyOrderElementsOf(listed.keySet());
        for (Map.Entry<String, DataFile> e : actual.entrySet()) {
            Map<?, ?> f = (Map<?, ?>) listed.get(e.getKey());
            assertThat(((Number) f.get("bytes")).longValue()).as(e.getKey()).isEqualTo(e.getValue().bytes());
            assertThat(f.get("sha256")).as(e.getKey()).isEqualTo(e.getValue().sha256());
        }
    }

    @ParameterizedTest
    @MethodSource("runs")
    void theDataDirHasSnapshotsAndLogsNamedAsZooKeeperNamesThem(String name) throws IOException {
        Map<String, Object> runJson = json(run(name).resolve("run.json"));
        Map<String, Object> settings = map(runJson, "settings");
        boolean dataLogDir = (Boolean) settings.get("dataLogDir");
        String compression = (String) settings.get("compression");
        int snapshots = 0;
        int logs = 0;
        for (String path : dataFiles(name, runJson).keySet()) {
            assertThat(path).startsWith(dataLogDir && path.startsWith("datalog/") ? "datalog/version-2/" : "data/version-2/");
            String file = path.substring(path.lastIndexOf('/') + 1);
            Matcher s = SNAPSHOT.matcher(file);
            if (s.matches()) {
                assertThat(path).as("snapshots are in the dataDir").startsWith("data/");
                String suffix = s.group(2) == null ? "none" : s.group(2).substring(1);
                assertThat(suffix).as(path).isEqualTo(compression);
                snapshots++;
            } else {
                assertThat(LOG.matcher(file).matches()).as("neither a snapshot nor a log: %s", path).isTrue();
                assertThat(path).as("logs are in the dataLogDir").startsWith(dataLogDir ? "datalog/" : "data/");
                logs++;
            }
        }
        if (runJson.get("ended").equals("purged")) {
            assertThat(snapshots).isEqualTo(((Number) map(runJson, "purge").get("retainCount")).intValue());
        } else {
            assertThat(snapshots).as("snapshots").isGreaterThanOrEqualTo(2);
        }
        assertThat(logs).as("logs").isGreaterThanOrEqualTo(runJson.get("archive") != null ? 1 : 2);
    }

    @ParameterizedTest
    @MethodSource("runs")
    void historyIsInOrderAndItsZxidsRise(String name) throws IOException {
        List<Map<String, Object>> writes = list(json(run(name).resolve("history.json")), "writes");
        assertThat(writes).hasSizeGreaterThan(kafkaRun(name) ? 50 : 300);
        long lastZxid = 0;
        Set<String> ops = new HashSet<>();
        for (int i = 0; i < writes.size(); i++) {
            Map<String, Object> w = writes.get(i);
            assertThat(((Number) w.get("seq")).intValue()).isEqualTo(i);
            ops.add((String) w.get("op"));
            if (w.get("zxid") != null) {
                long zxid = ((Number) w.get("zxid")).longValue();
                assertThat(zxid).as("zxid of write %d", i).isGreaterThan(lastZxid);
                assertThat(w.get("ok")).isEqualTo(true);
                lastZxid = zxid;
            }
        }
        assertThat(ops).contains("createSession", "closeSession", "create", "setData");
        if (kafkaRun(name)) {
            return;
        }
        assertThat(ops).contains("delete");
        String client = (String) json(run(name).resolve("run.json")).get("clientVersion");
        if (!client.startsWith("3.3")) {
            assertThat(ops).contains("multi");
            assertThat(writes).anyMatch(w -> w.get("op").equals("multi") && Boolean.FALSE.equals(w.get("ok")));
        }
    }

    @ParameterizedTest
    @MethodSource("runs")
    void theOffsetsAreTheTreesAndTheLastAcknowledgedWrites(String name) throws IOException {
        Map<String, Object> expected = json(run(name).resolve("expected.json"));
        Map<String, Map<String, Object>> nodes = new LinkedHashMap<>();
        for (Map<String, Object> n : list(expected, "nodes")) {
            nodes.put((String) n.get("path"), n);
        }
        assertThat(nodes).containsKeys("/", "/zookeeper", "/consumers", "/brokers/topics/orders", "/controller_epoch");
        boolean kafka = kafkaRun(name);

        // Replay the acknowledged writes of history.json: path -> base64 of the data (null data: "<null>").
        Map<String, String> model = replay(list(json(run(name).resolve("history.json")), "writes"));
        Map<String, String> inFlight = new HashMap<>();
        for (Map<String, Object> w : list(expected, "inFlight")) {
            assertThat(w.get("acknowledged")).isEqualTo(false);
            inFlight.put((String) w.get("path"), utf8(w));
        }

        List<Map<String, Object>> offsets = list(expected, "offsets");
        assertThat(offsets).hasSizeGreaterThan(kafka ? 10 : 20);
        Set<String> offsetPaths = new HashSet<>();
        for (Map<String, Object> o : offsets) {
            String path = (String) o.get("path");
            offsetPaths.add(path);
            assertThat(path).isEqualTo("/consumers/" + o.get("group") + "/offsets/" + o.get("topic") + "/" + o.get("partition"));
            Map<String, Object> node = nodes.get(path);
            assertThat(node).as(path).isNotNull();
            Map<?, ?> stat = (Map<?, ?>) node.get("stat");
            assertThat(o.get("mzxid")).isEqualTo(stat.get("mzxid"));
            assertThat(o.get("mtime")).isEqualTo(stat.get("mtime"));
            assertThat(o.get("version")).isEqualTo(stat.get("version"));
            assertThat(o.get("data")).isEqualTo(node.get("data"));
            assertThat(((Number) stat.get("ephemeralOwner")).longValue()).isZero();
            String have = base64(o.get("data"));
            if (inFlight.containsKey(path)) {
                // Killed runs: the restarted copy holds the last acknowledged value or a later one sent.
                long value = Long.parseLong((String) o.get("value"));
                long acked = Long.parseLong(new String(Base64.getDecoder().decode(model.get(path))));
                assertThat(value).as(path).isGreaterThanOrEqualTo(acked);
            } else {
                assertThat(have).as("%s in %s", path, name).isEqualTo(model.get(path));
            }
        }
        Set<String> modelOffsets = model.keySet().stream()
                .filter(p -> p.split("/", -1).length == 6 && p.startsWith("/consumers/") && p.split("/", -1)[3].equals("offsets"))
                .collect(Collectors.toSet());
        assertThat(offsetPaths).containsExactlyInAnyOrderElementsOf(modelOffsets);
    }

    @ParameterizedTest
    @MethodSource("runs")
    void theOddValuesAreKept(String name) throws IOException {
        if (kafkaRun(name)) {
            return;
        }
        Map<String, Map<String, Object>> byPath = new HashMap<>();
        for (Map<String, Object> o : list(json(run(name).resolve("expected.json")), "offsets")) {
            byPath.put((String) o.get("path"), o);
        }
        assertThat(byPath.get("/consumers/odd-values/offsets/orders/0").get("data")).isNull();
        assertThat(byPath.get("/consumers/odd-values/offsets/orders/1").get("value")).isEqualTo("");
        assertThat(byPath.get("/consumers/odd-values/offsets/orders/2").get("value")).isEqualTo("still-not-a-number");
        assertThat(byPath.get("/consumers/odd-values/offsets/page.views/0").get("value")).isEqualTo("-1");
        Map<String, Object> notUtf8 = byPath.get("/consumers/odd-values/offsets/page.views/3");
        assertThat(notUtf8.get("value")).isNull();
        assertThat(((Map<?, ?>) notUtf8.get("data")).get("base64")).isEqualTo("//4x");
        assertThat(byPath.get("/consumers/legacy-0.7-group/offsets/orders/1-0").get("value")).isEqualTo("4242");
        assertThat(byPath.keySet()).contains("/consumers/group,with,commas/offsets/orders/0",
                "/consumers/quote\"group'single/offsets/orders/0", "/consumers/colon:group:1/offsets/orders/0",
                "/consumers/back\\slash\\group/offsets/orders/0", "/consumers/日本語グループ/offsets/orders/0");
    }

    @ParameterizedTest
    @MethodSource("runs")
    void everyEphemeralBelongsToAnOpenSession(String name) throws IOException {
        Map<String, Object> expected = json(run(name).resolve("expected.json"));
        Set<Long> open = new HashSet<>();
        for (Map<String, Object> s : list(expected, "openSessions")) {
            long id = ((Number) s.get("sessionId")).longValue();
            assertThat(s.get("sessionIdHex")).isEqualTo("0x" + Long.toHexString(id));
            open.add(id);
        }
        int ephemerals = 0;
        for (Map<String, Object> n : list(expected, "nodes")) {
            long owner = ((Number) ((Map<?, ?>) n.get("stat")).get("ephemeralOwner")).longValue();
            if (owner != 0) {
                assertThat(open).as("owner of %s", n.get("path")).contains(owner);
                ephemerals++;
            }
        }
        assertThat(ephemerals).as("ephemerals of sessions left open").isGreaterThan(3);
    }

    @Test
    void theKafkaRunsDualCommitRowsAreItsZooKeeperOffsets() throws IOException {
        String name = "kafka-3.9.1-zk";
        Map<String, Object> runJson = json(run(name).resolve("run.json"));
        Map<String, String> zk = new HashMap<>();
        for (Map<String, Object> o : list(json(run(name).resolve("expected.json")), "offsets")) {
            zk.put(o.get("group") + "/" + o.get("topic") + "/" + o.get("partition"), (String) o.get("value"));
        }
        List<Map<String, Object>> rows = list(runJson, "dualCommit");
        assertThat(rows).hasSize(14);
        int both = 0;
        for (Map<String, Object> r : rows) {
            String key = r.get("group") + "/" + r.get("topic") + "/" + r.get("partition");
            Object z = r.get("zkOffset");
            assertThat(zk.get(key)).as(key).isEqualTo(z == null ? null : z.toString());
            if (z != null && r.get("kafkaOffset") != null) {
                both++;
            }
        }
        assertThat(both).isEqualTo(7);
        assertThat(zk).hasSize(11);
        // The broker's own metadata, and its log dir with the Kafka side of the commits.
        Map<String, Map<String, Object>> nodes = new HashMap<>();
        for (Map<String, Object> n : list(json(run(name).resolve("expected.json")), "nodes")) {
            nodes.put((String) n.get("path"), n);
        }
        assertThat(nodes).containsKeys("/cluster/id", "/brokers/topics/__consumer_offsets", "/brokers/topics/page.views");
        assertThat((String) ((Map<?, ?>) nodes.get("/brokers/topics/orders").get("data")).get("utf8")).contains("\"topic_id\":");
        assertThat(run(name).resolve("logdir/__consumer_offsets-0")).isDirectory();
        assertThat(run(name).resolve("logdir/.kafka_cleanshutdown")).isRegularFile();
    }

    @ParameterizedTest
    @MethodSource("runs")
    void howTheRunEndedIsRecorded(String name) throws IOException {
        Map<String, Object> runJson = json(run(name).resolve("run.json"));
        Map<String, Object> expected = json(run(name).resolve("expected.json"));
        String ended = (String) runJson.get("ended");
        assertThat(ended).isIn("clean", "killed", "upgraded", "purged");
        List<Map<String, Object>> phases = list(runJson, "phases");
        assertThat(phases).isNotEmpty();
        switch (ended) {
            case "killed" -> {
                Map<String, Object> ack = map(runJson, "lastAcknowledged");
                Map<String, Object> sent = map(runJson, "lastSent");
                assertThat(((Number) ack.get("seq")).intValue()).isLessThan(((Number) sent.get("seq")).intValue());
                assertThat(ack.get("acknowledged")).isEqualTo(true);
                assertThat(expected.get("asOf")).isEqualTo("restartedCopy");
                assertThat(list(expected, "inFlight")).isNotEmpty();
            }
            case "upgraded" -> {
                assertThat(phases).hasSize(2);
                assertThat(phases.get(1).get("serverVersion")).isEqualTo(runJson.get("serverVersion"));
                assertThat(phases.get(0).get("serverVersion")).isNotEqualTo(runJson.get("serverVersion"));
            }
            case "purged" -> {
                Map<String, Object> purge = map(runJson, "purge");
                List<?> removed = (List<?>) purge.get("removed");
                assertThat(removed).isNotEmpty();
                Set<String> present = dataFiles(name, runJson).keySet();
                for (Object kept : (List<?>) purge.get("kept")) {
                    assertThat(present).contains("data/" + kept);
                }
                for (Object gone : removed) {
                    assertThat(present).doesNotContain("data/" + gone);
                }
            }
            default -> assertThat(expected.get("asOf")).isEqualTo("stop");
        }
    }

    // ------------------------------------------------------------------ helpers

    /** Path -> base64 of the data ("<null>" for null) after every acknowledged write. */
    private static Map<String, String> replay(List<Map<String, Object>> writes) {
        Map<String, String> model = new HashMap<>();
        for (Map<String, Object> w : writes) {
            if (!Boolean.TRUE.equals(w.get("ok")) || Boolean.FALSE.equals(w.get("acknowledged"))) {
                continue;
            }
            if (w.get("op").equals("multi")) {
                for (Map<String, Object> o : list(w, "ops")) {
                    apply(model, o);
                }
            } else {
                apply(model, w);
            }
        }
        return model;
    }

    private static void apply(Map<String, String> model, Map<String, Object> w) {
        String path = (String) w.get("path");
        switch ((String) w.get("op")) {
            case "create", "setData" -> model.put(path, base64(w.get("data")));
            case "delete" -> model.remove(path);
            default -> {
            }
        }
    }

    private static String base64(Object data) {
        return data == null ? "<null>" : (String) ((Map<?, ?>) data).get("base64");
    }

    private static String utf8(Map<String, Object> w) {
        return (String) ((Map<?, ?>) w.get("data")).get("utf8");
    }

    /** A data file's size and SHA-256. */
    record DataFile(long bytes, String sha256) {
    }

    /**
     * The run's data files by their path relative to the run dir, from the dirs or streamed from
     * data.tar.gz (its 64 MiB logs are hashed as they are read, never held).
     */
    private static Map<String, DataFile> dataFiles(String name, Map<String, Object> runJson) throws IOException {
        Map<String, DataFile> files = new TreeMap<>();
        if (runJson.get("archive") != null) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(run(name).resolve((String) runJson.get("archive"))), 1 << 16)) {
                byte[] header = new byte[512];
                byte[] buf = new byte[1 << 16];
                while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
                    String entry = new String(header, 0, 100, StandardCharsets.UTF_8).replace("\0", "");
                    long size = Long.parseLong(new String(header, 124, 11, StandardCharsets.US_ASCII).trim(), 8);
                    MessageDigest md = sha256();
                    long left = size;
                    while (left > 0) {
                        int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                        assertThat(n).as("%s is cut short", entry).isPositive();
                        md.update(buf, 0, n);
                        left -= n;
                    }
                    in.readNBytes((int) ((512 - size % 512) % 512));
                    if (header[156] == '0' || header[156] == 0) {
                        files.put(entry, new DataFile(size, HexFormat.of().formatHex(md.digest())));
                    }
                }
            }
            return files;
        }
        for (String dir : List.of("data", "datalog")) {
            Path d = run(name).resolve(dir);
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> s = Files.walk(d)) {
                for (Path f : s.filter(Files::isRegularFile).collect(Collectors.toList())) {
                    byte[] b = Files.readAllBytes(f);
                    files.put(run(name).relativize(f).toString().replace('\\', '/'),
                            new DataFile(b.length, HexFormat.of().formatHex(sha256().digest(b))));
                }
            }
        }
        return files;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(Path file) throws IOException {
        try (JsonParser p = new JsonFactory().createParser(file.toFile())) {
            p.nextToken();
            return (Map<String, Object>) ZkCorpusGenerator.readValue(p);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> m, String key) {
        Object v = m.get(key);
        assertThat(v).as(key).isInstanceOf(List.class);
        return (List<Map<String, Object>>) v;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> m, String key) {
        Object v = m.get(key);
        assertThat(v).as(key).isInstanceOf(Map.class);
        return (Map<String, Object>) v;
    }
}
