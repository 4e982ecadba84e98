package io.segscope.format.zookeeper;

import io.segscope.format.logdir.FileEntry;
import io.segscope.format.verify.Severity;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every run of testdata/corpus-zookeeper (real servers 3.3.6 to 3.9.5): segscope's restore equals
 * ZooKeeper 3.9.5's own restore node for node, and every znode the live server answered
 * ({@code expected.json}); the offsets read through {@link ZkKafka} equal the expected offsets;
 * every 4th acknowledged write of {@code history.json} is found as of its zxid.
 */
class ZkCorpusTest {
    static List<String> runs() throws IOException {
        return ZkCorpusRuns.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    @SuppressWarnings("unchecked")
    void restoreEqualsZooKeeperAndTheLiveServer(String run, @TempDir Path scratch) throws Exception {
        Path data = ZkCorpusRuns.materialise(run, scratch);
        Map<String, Object> runJson = ZkCorpusRuns.json(run, "run.json");
        Map<String, Object> settings = (Map<String, Object>) runJson.get("settings");
        boolean separate = Boolean.TRUE.equals(settings.get("dataLogDir"));
        List<FileEntry> roots = List.of(FileEntry.of(data));

        ZkRestore.Result ours = ZkRestore.restore(roots, ZkRestore.Options.all());
        assertThat(ours.findings()).as("findings").filteredOn(f -> f.severity() == Severity.ERROR).isEmpty();
        for (var f : ours.findings()) {
            assertThat(f.problem().kind().kind()).startsWith("zk-");
        }

        // ZooKeeper 3.9.5's own restore, on a copy
        Path copy = ZkCorpusRuns.copy(data, scratch.resolve("copy-" + run));
        boolean digest = !Boolean.FALSE.equals(settings.get("digest"));
        ZooKeeperServer.setDigestEnabled(digest);
        ZkOracle.Restored zk;
        try {
            zk = ZkOracle.restore(copy.resolve(separate ? "datalog" : "data").toFile(), copy.resolve("data").toFile());
        } finally {
            ZooKeeperServer.setDigestEnabled(true);
        }
        ZkOracle.assertSame(ours.tree(), zk, run);
        assertThat(ours.lastZxid()).isEqualTo(zk.lastZxid());

        // the live server's answers
        Map<String, Object> expected = ZkCorpusRuns.json(run, "expected.json");
        Map<String, ZkNode> nodes = ours.tree().nodesByPath();
        List<Object> expectedNodes = (List<Object>) expected.get("nodes");
        Set<String> expectedPaths = new java.util.TreeSet<>();
        for (Object o : expectedNodes) {
            Map<String, Object> e = (Map<String, Object>) o;
            String path = (String) e.get("path");
            expectedPaths.add(path);
            ZkNode n = nodes.get(path);
            assertThat(n).as(run + " " + path).isNotNull();
            assertThat(n.data()).as(run + " data of " + path).isEqualTo(ZkCorpusRuns.data(e.get("data")));
            Map<String, Object> s = (Map<String, Object>) e.get("stat");
            List<Long> want = new ArrayList<>(List.of(ZkCorpusRuns.num(s.get("czxid")), ZkCorpusRuns.num(s.get("mzxid")),
                    ZkCorpusRuns.num(s.get("pzxid")), ZkCorpusRuns.num(s.get("ctime")), ZkCorpusRuns.num(s.get("mtime")),
                    ZkCorpusRuns.num(s.get("version")), ZkCorpusRuns.num(s.get("aversion")), ZkCorpusRuns.num(s.get("ephemeralOwner")),
                    ZkCorpusRuns.num(s.get("dataLength")), ZkCorpusRuns.num(s.get("numChildren"))));
            List<Long> got = new ArrayList<>(List.of(n.czxid(), n.mzxid(), n.pzxid(), n.ctime(), n.mtime(), (long) n.version(),
                    (long) n.aversion(), n.clientEphemeralOwner(), (long) n.dataLength(), (long) n.numChildren()));
            if (!run.equals("zk-3.3.6")) {
                want.add(ZkCorpusRuns.num(s.get("cversion")));
                got.add((long) n.clientCversion());
            }
            assertThat(got).as(run + " stat of " + path).isEqualTo(want);
        }
        assertThat(nodes.keySet()).as(run + " paths").isEqualTo(expectedPaths);
        for (Object o : (List<Object>) expected.get("openSessions")) {
            long id = ZkCorpusRuns.num(((Map<String, Object>) o).get("sessionId"));
            assertThat(ours.tree().sessionOpen(id)).as(run + " session " + Long.toHexString(id)).isTrue();
        }

        // the offsets, through ZkKafka, on the whole tree and on zk-offsets' paths only
        ZkRestore.Result kafkaOnly = ZkRestore.restore(roots, new ZkRestore.Options(ZkKafka.PATHS, -1, Long.MIN_VALUE, true));
        assertThat(kafkaOnly.tree().size()).isLessThanOrEqualTo(ours.tree().size());
        for (ZkTree tree : List.of(ours.tree(), kafkaOnly.tree())) {
            List<ZkKafka.Offset> offsets = ZkKafka.read(tree).offsets();
            Map<String, ZkKafka.Offset> byPath = new TreeMap<>();
            offsets.forEach(x -> byPath.put(x.path(), x));
            List<Object> want = (List<Object>) expected.get("offsets");
            assertThat(byPath).as(run + " offsets").hasSize(want.size());
            for (Object o : want) {
                Map<String, Object> e = (Map<String, Object>) o;
                ZkKafka.Offset x = byPath.get((String) e.get("path"));
                assertThat(x).as(run + " " + e.get("path")).isNotNull();
                assertThat(List.of(x.group(), x.topic(), x.partition())).isEqualTo(List.of(e.get("group"), e.get("topic"), e.get("partition")));
                byte[] bytes = ZkCorpusRuns.data(e.get("data"));
                assertThat(x.value() == null ? null : x.value().getBytes(StandardCharsets.UTF_8))
                        .as(run + " value of " + x.path())
                        .isEqualTo(bytes == null ? null : new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8));
                assertThat(List.of(x.mtime(), x.mzxid(), (long) x.version())).isEqualTo(List.of(ZkCorpusRuns.num(e.get("mtime")),
                        ZkCorpusRuns.num(e.get("mzxid")), ZkCorpusRuns.num(e.get("version"))));
            }
        }

        // as of the zxid of every 4th acknowledged write
        Map<String, Object> history = ZkCorpusRuns.json(run, "history.json");
        List<Object> writes = (List<Object>) history.get("writes");
        Map<Long, Integer> writesPerZxid = new TreeMap<>();
        for (Object o : writes) {
            Object z = ((Map<String, Object>) o).get("zxid");
            if (z != null) {
                writesPerZxid.merge(ZkCorpusRuns.num(z), 1, Integer::sum);
            }
        }
        int checked = 0;
        int refused = 0;
        for (int i = 0; i < writes.size(); i += 4) {
            Map<String, Object> w = (Map<String, Object>) writes.get(i);
            Object z = w.get("zxid");
            String op = (String) w.get("op");
            if (z == null || !Boolean.TRUE.equals(w.get("ok")) || !(op.equals("create") || op.equals("setData") || op.equals("delete"))
                    || writesPerZxid.get(ZkCorpusRuns.num(z)) > 1) {
                continue;
            }
            long zxid = ZkCorpusRuns.num(z);
            String path = (String) w.get("path");
            ZkRestore.Options asOf = new ZkRestore.Options(ZkPathFilter.subtrees(List.of(path)), zxid, Long.MIN_VALUE, true);
            if (run.equals("zk-3.9.5-purged") && zxid < 0x1efL) {
                assertThatThrownBy(() -> ZkRestore.restore(roots, asOf)).isInstanceOf(ZkRestore.Unanswerable.class);
                refused++;
                continue;
            }
            ZkRestore.Result then = ZkRestore.restore(roots, asOf);
            assertThat(then.lastZxid()).as(run + " as of 0x" + Long.toHexString(zxid)).isEqualTo(zxid);
            ZkNode n = then.tree().node(path);
            if (op.equals("delete")) {
                assertThat(n).as(run + " " + path + " deleted at 0x" + Long.toHexString(zxid)).isNull();
            } else {
                assertThat(n).as(run + " " + path + " at 0x" + Long.toHexString(zxid)).isNotNull();
                assertThat(n.data()).as(run + " " + path + " at 0x" + Long.toHexString(zxid)).isEqualTo(ZkCorpusRuns.data(w.get("data")));
                assertThat(op.equals("create") ? n.czxid() : n.mzxid()).isEqualTo(zxid);
            }
            checked++;
        }
        assertThat(checked).as(run + " as-of checks").isGreaterThan(run.equals("zk-3.9.5-purged") || run.startsWith("kafka-") ? 5 : 30);
        if (run.equals("zk-3.9.5-purged")) {
            assertThat(refused).isGreaterThan(5);
        }
    }
}
