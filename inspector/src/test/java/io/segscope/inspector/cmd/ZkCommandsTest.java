package io.segscope.inspector.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.segscope.format.zookeeper.ZkKafka;
import io.segscope.inspector.Run;
import io.segscope.inspector.TarGz;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** zk-offsets and zk-tree on the ZooKeeper corpus (testdata/corpus-zookeeper). */
class ZkCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Path corpus() {
        return Corpus.root().resolve("testdata/corpus-zookeeper");
    }

    static List<String> runs() throws IOException {
        try (Stream<Path> s = Files.list(corpus())) {
            return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static String input(String run) {
        Path dir = corpus().resolve(run);
        return (Files.exists(dir.resolve("data.tar.gz")) ? dir.resolve("data.tar.gz") : dir).toString();
    }

    /** The csv kafka-consumer-groups --from-file reads: the offsets the live server answered, every readable row. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void csvEqualsWhatTheServerAnswered(String run) throws IOException {
        JsonNode expected = JSON.readTree(corpus().resolve(run).resolve("expected.json").toFile());
        List<String> want = new ArrayList<>();
        int unreadable = 0;
        for (JsonNode o : expected.get("offsets")) {
            String value = o.get("value").isNull() ? null : o.get("value").asText();
            String partition = o.get("partition").asText();
            if (value == null || !value.matches("-?\\d+") || !partition.matches("0|[1-9]\\d*")) {
                unreadable++;
                continue;
            }
            want.add(OffsetsCommand.csvField(o.get("group").asText()) + "," + OffsetsCommand.csvField(o.get("topic").asText())
                    + "," + partition + "," + Long.parseLong(value));
        }
        Run r = Run.of("zk-offsets", "--format", "csv", input(run));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().lines().sorted().toList()).isEqualTo(want.stream().sorted().toList());
        if (unreadable > 0) {
            assertThat(r.err()).contains(unreadable + " offset(s) left out");
        }
        Run jsonl = Run.of("zk-offsets", "--format", "jsonl", input(run));
        assertThat(jsonl.out().lines().filter(l -> l.contains("\"committed\":true")).count()).isEqualTo(expected.get("offsets").size());
        Run table = Run.of("zk-offsets", input(run));
        assertThat(table.exit()).isZero();
        assertThat(table.out()).contains(expected.get("offsets").size() + " offset(s) of ");
    }

    /**
     * Per group and topic it consumed, every partition of the topic's assignment: the committed ones with
     * their znode's stat and owner, the others "no commit"; then every registered consumer with whether its
     * session is open. Derived from the tree and open sessions the live server answered (expected.json).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void jsonlListsEveryAssignedPartitionAndTheRegisteredConsumers(String run) throws IOException {
        JsonNode expected = JSON.readTree(corpus().resolve(run).resolve("expected.json").toFile());
        java.util.Set<Long> open = new java.util.HashSet<>();
        expected.get("openSessions").forEach(o -> open.add(o.get("sessionId").asLong()));
        java.util.Map<String, JsonNode> nodes = new java.util.LinkedHashMap<>();
        expected.get("nodes").forEach(n -> nodes.put(n.get("path").asText(), n));
        java.util.Map<String, JsonNode> committed = new java.util.HashMap<>();
        java.util.Set<String> consumed = new java.util.TreeSet<>();
        for (JsonNode o : expected.get("offsets")) {
            committed.put(o.get("group").asText() + "\u0000" + o.get("topic").asText() + "\u0000" + o.get("partition").asText(), o);
            consumed.add(o.get("group").asText() + "\u0000" + o.get("topic").asText());
        }
        java.util.Map<String, JsonNode> owners = new java.util.HashMap<>();
        List<String> wantConsumers = new ArrayList<>();
        for (JsonNode n : nodes.values()) {
            String[] p = n.get("path").asText().split("/", -1);
            if (p.length == 6 && p[1].equals("consumers") && p[3].equals("owners")) {
                owners.put(p[2] + "\u0000" + p[4] + "\u0000" + p[5], n);
                consumed.add(p[2] + "\u0000" + p[4]);
            }
            if (p.length == 5 && p[1].equals("consumers") && p[3].equals("ids")) {
                long session = n.get("stat").get("ephemeralOwner").asLong();
                wantConsumers.add(p[2] + " " + p[4] + " 0x" + Long.toHexString(session) + " " + open.contains(session));
            }
        }
        List<String> want = new ArrayList<>();
        int noCommit = 0;
        for (String gt : consumed) {
            String[] k = gt.split("\u0000", -1);
            java.util.Set<String> parts = new java.util.TreeSet<>();
            JsonNode topic = nodes.get("/brokers/topics/" + k[1]);
            if (topic != null && !topic.get("data").isNull()) {
                JSON.readTree(topic.get("data").get("utf8").asText()).get("partitions").fieldNames().forEachRemaining(parts::add);
            }
            for (String key : committed.keySet()) {
                if (key.startsWith(gt + "\u0000")) {
                    parts.add(key.substring(gt.length() + 1));
                }
            }
            for (String key : owners.keySet()) {
                if (key.startsWith(gt + "\u0000")) {
                    parts.add(key.substring(gt.length() + 1));
                }
            }
            for (String part : parts) {
                JsonNode c = committed.get(gt + "\u0000" + part);
                JsonNode owner = owners.get(gt + "\u0000" + part);
                String ownerText = owner == null ? "null" : owner.get("data").get("utf8").asText() + " "
                        + open.contains(owner.get("stat").get("ephemeralOwner").asLong());
                if (c == null) {
                    noCommit++;
                }
                want.add(k[0] + " " + k[1] + " " + part + " " + (c == null ? "no commit"
                        : value(c) + " " + c.get("mtime").asLong() + " 0x" + Long.toHexString(c.get("mzxid").asLong())
                        + " " + c.get("version").asInt()) + " " + ownerText);
            }
        }
        Run r = Run.of("zk-offsets", "--format", "jsonl", input(run));
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> got = new ArrayList<>();
        List<String> gotConsumers = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            JsonNode n = JSON.readTree(line);
            if (n.get("line").asText().equals("consumer")) {
                gotConsumers.add(n.get("group").asText() + " " + n.get("id").asText() + " " + n.get("session").asText()
                        + " " + n.get("sessionOpen").asBoolean());
                continue;
            }
            boolean isCommitted = n.get("committed").asBoolean();
            assertThat(n.get("note").asText(null) == null || !n.get("note").asText().equals("no commit") || !isCommitted).isTrue();
            got.add(n.get("group").asText() + " " + n.get("topic").asText() + " " + n.get("partition").asText() + " "
                    + (!isCommitted ? n.get("note").asText() : n.get("value").asText("null") + " " + n.get("mtime").asLong() + " "
                    + n.get("mzxid").asText() + " " + n.get("version").asInt())
                    + " " + (n.get("owner").isNull() ? "null" : n.get("owner").asText() + " " + n.get("ownerSessionOpen").asBoolean()));
        }
        assertThat(got).containsExactlyInAnyOrderElementsOf(want);
        assertThat(gotConsumers).containsExactlyInAnyOrderElementsOf(wantConsumers);
        Run table = Run.of("zk-offsets", input(run));
        assertThat(table.out()).contains(", " + noCommit + " assigned partition(s) with no commit; " + wantConsumers.size()
                + " registered consumer(s), " + wantConsumers.stream().filter(c -> c.endsWith(" true")).count() + " with an open session");
    }

    /** An offset's value as zk-offsets gives it: the data as UTF-8 text (malformed bytes replaced), "null" for null data. */
    private static String value(JsonNode offset) {
        JsonNode data = offset.get("data");
        return data.isNull() ? "null" : new String(Base64.getDecoder().decode(data.get("base64").asText()), StandardCharsets.UTF_8);
    }

    /** The table on zk-3.9.5: a group with an uncommitted partition, its owners and its registered consumer. */
    @Test
    void tableShowsNoCommitRowsAndConsumers() {
        Run r = Run.of("zk-offsets", "--group", "colon:group:1", "--group", "legacy-0.7-group", input("zk-3.9.5"));
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().map(String::strip).map(l -> l.replaceAll(" +", " ")).toList();
        assertThat(lines).contains("legacy-0.7-group orders 1-0 4242 2026-12-07T23:19:02.962Z 0xe0 0 - a Kafka 0.7 partition name (broker-partition)",
                "legacy-0.7-group orders 0 - - - - - no commit", "legacy-0.7-group orders 1 - - - - - no commit",
                "legacy-0.7-group orders 2 - - - - - no commit",
                "colon:group:1 orders 2 1860 2026-12-07T23:19:03.532Z 0x275 7 colon:group:1_host0.example.com-1418000017202-a6183a43-0",
                "GROUP CONSUMER SESSION",
                "colon:group:1 colon:group:1_host0.example.com-1418000017202-a6183a43 0x1000008b3220007 open",
                "8 offset(s) of 2 group(s), 3 assigned partition(s) with no commit; 1 registered consumer(s), 1 with an open session;"
                        + " as of zxid 0x289");
    }

    @Test
    void asOfZxidHexAndDecimalAndTime() throws IOException {
        JsonNode history = JSON.readTree(corpus().resolve("zk-3.9.5/history.json").toFile());
        int checked = 0;
        for (JsonNode w : history.get("writes")) {
            if (!w.get("op").asText().equals("setData") || w.get("zxid").isNull() || !w.get("path").asText().contains("/offsets/")
                    || w.get("seq").asInt() % 7 != 0) {
                continue;
            }
            long zxid = w.get("zxid").asLong();
            String path = w.get("path").asText();
            String value = new String(Base64.getDecoder().decode(w.get("data").get("base64").asText()), StandardCharsets.UTF_8);
            Run hex = Run.of("zk-offsets", "--format", "jsonl", "--as-of-zxid", "0x" + Long.toHexString(zxid), input("zk-3.9.5"));
            Run dec = Run.of("zk-offsets", "--format", "jsonl", "--as-of-zxid", Long.toString(zxid), input("zk-3.9.5"));
            assertThat(hex.exit()).as(hex.err()).isZero();
            assertThat(hex.out()).isEqualTo(dec.out());
            JsonNode row = null;
            for (String line : hex.out().split("\n")) {
                JsonNode n = JSON.readTree(line);
                if (n.get("line").asText().equals("offset") && n.get("path").asText().equals(path)) {
                    row = n;
                }
            }
            assertThat(row).as(path + " at " + zxid).isNotNull();
            assertThat(row.get("value").asText()).isEqualTo(value);
            assertThat(row.get("mzxid").asText()).isEqualTo("0x" + Long.toHexString(zxid));
            Run time = Run.of("zk-offsets", "--format", "jsonl", "--as-of-time", Long.toString(w.get("mtimeMs").asLong()),
                    "--group", row.get("group").asText(), input("zk-3.9.5"));
            assertThat(time.exit()).as(time.err()).isZero();
            assertThat(time.out()).contains("\"path\":" + JSON.writeValueAsString(path));
            checked++;
        }
        assertThat(checked).isGreaterThan(10);
    }

    @Test
    void selectionsAndTree() throws IOException {
        Run g = Run.of("zk-offsets", "--format", "csv", "--group", "colon:group:1", "--topic", "orders", input("zk-3.9.5"));
        assertThat(g.out().lines().toList()).hasSize(3).allMatch(l -> l.startsWith("colon:group:1,orders,"));
        Run re = Run.of("zk-offsets", "--format", "csv", "--group-regex", "^café", input("zk-3.9.5"));
        assertThat(re.out().lines().toList()).isNotEmpty().allMatch(l -> l.startsWith("café-crème-consumer,"));

        Run odd = Run.of("zk-tree", "--path", "/consumers/odd-values", "--format", "jsonl", input("zk-3.9.5"));
        assertThat(odd.exit()).as(odd.err()).isZero();
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : odd.out().split("\n")) {
            nodes.add(JSON.readTree(line));
        }
        assertThat(nodes.get(0).get("path").asText()).isEqualTo("/consumers/odd-values");
        JsonNode nullData = nodes.stream().filter(n -> n.get("path").asText().endsWith("/orders/0")).findFirst().orElseThrow();
        assertThat(nullData.get("data").isNull()).isTrue();
        assertThat(nullData.get("dataBase64").isNull()).isTrue();
        JsonNode notUtf8 = nodes.stream().filter(n -> n.get("path").asText().endsWith("/page.views/3")).findFirst().orElseThrow();
        assertThat(notUtf8.get("data").isNull()).isTrue();
        assertThat(notUtf8.get("dataBase64").asText()).isEqualTo("//4x");

        Run kafka = Run.of("zk-tree", "--kafka", input("zk-3.9.5"));
        assertThat(kafka.out()).contains("controller: broker 1, epoch 2").contains("metrics_v2-x").contains("yes");
        Run text = Run.of("zk-tree", "--path", "/controller_epoch", input("zk-3.9.5"));
        assertThat(text.out()).startsWith("/controller_epoch  data=\"2\"  version=1");
        Run missing = Run.of("zk-tree", "--path", "/nothing/here", input("zk-3.9.5"));
        assertThat(missing.exit()).isZero();
        assertThat(missing.err()).contains("no znode /nothing/here");
    }

    @Test
    void badValuesMissingPathsAndOtherDirs(@TempDir Path tmp) {
        assertThat(Run.of("zk-offsets", "--as-of-zxid", "xyz", input("zk-3.9.5")).exit()).isEqualTo(2);
        assertThat(Run.of("zk-offsets", "--as-of-zxid", "-5", input("zk-3.9.5")).exit()).isEqualTo(2);
        assertThat(Run.of("zk-offsets", "--group-regex", "(", input("zk-3.9.5")).exit()).isEqualTo(2);
        assertThat(Run.of("zk-offsets", "--as-of-time", "yesterday", input("zk-3.9.5")).exit()).isEqualTo(2);
        assertThat(Run.of("zk-tree", "--max-data", "-1", input("zk-3.9.5")).exit()).isEqualTo(2);
        assertThat(Run.of("zk-tree", "--path", "consumers", input("zk-3.9.5")).exit()).isEqualTo(2);
        Run purged = Run.of("zk-offsets", "--as-of-zxid", "0x20", input("zk-3.9.5-purged"));
        assertThat(purged.exit()).isEqualTo(2);
        assertThat(purged.err()).contains("purged");
        Run missing = Run.of("zk-offsets", tmp.resolve("nope").toString());
        assertThat(missing.exit()).isEqualTo(3);
        assertThat(missing.err()).contains("no such file");
        Run kafkaDir = Run.of("zk-offsets", Corpus.root().resolve("testdata/corpus").toString());
        assertThat(kafkaDir.exit()).isEqualTo(3);
        assertThat(kafkaDir.err()).contains("no ZooKeeper snapshot");
    }

    @Test
    void archiveEqualsItsDir(@TempDir Path tmp) throws IOException {
        Path archive = TarGz.of(tmp.resolve("zk.tar.gz"), corpus().resolve("zk-3.9.5-datalogdir"));
        Run dir = Run.of("zk-offsets", "--format", "jsonl", input("zk-3.9.5-datalogdir"));
        Run tar = Run.of("zk-offsets", "--format", "jsonl", archive.toString());
        assertThat(tar.exit()).as(tar.err()).isZero();
        assertThat(tar.out()).isEqualTo(dir.out()).isNotEmpty();
        Run treeDir = Run.of("zk-tree", "--format", "jsonl", input("zk-3.9.5-datalogdir"));
        Run treeTar = Run.of("zk-tree", "--format", "jsonl", archive.toString());
        assertThat(treeTar.out()).isEqualTo(treeDir.out());
    }

    /** A tar.gz cut short: the complete entries are restored, the cut is reported naming the archive, exit 1 (never 0). */
    @Test
    void truncatedArchiveIsDamage(@TempDir Path tmp) throws IOException {
        Path archive = TarGz.of(tmp.resolve("zk.tar.gz"), corpus().resolve("zk-3.9.5"));
        Path cut = tmp.resolve("cut.tar.gz");
        byte[] bytes = Files.readAllBytes(archive);
        Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        for (String[] args : List.of(new String[]{"zk-offsets", cut.toString()}, new String[]{"zk-tree", "--kafka", cut.toString()},
                new String[]{"offsets", "--zookeeper", cut.toString(), Corpus.corpus().resolve("kraft-4.4.0-plain/logdir").toString()})) {
            Run r = Run.of(args);
            assertThat(r.exit()).as(String.join(" ", args) + "\n" + r.err()).isEqualTo(1);
            assertThat(r.err()).contains("archive-truncated").doesNotContain("\tat ");
        }
    }

    /** --no-checksums on a snapshot whose seal fails: the snapshot is used, with a warning naming file and position (never silently). */
    @Test
    void noChecksumsWarnsOfAFailedSnapshotSeal(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("version-2");
        Files.createDirectories(dir);
        try (Stream<Path> s = Files.list(corpus().resolve("zk-3.9.5/data/version-2"))) {
            for (Path f : s.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        try (RandomAccessFile f = new RandomAccessFile(dir.resolve("snapshot.277").toFile(), "rw")) {
            f.seek(15000);
            int b = f.read();
            f.seek(15000);
            f.write(b ^ 0x40);
        }
        Run strict = Run.of("zk-offsets", "--format", "csv", tmp.toString());
        assertThat(strict.exit()).isEqualTo(1);
        assertThat(strict.err()).contains("snapshot.277 position 29957: zk-checksum field seal 1").contains("falls back");
        Run lax = Run.of("zk-offsets", "--format", "csv", "--no-checksums", tmp.toString());
        assertThat(lax.exit()).as(lax.err()).isZero();
        assertThat(lax.err()).contains("warning: ").contains("snapshot.277 position 29957: zk-checksum field seal 1")
                .contains("the snapshot is used anyway (--no-checksums)");
    }

    /**
     * A ZooKeeper data dir given where Kafka logs are read: its version-2 dir is no partition 2 of a topic
     * "version"; exit 3 naming it, never a clean run over nothing (and never a second "cluster" beside real logs).
     */
    @Test
    void zooKeeperDirGivenToKafkaCommands(@TempDir Path tmp) throws IOException {
        String zk = corpus().resolve("zk-3.9.5").toString();
        String kafka = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir").toString();
        for (String[] args : List.of(new String[]{"offsets", zk}, new String[]{"offsets", zk + "/data"},
                new String[]{"offsets", "--zookeeper", zk, zk}, new String[]{"dump", zk},
                new String[]{"report", "--out", tmp.resolve("r.html").toString(), zk})) {
            Run r = Run.of(args);
            assertThat(r.exit()).as(String.join(" ", args) + "\n" + r.err()).isEqualTo(3);
            assertThat(r.err()).contains("a ZooKeeper data dir (version-2 holds snapshot.* and log.* files), not Kafka logs");
        }
        Run tar = Run.of("offsets", TarGz.of(tmp.resolve("zk.tar.gz"), corpus().resolve("zk-3.9.5")).toString());
        assertThat(tar.exit()).isEqualTo(3);
        assertThat(tar.err()).contains("no Kafka segment, partition dir or log dir found there");
        Run both = Run.of("offsets", "--format", "csv", corpus().resolve("kafka-3.9.1-zk").toString());
        Run logdir = Run.of("offsets", "--format", "csv", corpus().resolve("kafka-3.9.1-zk/logdir").toString());
        assertThat(both.exit()).as(both.err()).isZero();
        assertThat(both.err()).doesNotContain("clusters");
        assertThat(both.out()).isEqualTo(logdir.out()).isNotEmpty();
        assertThat(Run.of("offsets", kafka).exit()).isZero();
    }

    @Test
    void exportFile(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("offsets.txt");
        Run r = Run.of("zk-offsets", "--format", "csv", "--export-zk-offsets", out.toString(), input("zk-3.9.5"));
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertThat(lines).contains("/consumers/colon:group:1/offsets/orders/0:1308", "/consumers/odd-values/offsets/orders/1:");
        assertThat(lines).allMatch(l -> l.startsWith("/consumers/"));
        assertThat(r.err()).contains("holds ':'").contains("holds a line break");
        try (Stream<Path> s = Files.list(tmp)) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).containsExactly("offsets.txt");
        }
        assertThat(Files.getPosixFilePermissions(out)).contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ);
        Path dir = Files.createDirectory(tmp.resolve("a-dir"));
        Run refused = Run.of("zk-offsets", "--export-zk-offsets", dir.toString(), input("zk-3.9.5"));
        assertThat(refused.exit()).isEqualTo(3);
        assertThat(refused.err()).contains("is not a regular file");
        Path missingDir = tmp.resolve("no/such/dir/offsets.txt");
        assertThat(Run.of("zk-offsets", "--export-zk-offsets", missingDir.toString(), input("zk-3.9.5")).exit()).isEqualTo(3);
    }

    @Test
    void damagedCopiesNeverPrintAStackTrace(@TempDir Path tmp) throws IOException {
        Path copy = tmp.resolve("zk");
        try (Stream<Path> s = Files.walk(corpus().resolve("zk-3.9.5"))) {
            for (Path p : s.toList()) {
                Path t = copy.resolve(corpus().resolve("zk-3.9.5").relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
        Path v2 = copy.resolve("data/version-2");
        List<Path> files;
        try (Stream<Path> s = Files.list(v2)) {
            files = s.sorted().toList();
        }
        int i = 0;
        for (Path f : files) {
            try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
                long size = raf.length();
                if (i++ % 2 == 0) {
                    raf.setLength(size / 3);
                } else if (size > 100) {
                    raf.seek(size / 2);
                    raf.write(new byte[]{1, 2, 3, 4, 5});
                }
            }
            for (String[] args : List.of(new String[]{"zk-offsets", copy.toString()}, new String[]{"zk-tree", "--kafka", copy.toString()},
                    new String[]{"zk-offsets", "--no-checksums", "--format", "jsonl", copy.toString()})) {
                Run r = Run.of(args);
                assertThat(r.exit()).as(f + " " + r.err()).isIn(0, 1);
                assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
            }
        }
    }

    @Test
    void offsetsBesideZooKeepers() throws IOException {
        String logDir = Corpus.corpus().resolve("kraft-4.4.0-plain/logdir").toString();
        String oneLine = "^[^\\n]*$";
        Run kafka = Run.of("offsets", "--format", "csv", "--group-regex", oneLine, logDir);
        Run zk = Run.of("zk-offsets", "--format", "csv", input("zk-3.9.5"));
        Run both = Run.of("offsets", "--format", "csv", "--group-regex", oneLine, "--zookeeper", input("zk-3.9.5"), logDir);
        assertThat(both.exit()).as(both.err()).isZero();
        // no group is on both sides here: the dual-commit offsets are the union of both
        List<String> union = new ArrayList<>(kafka.out().lines().toList());
        union.addAll(zk.out().lines().toList());
        assertThat(both.out().lines().sorted().toList()).isEqualTo(union.stream().sorted().toList());
        Run jsonl = Run.of("offsets", "--format", "jsonl", "--zookeeper", input("zk-3.9.5"), "--group", "colon:group:1", logDir);
        for (String line : jsonl.out().split("\n")) {
            JsonNode n = JSON.readTree(line);
            assertThat(n.get("status").asText()).isEqualTo("zookeeper only");
            assertThat(n.get("groupStatus").asText()).isEqualTo("zookeeper only");
            assertThat(n.get("dualCommitOffset").asLong()).isEqualTo(n.get("zookeeperOffset").asLong());
        }
        assertThat(jsonl.out().lines().count()).isEqualTo(5);
        assertThat(Run.of("offsets", "--zookeeper", "/nonexistent-zk", logDir).exit()).isEqualTo(3);
    }

    @Test
    void rowAndGroupStatus() {
        ZkKafka.Offset zk5 = new ZkKafka.Offset("g", "t", "0", 0, "5", 5L, null, 1000, 7, 1, "/consumers/g/offsets/t/0");
        ZkKafka.Offset zk9 = new ZkKafka.Offset("g", "t", "1", 1, "9", 9L, null, 1000, 8, 1, "/consumers/g/offsets/t/1");
        ZkDualCommit.Joined behind = new ZkDualCommit.Joined("g", "t", 0, zk5, new ZkDualCommit.KafkaRow("g", "t", 0, 7, 2000));
        ZkDualCommit.Joined equal = new ZkDualCommit.Joined("g", "t", 1, zk9, new ZkDualCommit.KafkaRow("g", "t", 1, 9, 2000));
        assertThat(behind.status()).isEqualTo("zookeeper behind");
        assertThat(behind.fetched()).isEqualTo(7L);
        assertThat(equal.status()).isEqualTo("equal");
        assertThat(ZkDualCommit.groupStatus(List.of(behind, equal))).containsEntry("g", "zookeeper stopped");
        ZkDualCommit.Joined ahead = new ZkDualCommit.Joined("g", "t", 1, zk9, new ZkDualCommit.KafkaRow("g", "t", 1, 4, 2000));
        assertThat(ahead.status()).isEqualTo("zookeeper ahead");
        assertThat(ahead.fetched()).isEqualTo(9L);
        assertThat(ZkDualCommit.groupStatus(List.of(behind, ahead))).containsEntry("g", "both");
        ZkDualCommit.Joined later = new ZkDualCommit.Joined("g", "t", 0, zk5, new ZkDualCommit.KafkaRow("g", "t", 0, 7, 500));
        assertThat(ZkDualCommit.groupStatus(List.of(later))).containsEntry("g", "both");
        assertThat(new ZkDualCommit.Joined("g", "t", 0, null, new ZkDualCommit.KafkaRow("g", "t", 0, 7, 500)).status()).isEqualTo("kafka only");
        assertThat(new ZkDualCommit.Joined("g", "t", 0, zk5, null).status()).isEqualTo("zookeeper only");
    }

    /** The Kafka 3.9.1 broker in ZooKeeper mode: both sides equal the rows the generator recorded (run.json dualCommit). */
    @Test
    void dualCommitRunEqualsItsRecord() throws IOException {
        Path run = corpus().resolve("kafka-3.9.1-zk");
        JsonNode want = JSON.readTree(run.resolve("run.json").toFile()).get("dualCommit");
        Run r = Run.of("offsets", "--format", "jsonl", "--zookeeper", run.resolve("data").toString(), run.resolve("logdir").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> got = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            JsonNode n = JSON.readTree(line);
            got.add(n.get("group").asText() + "/" + n.get("topic").asText() + "/" + n.get("partition").asInt() + " zk="
                    + n.get("zookeeperOffset") + " kafka=" + n.get("kafkaOffset"));
            JsonNode zk = n.get("zookeeperOffset");
            JsonNode kafka = n.get("kafkaOffset");
            long fetched = zk.isNull() ? kafka.asLong() : kafka.isNull() ? zk.asLong() : Math.max(zk.asLong(), kafka.asLong());
            assertThat(n.get("dualCommitOffset").asLong()).isEqualTo(fetched);
        }
        List<String> expected = new ArrayList<>();
        for (JsonNode w : want) {
            expected.add(w.get("group").asText() + "/" + w.get("topic").asText() + "/" + w.get("partition").asInt() + " zk="
                    + w.get("zkOffset") + " kafka=" + w.get("kafkaOffset"));
        }
        assertThat(got).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(r.out()).contains("\"group\":\"migrated group\"").contains("\"groupStatus\":\"zookeeper stopped\"");
        Run table = Run.of("offsets", "--zookeeper", run.resolve("data").toString(), "--group", "migrated group", run.resolve("logdir").toString());
        assertThat(table.out().lines().skip(1).toList()).hasSize(3).allMatch(l -> l.contains("zookeeper behind") && l.endsWith("zookeeper stopped"));
    }
}
