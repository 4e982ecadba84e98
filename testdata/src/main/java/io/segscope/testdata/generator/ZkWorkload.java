package io.segscope.testdata.generator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The ZooKeeper corpus's client: writes what Kafka 0.8's brokers and old consumers write, through
 * the plain ZooKeeper client API (compiled against 3.4.6; runs with 3.3.6's client too, multi-ops
 * aside, which live in {@link ZkMultiOps} so that 3.3.6 never loads them), records every write
 * ({@code history.json}) and reads the tree back ({@code expected.json}). Runs in a child JVM of
 * {@link ZkCorpusGenerator} with the client release's jars; see
 * {@code testdata/corpus-zookeeper/README.md} for the files it writes.
 *
 * <p>Usage: {@code ZkWorkload <job.properties>}; keys: {@code connect}, {@code out} (run dir),
 * {@code run}, {@code part} ({@code full}, {@code killed}, {@code upgrade}, {@code kafka}, {@code readback}), {@code seed}, {@code multi} (true when the client has multi-ops),
 * {@code serverVersion}, {@code serverPid} (killed runs), {@code killAfterAcks}.
 */
public final class ZkWorkload {
    static final int SESSION_TIMEOUT_MS = 10_000;

    private final Properties job;
    private final Path out;
    private final Random rnd;
    private final boolean multi;
    final List<Map<String, Object>> history = new ArrayList<>();
    final Map<String, ZooKeeper> sessions = new LinkedHashMap<>();
    /** Sessions closed so far: role -> id, to tell open from closed at the end. */
    final Map<String, Long> closed = new LinkedHashMap<>();
    private String serverVersion;
    private int roleCounter;
    private long fakeClock = 1_418_000_000_000L;

    ZkWorkload(Properties job) {
        this.job = job;
        this.out = Path.of(job.getProperty("out"));
        this.rnd = new Random(Long.parseLong(job.getProperty("seed", "20")));
        this.multi = Boolean.parseBoolean(job.getProperty("multi", "true"));
        this.serverVersion = job.getProperty("serverVersion");
    }

    public static void main(String[] args) throws Exception {
        Properties job = new Properties();
        try (var r = Files.newBufferedReader(Path.of(args[0]))) {
            job.load(r);
        }
        ZkWorkload w = new ZkWorkload(job);
        String part = job.getProperty("part");
        try {
            switch (part) {
                case "full" -> {
                    w.workload(true);
                    w.readBackAndWait("stop");
                }
                case "upgrade" -> {
                    w.workload(false);
                    w.abandonSessions();
                    System.out.println("PART-DONE");
                    System.out.flush();
                    // The generator stops the first server, starts the second one on the same dir,
                    // and sends "CONTINUE <connect string> <server release>".
                    String[] line = w.stdin().readLine().split(" ");
                    w.job.setProperty("connect", line[1]);
                    w.serverVersion = line[2];
                    w.upgradeContinuation();
                    w.readBackAndWait("stop");
                }
                case "killed" -> {
                    w.workload(false);
                    w.killedBurst();
                    Runtime.getRuntime().halt(0);
                }
                case "kafka" -> {
                    w.oldConsumersBesideKafka();
                    System.out.println("ZK-WRITES-DONE");
                    System.out.flush();
                    // The generator commits the Kafka side, stops the broker, then sends "READBACK".
                    w.stdin().readLine();
                    w.readBackAndWait("stop");
                }
                case "readback" -> w.readBackAfterKill();
                default -> throw new IllegalArgumentException(part);
            }
        } catch (Throwable t) {
            t.printStackTrace();
            System.out.flush();
            Runtime.getRuntime().halt(1);
        }
    }

    // ------------------------------------------------------------------ the workload

    static final String[] GROUPS = {
        "console-consumer-48213",
        "group,with,commas",
        "quote\"group'single",
        "colon:group:1",
        "back\\slash\\group",
        "space group  two",
        "日本語グループ",
        "café-crème-consumer",
    };
    static final String[][] TOPICS = {
        {"orders", "3"}, {"page.views", "2"}, {"metrics_v2-x", "1"}, {"to-delete", "2"}, {"events", "2"},
    };

    /** Per group: the topics it consumes. */
    private final Map<String, List<String>> subscriptions = new LinkedHashMap<>();
    /** Offsets path -> the last value written. */
    private final Map<String, Long> offsets = new LinkedHashMap<>();
    private final Map<String, String> consumerOf = new LinkedHashMap<>();

    void workload(boolean finish) throws Exception {
        ZooKeeper admin = session("admin");
        for (String p : List.of("/brokers", "/brokers/ids", "/brokers/topics", "/config", "/config/topics",
                "/config/changes", "/admin", "/admin/delete_topics", "/consumers")) {
            create(admin, p, "", CreateMode.PERSISTENT);
        }
        create(admin, "/controller_epoch", "1", CreateMode.PERSISTENT);
        ZooKeeper[] brokers = new ZooKeeper[3];
        for (int id = 0; id < 3; id++) {
            brokers[id] = session("broker-" + id);
            create(brokers[id], "/brokers/ids/" + id, brokerJson(id), CreateMode.EPHEMERAL);
        }
        create(brokers[0], "/controller", "{\"version\":1,\"brokerid\":0,\"timestamp\":\"" + now() + "\"}",
                CreateMode.EPHEMERAL);
        for (String[] t : TOPICS) {
            createTopic(admin, t[0], Integer.parseInt(t[1]), t[0].equals("events"));
        }
        // A failed write: the topic exists already.
        create(admin, "/brokers/topics/orders", "{\"version\":1,\"partitions\":{}}", CreateMode.PERSISTENT);

        // Consumers register, own partitions and commit first offsets.
        for (int g = 0; g < GROUPS.length; g++) {
            List<String> topics = new ArrayList<>();
            topics.add("orders");
            if (g % 2 == 0) {
                topics.add("page.views");
            }
            if (g % 3 == 0) {
                topics.add("events");
            }
            subscriptions.put(GROUPS[g], topics);
            registerConsumer(GROUPS[g]);
        }
        oddValues(admin);

        int rounds = 8;
        for (int r = 0; r < rounds; r++) {
            commitRound(r);
            switch (r) {
                case 1 -> pipelinedCommits(50);
                case 2 -> controllerMove(brokers);
                case 3 -> {
                    if (multi) {
                        ZkMultiOps.commits(this, sessions.get(consumerOf.get(GROUPS[0])), GROUPS[0], "metrics_v2-x");
                    }
                }
                case 4 -> {
                    rebalance(GROUPS[1]);
                    failedWrites(admin);
                }
                case 5 -> {
                    deleteTopic(admin, "to-delete");
                    create(admin, "/admin/delete_topics/metrics_v2-x", "", CreateMode.PERSISTENT);
                    pipelinedCommits(50);
                }
                case 6 -> {
                    deletedGroup(admin);
                    if (multi) {
                        ZkMultiOps.failing(this, admin);
                    }
                }
                case 7 -> configChange(admin, "orders",
                        "{\"version\":1,\"config\":{\"retention.ms\":\"604800000\",\"cleanup.policy\":\"delete\"}}");
                default -> {
                }
            }
        }
        if (finish) {
            // Two groups' consumers leave cleanly (their ids and owners go with their sessions);
            // the others are left open with their ephemerals.
            leave(GROUPS[2]);
            leave(GROUPS[5]);
        }
    }

    private String brokerJson(int id) {
        return "{\"jmx_port\":-1,\"timestamp\":\"" + now() + "\",\"host\":\"broker" + id
                + ".example.com\",\"version\":1,\"port\":9092}";
    }

    private void createTopic(ZooKeeper admin, String topic, int partitions, boolean topicId) throws Exception {
        StringBuilder assign = new StringBuilder();
        for (int p = 0; p < partitions; p++) {
            assign.append(p == 0 ? "" : ",").append('"').append(p).append("\":[").append(p % 3).append(',')
                    .append((p + 1) % 3).append(']');
        }
        String json = topicId
                ? "{\"version\":3,\"partitions\":{" + assign + "},\"adding_replicas\":{},\"removing_replicas\":{},\"topic_id\":\""
                        + topicIdFor(topic) + "\"}"
                : "{\"version\":1,\"partitions\":{" + assign + "}}";
        create(admin, "/config/topics/" + topic, "{\"version\":1,\"config\":{}}", CreateMode.PERSISTENT);
        create(admin, "/brokers/topics/" + topic, json, CreateMode.PERSISTENT);
        create(admin, "/brokers/topics/" + topic + "/partitions", null, CreateMode.PERSISTENT);
        for (int p = 0; p < partitions; p++) {
            String base = "/brokers/topics/" + topic + "/partitions/" + p;
            create(admin, base, null, CreateMode.PERSISTENT);
            create(admin, base + "/state", "{\"controller_epoch\":1,\"leader\":" + (p % 3)
                    + ",\"version\":1,\"leader_epoch\":0,\"isr\":[" + (p % 3) + "," + ((p + 1) % 3) + "]}",
                    CreateMode.PERSISTENT);
        }
    }

    private String topicIdFor(String topic) {
        byte[] id = new byte[16];
        new Random(topic.hashCode()).nextBytes(id);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(id);
    }

    private void configChange(ZooKeeper admin, String topic, String config) throws Exception {
        setData(admin, "/config/topics/" + topic, config, -1);
        create(admin, "/config/changes/config_change_", "\"" + topic + "\"", CreateMode.PERSISTENT_SEQUENTIAL);
    }

    private void registerConsumer(String group) throws Exception {
        String role = "consumer-" + (roleCounter++);
        ZooKeeper c = session(role);
        consumerOf.put(group, role);
        String consumerId = group + "_host" + (roleCounter % 4) + ".example.com-" + now() + "-"
                + String.format("%08x", rnd.nextInt());
        ZooKeeper admin = sessions.get("admin");
        mkdirs(admin, "/consumers/" + group + "/ids");
        StringBuilder sub = new StringBuilder();
        for (String t : subscriptions.get(group)) {
            sub.append(sub.length() == 0 ? "" : ",").append('"').append(t).append("\":1");
        }
        create(c, "/consumers/" + group + "/ids/" + consumerId, "{\"version\":1,\"subscription\":{" + sub
                + "},\"pattern\":\"static\",\"timestamp\":\"" + now() + "\"}", CreateMode.EPHEMERAL);
        for (String t : subscriptions.get(group)) {
            mkdirs(admin, "/consumers/" + group + "/owners/" + t);
            for (int p = 0; p < partitions(t); p++) {
                create(c, "/consumers/" + group + "/owners/" + t + "/" + p, consumerId + "-0", CreateMode.EPHEMERAL);
                String off = "/consumers/" + group + "/offsets/" + t + "/" + p;
                if (!offsets.containsKey(off)) {
                    mkdirs(c, "/consumers/" + group + "/offsets/" + t);
                    long v = rnd.nextInt(1000);
                    create(c, off, Long.toString(v), CreateMode.PERSISTENT);
                    offsets.put(off, v);
                }
            }
        }
    }

    static int partitions(String topic) {
        for (String[] t : TOPICS) {
            if (t[0].equals(topic)) {
                return Integer.parseInt(t[1]);
            }
        }
        return 1;
    }

    /** Values an offsets reader must show, not drop: null, empty, non-decimal, -1, 0.7 names. */
    private void oddValues(ZooKeeper admin) throws Exception {
        String g = "odd-values";
        mkdirs(admin, "/consumers/" + g + "/offsets/orders");
        create(admin, "/consumers/" + g + "/offsets/orders/0", null, CreateMode.PERSISTENT);
        create(admin, "/consumers/" + g + "/offsets/orders/1", "", CreateMode.PERSISTENT);
        create(admin, "/consumers/" + g + "/offsets/orders/2", "not-a-number", CreateMode.PERSISTENT);
        mkdirs(admin, "/consumers/" + g + "/offsets/page.views");
        create(admin, "/consumers/" + g + "/offsets/page.views/0", "-1", CreateMode.PERSISTENT);
        create(admin, "/consumers/" + g + "/offsets/page.views/1", "9223372036854775807", CreateMode.PERSISTENT);
        create(admin, "/consumers/" + g + "/offsets/page.views/2", " 42\n", CreateMode.PERSISTENT);
        // Bytes that are not UTF-8, and an emoji in data (paths stay in the BMP).
        createBytes(admin, "/consumers/" + g + "/offsets/page.views/3", new byte[] {(byte) 0xff, (byte) 0xfe, '1'},
                CreateMode.PERSISTENT);
        create(admin, "/consumers/" + g + "/offsets/page.views/4", "12🙂", CreateMode.PERSISTENT);
        // A Kafka 0.7 consumer's partition names, <brokerId>-<partition>.
        String legacy = "legacy-0.7-group";
        mkdirs(admin, "/consumers/" + legacy + "/offsets/orders");
        create(admin, "/consumers/" + legacy + "/offsets/orders/1-0", "4242", CreateMode.PERSISTENT);
        create(admin, "/consumers/" + legacy + "/offsets/orders/2-0", "17", CreateMode.PERSISTENT);
        // A topic name real Kafka would refuse, written by some tool.
        mkdirs(admin, "/consumers/" + legacy + "/offsets/legacy topic: ü");
        create(admin, "/consumers/" + legacy + "/offsets/legacy topic: ü/0", "99", CreateMode.PERSISTENT);
        setData(admin, "/consumers/odd-values/offsets/orders/2", "still-not-a-number", -1);
    }

    private void commitRound(int r) throws Exception {
        for (String group : GROUPS) {
            String role = consumerOf.get(group);
            if (role == null || closed.containsKey(role)) {
                continue;
            }
            ZooKeeper c = sessions.get(role);
            for (String t : subscriptions.get(group)) {
                for (int p = 0; p < partitions(t); p++) {
                    String path = "/consumers/" + group + "/offsets/" + t + "/" + p;
                    // The old consumer skips an offset that did not move.
                    if (rnd.nextInt(5) == 0) {
                        continue;
                    }
                    long v = offsets.get(path) + 1 + rnd.nextInt(500);
                    setData(c, path, Long.toString(v), -1);
                    offsets.put(path, v);
                }
            }
        }
    }

    /** Many setData calls in flight at once, so snapshots are taken while writes go on. */
    private void pipelinedCommits(int n) throws Exception {
        List<String> paths = new ArrayList<>();
        for (String p : offsets.keySet()) {
            if (p.startsWith("/consumers/" + GROUPS[0] + "/")) {
                paths.add(p);
            }
        }
        ZooKeeper c = sessions.get(consumerOf.get(GROUPS[0]));
        CountDownLatch done = new CountDownLatch(n);
        List<Map<String, Object>> writes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String path = paths.get(i % paths.size());
            long v = offsets.get(path) + 1 + rnd.nextInt(50);
            offsets.put(path, v);
            Map<String, Object> w = write("setData", c, path);
            w.put("data", data(Long.toString(v).getBytes(StandardCharsets.UTF_8)));
            w.put("expectedVersion", -1);
            writes.add(w);
            c.setData(path, Long.toString(v).getBytes(StandardCharsets.UTF_8), -1, (rc, p, ctx, stat) -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> ww = (Map<String, Object>) ctx;
                synchronized (ww) {
                    fillResult(ww, rc, stat);
                }
                done.countDown();
            }, w);
        }
        if (!done.await(120, TimeUnit.SECONDS)) {
            throw new IOException("pipelined writes not acknowledged");
        }
    }

    private void fillResult(Map<String, Object> w, int rc, Stat stat) {
        KeeperException.Code code = KeeperException.Code.get(rc);
        w.put("ok", code == KeeperException.Code.OK);
        w.put("error", code == KeeperException.Code.OK ? null : code.name());
        w.put("zxid", stat == null ? null : stat.getMzxid());
        w.put("mtimeMs", stat == null ? null : stat.getMtime());
        if (stat != null) {
            w.put("version", stat.getVersion());
        }
    }

    private void controllerMove(ZooKeeper[] brokers) throws Exception {
        // Broker 0 (the controller) loses its session: its id and /controller go with it.
        close("broker-0");
        create(brokers[1], "/controller", "{\"version\":1,\"brokerid\":1,\"timestamp\":\"" + now() + "\"}",
                CreateMode.EPHEMERAL);
        setData(sessions.get("admin"), "/controller_epoch", "2", 0);
        for (String[] t : TOPICS) {
            for (int p = 0; p < Integer.parseInt(t[1]); p++) {
                if (p % 3 == 0) {
                    setData(brokers[1], "/brokers/topics/" + t[0] + "/partitions/" + p + "/state",
                            "{\"controller_epoch\":2,\"leader\":1,\"version\":1,\"leader_epoch\":1,\"isr\":[1]}", -1);
                }
            }
        }
        ZooKeeper back = session("broker-0b");
        create(back, "/brokers/ids/0", brokerJson(0), CreateMode.EPHEMERAL);
    }

    private void rebalance(String group) throws Exception {
        String role = consumerOf.get(group);
        // The old consumer releases its partitions (deletes its owner znodes), then its session ends.
        for (String t : subscriptions.get(group)) {
            for (int p = 0; p < partitions(t); p++) {
                delete(sessions.get(role), "/consumers/" + group + "/owners/" + t + "/" + p, -1);
            }
        }
        close(role);
        registerConsumer(group);
    }

    private void failedWrites(ZooKeeper admin) throws Exception {
        delete(admin, "/consumers/" + GROUPS[0], -1);                      // NOTEMPTY
        setData(admin, "/consumers/" + GROUPS[0] + "/offsets/orders/0", "1", 9999); // BADVERSION
        delete(admin, "/consumers/no-such-group/offsets/orders/0", -1);    // NONODE
    }

    private void deleteTopic(ZooKeeper admin, String topic) throws Exception {
        create(admin, "/admin/delete_topics/" + topic, "", CreateMode.PERSISTENT);
        deleteRecursive(admin, "/brokers/topics/" + topic);
        deleteRecursive(admin, "/config/topics/" + topic);
        delete(admin, "/admin/delete_topics/" + topic, -1);
    }

    private void deletedGroup(ZooKeeper admin) throws Exception {
        String g = "short-lived group";
        subscriptions.put(g, List.of("orders"));
        registerConsumer(g);
        for (int i = 0; i < 3; i++) {
            for (int p = 0; p < 3; p++) {
                String path = "/consumers/" + g + "/offsets/orders/" + p;
                long v = offsets.get(path) + 10;
                setData(sessions.get(consumerOf.get(g)), path, Long.toString(v), -1);
                offsets.put(path, v);
            }
        }
        close(consumerOf.get(g));
        deleteRecursive(admin, "/consumers/" + g);
        offsets.keySet().removeIf(p -> p.startsWith("/consumers/" + g + "/"));
        consumerOf.remove(g);
    }

    private void leave(String group) throws Exception {
        close(consumerOf.get(group));
    }

    private BufferedReader stdin;

    BufferedReader stdin() {
        if (stdin == null) {
            stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        }
        return stdin;
    }

    /**
     * The Kafka broker run: old (ZooKeeper) consumers of three groups beside a Kafka 3.9.1 broker
     * in ZooKeeper mode. {@code dual-commit-group} and {@code migrated group} also commit to
     * {@code __consumer_offsets} (the generator does that with Kafka's Admin API, from the
     * {@code zk-offsets.tsv} written here: group, topic, partition, last ZooKeeper offset);
     * {@code migrated group}'s consumer stops committing to ZooKeeper and leaves.
     */
    void oldConsumersBesideKafka() throws Exception {
        ZooKeeper admin = session("admin");
        mkdirs(admin, "/consumers");
        String[][] groups = {{"dual-commit-group", "orders,page.views", "6"}, {"zk-only-group", "orders", "4"},
            {"migrated group", "orders", "2"}};
        List<String> lines = new ArrayList<>();
        for (String[] g : groups) {
            subscriptions.put(g[0], List.of(g[1].split(",")));
            registerConsumerNoOffsets(g[0]);
            ZooKeeper c = sessions.get(consumerOf.get(g[0]));
            for (int round = 0; round < Integer.parseInt(g[2]); round++) {
                for (String t : subscriptions.get(g[0])) {
                    for (int p = 0; p < partitions(t); p++) {
                        String path = "/consumers/" + g[0] + "/offsets/" + t + "/" + p;
                        long v = round == 0 ? 10 + p : offsets.get(path) + 1 + rnd.nextInt(20);
                        if (round == 0) {
                            mkdirs(c, "/consumers/" + g[0] + "/offsets/" + t);
                            create(c, path, Long.toString(v), CreateMode.PERSISTENT);
                        } else {
                            setData(c, path, Long.toString(v), -1);
                        }
                        offsets.put(path, v);
                    }
                }
            }
            for (String t : subscriptions.get(g[0])) {
                for (int p = 0; p < partitions(t); p++) {
                    lines.add(g[0] + "\t" + t + "\t" + p + "\t" + offsets.get("/consumers/" + g[0] + "/offsets/" + t + "/" + p));
                }
            }
        }
        leave("migrated group");
        Files.write(out.resolve("zk-offsets.tsv"), lines, StandardCharsets.UTF_8);
    }

    private void registerConsumerNoOffsets(String group) throws Exception {
        String role = "consumer-" + (roleCounter++);
        ZooKeeper c = session(role);
        consumerOf.put(group, role);
        String consumerId = group + "_host" + roleCounter + ".example.com-" + now() + "-"
                + String.format("%08x", rnd.nextInt());
        ZooKeeper admin = sessions.get("admin");
        mkdirs(admin, "/consumers/" + group + "/ids");
        StringBuilder sub = new StringBuilder();
        for (String t : subscriptions.get(group)) {
            sub.append(sub.length() == 0 ? "" : ",").append('"').append(t).append("\":1");
        }
        create(c, "/consumers/" + group + "/ids/" + consumerId, "{\"version\":1,\"subscription\":{" + sub
                + "},\"pattern\":\"static\",\"timestamp\":\"" + now() + "\"}", CreateMode.EPHEMERAL);
        for (String t : subscriptions.get(group)) {
            mkdirs(admin, "/consumers/" + group + "/owners/" + t);
            for (int p = 0; p < partitions(t); p++) {
                create(c, "/consumers/" + group + "/owners/" + t + "/" + p, consumerId + "-0", CreateMode.EPHEMERAL);
            }
        }
    }

    /** The 3.9.5 server's part of an upgraded run: the 3.4 consumers' sessions expire first. */
    void upgradeContinuation() throws Exception {
        ZooKeeper admin = session("admin-2");
        // Wait until the restarted server has expired the sessions the old release left open.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (admin.exists("/brokers/ids/1", false) != null || admin.exists("/controller", false) != null) {
            if (System.nanoTime() > deadline) {
                throw new IOException("sessions of the first server were not expired");
            }
            Thread.sleep(500);
        }
        for (int id = 0; id < 3; id++) {
            ZooKeeper b = session("broker-" + id + "-after-upgrade");
            create(b, "/brokers/ids/" + id, brokerJson(id), CreateMode.EPHEMERAL);
            if (id == 2) {
                create(b, "/controller", "{\"version\":1,\"brokerid\":2,\"timestamp\":\"" + now() + "\"}",
                        CreateMode.EPHEMERAL);
                setData(admin, "/controller_epoch", "3", -1);
            }
        }
        // The offsets go on from where the tree has them.
        for (String group : new String[] {GROUPS[0], GROUPS[3], GROUPS[6]}) {
            String role = "consumer-" + (roleCounter++) + "-after-upgrade";
            ZooKeeper c = session(role);
            String base = "/consumers/" + group + "/offsets";
            List<String> topics = new ArrayList<>(admin.getChildren(base, false));
            Collections.sort(topics);
            for (int round = 0; round < 6; round++) {
                for (String t : topics) {
                    List<String> ps = new ArrayList<>(admin.getChildren(base + "/" + t, false));
                    Collections.sort(ps);
                    for (String p : ps) {
                        String path = base + "/" + t + "/" + p;
                        long v = Long.parseLong(new String(admin.getData(path, false, null), StandardCharsets.UTF_8));
                        setData(c, path, Long.toString(v + 1 + rnd.nextInt(300)), -1);
                    }
                }
            }
            if (multi && group.equals(GROUPS[0])) {
                ZkMultiOps.commits(this, c, group, "audit.log");
            }
        }
        deleteRecursive(admin, "/consumers/" + GROUPS[7]);
    }

    /** The killed runs: a pipelined burst of commits; the server is SIGKILLed in its middle. */
    void killedBurst() throws Exception {
        long pid = Long.parseLong(job.getProperty("serverPid"));
        int killAfter = Integer.parseInt(job.getProperty("killAfterAcks", "150"));
        List<String> paths = new ArrayList<>();
        for (String p : offsets.keySet()) {
            if (p.startsWith("/consumers/" + GROUPS[3] + "/") || p.startsWith("/consumers/" + GROUPS[6] + "/")) {
                paths.add(p);
            }
        }
        ZooKeeper c = session("burst");
        AtomicInteger acked = new AtomicInteger();
        AtomicInteger pending = new AtomicInteger();
        List<Map<String, Object>> burst = new ArrayList<>();
        // The kill comes from another thread while this one keeps sending, so that writes are in
        // flight when the server dies.
        AtomicBoolean killed = new AtomicBoolean();
        Thread killer = new Thread(() -> {
            try {
                while (acked.get() < killAfter) {
                    Thread.sleep(1);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            killed.set(true);
        });
        killer.start();
        for (int i = 0; i < 100_000 && !killed.get(); i++) {
            while (pending.get() >= 200 && !killed.get()) {
                Thread.sleep(1);
            }
            if (killed.get()) {
                break;
            }
            String path = paths.get(i % paths.size());
            long v = offsets.get(path) + 1 + rnd.nextInt(50);
            offsets.put(path, v);
            Map<String, Object> w = write("setData", c, path);
            w.put("data", data(Long.toString(v).getBytes(StandardCharsets.UTF_8)));
            w.put("expectedVersion", -1);
            w.put("acknowledged", false);
            burst.add(w);
            pending.incrementAndGet();
            c.setData(path, Long.toString(v).getBytes(StandardCharsets.UTF_8), -1, (rc, p, ctx, stat) -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> ww = (Map<String, Object>) ctx;
                synchronized (ww) {
                    if (rc == KeeperException.Code.OK.intValue()) {
                        fillResult(ww, rc, stat);
                        ww.put("acknowledged", true);
                        acked.incrementAndGet();
                    }
                }
                pending.decrementAndGet();
            }, w);
        }
        killer.join();
        Thread.sleep(3000);
        Map<String, Object> lastAck = null;
        Map<String, Object> lastSent = burst.get(burst.size() - 1);
        List<String> inflight = new ArrayList<>();
        for (Map<String, Object> w : burst) {
            synchronized (w) {
                if (Boolean.TRUE.equals(w.get("acknowledged"))) {
                    lastAck = w;
                } else {
                    w.put("ok", null);
                    w.put("error", null);
                    w.put("zxid", null);
                    w.put("mtimeMs", null);
                    inflight.add(w.get("seq") + "\t" + w.get("sessionIdHex") + "\t"
                            + Base64.getEncoder().encodeToString(((String) w.get("path")).getBytes(StandardCharsets.UTF_8))
                            + "\t" + ((Map<?, ?>) w.get("data")).get("utf8"));
                }
            }
        }
        Map<String, Object> kill = new LinkedHashMap<>();
        kill.put("lastAcknowledged", lastAck);
        kill.put("lastSent", lastSent);
        kill.put("acknowledged", acked.get());
        kill.put("sent", burst.size());
        Json.write(out.resolve("kill.json"), kill);
        Files.write(out.resolve("inflight.tsv"), inflight, StandardCharsets.UTF_8);
        writeOpenSessions();
        writeHistory();
        System.out.println("KILLED " + acked.get() + "/" + burst.size());
        System.out.flush();
    }

    // ------------------------------------------------------------------ writes, recorded

    ZooKeeper session(String role) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(job.getProperty("connect"), SESSION_TIMEOUT_MS, new Watcher() {
            @Override
            public void process(WatchedEvent e) {
                if (e.getState() == Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            }
        });
        if (!connected.await(60, TimeUnit.SECONDS)) {
            throw new IOException("no connection to " + job.getProperty("connect"));
        }
        sessions.put(role, zk);
        Map<String, Object> w = write("createSession", zk, null);
        w.put("role", role);
        w.put("ok", true);
        w.put("zxid", null);
        w.put("mtimeMs", null);
        return zk;
    }

    void close(String role) throws Exception {
        ZooKeeper zk = sessions.get(role);
        Map<String, Object> w = write("closeSession", zk, null);
        w.put("role", role);
        zk.close();
        w.put("ok", true);
        w.put("zxid", null);
        w.put("mtimeMs", null);
        closed.put(role, zk.getSessionId());
    }

    Map<String, Object> write(String op, ZooKeeper zk, String path) {
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("seq", history.size());
        w.put("op", op);
        w.put("sessionIdHex", "0x" + Long.toHexString(zk.getSessionId()));
        if (path != null) {
            w.put("path", path);
        }
        if (job.getProperty("recordServer") != null) {
            w.put("server", serverVersion);
        }
        synchronized (history) {
            history.add(w);
        }
        return w;
    }

    void create(ZooKeeper zk, String path, String data, CreateMode mode) throws Exception {
        createBytes(zk, path, data == null ? null : data.getBytes(StandardCharsets.UTF_8), mode);
    }

    void createBytes(ZooKeeper zk, String path, byte[] data, CreateMode mode) throws Exception {
        Map<String, Object> w = write("create", zk, path);
        w.put("mode", mode.name());
        w.put("data", data(data));
        try {
            String actual = zk.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, mode);
            w.put("path", actual);
            Stat s = zk.exists(actual, false);
            ok(w, s.getCzxid(), s.getCtime());
            w.put("version", s.getVersion());
        } catch (KeeperException e) {
            failed(w, e);
        }
    }

    void setData(ZooKeeper zk, String path, String data, int version) throws Exception {
        Map<String, Object> w = write("setData", zk, path);
        byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
        w.put("data", data(bytes));
        w.put("expectedVersion", version);
        try {
            Stat s = zk.setData(path, bytes, version);
            ok(w, s.getMzxid(), s.getMtime());
            w.put("version", s.getVersion());
        } catch (KeeperException e) {
            failed(w, e);
        }
    }

    void delete(ZooKeeper zk, String path, int version) throws Exception {
        Map<String, Object> w = write("delete", zk, path);
        w.put("expectedVersion", version);
        try {
            zk.delete(path, version);
            Stat parent = zk.exists(path.substring(0, Math.max(1, path.lastIndexOf('/'))), false);
            ok(w, parent.getPzxid(), null);
        } catch (KeeperException e) {
            failed(w, e);
        }
    }

    void deleteRecursive(ZooKeeper zk, String path) throws Exception {
        List<String> children = new ArrayList<>(zk.getChildren(path, false));
        Collections.sort(children);
        for (String c : children) {
            deleteRecursive(zk, path + "/" + c);
        }
        delete(zk, path, -1);
    }

    void mkdirs(ZooKeeper zk, String path) throws Exception {
        int i = 0;
        while ((i = path.indexOf('/', i + 1)) > 0) {
            String p = path.substring(0, i);
            if (zk.exists(p, false) == null) {
                create(zk, p, null, CreateMode.PERSISTENT);
            }
        }
        if (zk.exists(path, false) == null) {
            create(zk, path, null, CreateMode.PERSISTENT);
        }
    }

    static void ok(Map<String, Object> w, Long zxid, Long time) {
        w.put("ok", true);
        w.put("error", null);
        w.put("zxid", zxid);
        w.put("mtimeMs", time);
    }

    static void failed(Map<String, Object> w, KeeperException e) {
        w.put("ok", false);
        w.put("error", e.code().name());
        w.put("zxid", null);
        w.put("mtimeMs", null);
    }

    private long now() {
        fakeClock += 1000 + rnd.nextInt(1000);
        return fakeClock;
    }

    // ------------------------------------------------------------------ JSON

    static Map<String, Object> data(byte[] b) {
        if (b == null) {
            return null;
        }
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("base64", Base64.getEncoder().encodeToString(b));
        try {
            d.put("utf8", StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b)).toString());
        } catch (CharacterCodingException notUtf8) {
            // utf8 left out
        }
        return d;
    }

    void writeHistory() throws IOException {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("run", job.getProperty("run"));
        synchronized (history) {
            h.put("writes", new ArrayList<>(history));
        }
        ZkJson.write(out.resolve("history.json"), h);
    }

    /**
     * Upgraded runs: every client of the first server goes away without closing its session (as
     * when the clients' processes die), so the second server restores the sessions and expires them.
     * {@code ClientCnxn.disconnect()} stops the client's threads without a closeSession request.
     */
    void abandonSessions() throws Exception {
        Field f = ZooKeeper.class.getDeclaredField("cnxn");
        f.setAccessible(true);
        for (Map.Entry<String, ZooKeeper> e : sessions.entrySet()) {
            if (!closed.containsKey(e.getKey())) {
                Object cnxn = f.get(e.getValue());
                cnxn.getClass().getMethod("disconnect").invoke(cnxn);
                closed.put(e.getKey(), e.getValue().getSessionId());
            }
        }
    }

    void writeOpenSessions() throws IOException {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, ZooKeeper> e : sessions.entrySet()) {
            if (!closed.containsKey(e.getKey())) {
                lines.add(e.getKey() + "\t" + e.getValue().getSessionId());
            }
        }
        Files.write(out.resolve("open-sessions.tsv"), lines, StandardCharsets.UTF_8);
    }

    void readBackAndWait(String asOf) throws Exception {
        ZooKeeper rb = session("readback");
        writeHistory();
        writeOpenSessions();
        writeExpected(rb, asOf, List.of());
        System.out.println("READBACK-DONE");
        System.out.flush();
        // Stay connected (sessions open, no closeSession) until the generator has stopped the server.
        BufferedReader in = stdin();
        while (in.readLine() != null) {
            // wait for EOF
        }
        Runtime.getRuntime().halt(0);
    }

    /** Killed runs: read the restarted copy; open sessions and in-flight writes from the killed part. */
    void readBackAfterKill() throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper rb = new ZooKeeper(job.getProperty("connect"), SESSION_TIMEOUT_MS, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        connected.await(60, TimeUnit.SECONDS);
        List<Map<String, Object>> inflight = new ArrayList<>();
        for (String line : Files.readAllLines(out.resolve("inflight.tsv"), StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", -1);
            Map<String, Object> w = new LinkedHashMap<>();
            w.put("seq", Integer.parseInt(f[0]));
            w.put("op", "setData");
            w.put("sessionIdHex", f[1]);
            String path = new String(Base64.getDecoder().decode(f[2]), StandardCharsets.UTF_8);
            w.put("path", path);
            w.put("data", data(f[3].getBytes(StandardCharsets.UTF_8)));
            w.put("expectedVersion", -1);
            w.put("ok", null);
            w.put("error", null);
            w.put("zxid", null);
            w.put("mtimeMs", null);
            w.put("acknowledged", false);
            byte[] now = rb.getData(path, false, null);
            long recovered = Long.parseLong(new String(now, StandardCharsets.UTF_8));
            w.put("inRecoveredTree", recovered >= Long.parseLong(f[3]));
            inflight.add(w);
        }
        writeExpected(rb, "restartedCopy", inflight);
        System.out.println("READBACK-DONE");
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    void writeExpected(ZooKeeper rb, String asOf, List<Map<String, Object>> inflight) throws Exception {
        List<Map<String, Object>> nodes = new ArrayList<>();
        walk(rb, "/", nodes);
        List<Map<String, Object>> offs = new ArrayList<>();
        for (Map<String, Object> n : nodes) {
            String path = (String) n.get("path");
            String[] parts = path.split("/", -1);
            if (parts.length == 6 && parts[1].equals("consumers") && parts[3].equals("offsets")) {
                @SuppressWarnings("unchecked")
                Map<String, Object> stat = (Map<String, Object>) n.get("stat");
                @SuppressWarnings("unchecked")
                Map<String, Object> d = (Map<String, Object>) n.get("data");
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("group", parts[2]);
                o.put("topic", parts[4]);
                o.put("partition", parts[5]);
                o.put("path", path);
                o.put("value", d == null ? null : d.get("utf8"));
                o.put("data", d);
                o.put("mtime", stat.get("mtime"));
                o.put("mzxid", stat.get("mzxid"));
                o.put("version", stat.get("version"));
                offs.add(o);
            }
        }
        offs.sort((a, b) -> {
            int c = ((String) a.get("group")).compareTo((String) b.get("group"));
            if (c == 0) {
                c = ((String) a.get("topic")).compareTo((String) b.get("topic"));
            }
            return c != 0 ? c : ((String) a.get("partition")).compareTo((String) b.get("partition"));
        });
        List<Map<String, Object>> open = new ArrayList<>();
        for (String line : Files.readAllLines(out.resolve("open-sessions.tsv"), StandardCharsets.UTF_8)) {
            String[] f = line.split("\t");
            long id = Long.parseLong(f[1]);
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("sessionId", id);
            s.put("sessionIdHex", "0x" + Long.toHexString(id));
            s.put("role", f[0]);
            open.add(s);
        }
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("run", job.getProperty("run"));
        e.put("asOf", asOf);
        e.put("nodes", nodes);
        e.put("openSessions", open);
        e.put("offsets", offs);
        e.put("inFlight", inflight);
        ZkJson.write(out.resolve("expected.json"), e);
    }

    private void walk(ZooKeeper zk, String path, List<Map<String, Object>> nodes) throws Exception {
        Stat s = new Stat();
        byte[] d = zk.getData(path, false, s);
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("path", path);
        n.put("data", data(d));
        Map<String, Object> st = new LinkedHashMap<>();
        st.put("czxid", s.getCzxid());
        st.put("mzxid", s.getMzxid());
        st.put("pzxid", s.getPzxid());
        st.put("ctime", s.getCtime());
        st.put("mtime", s.getMtime());
        st.put("version", s.getVersion());
        st.put("cversion", s.getCversion());
        st.put("aversion", s.getAversion());
        st.put("ephemeralOwner", s.getEphemeralOwner());
        st.put("dataLength", s.getDataLength());
        st.put("numChildren", s.getNumChildren());
        n.put("stat", st);
        nodes.add(n);
        List<String> children = new ArrayList<>(zk.getChildren(path, false));
        Collections.sort(children);
        for (String c : children) {
            walk(zk, path.equals("/") ? "/" + c : path + "/" + c, nodes);
        }
    }
}
