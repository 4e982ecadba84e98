package io.segscope.testdata.generator;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * Makes {@code testdata/corpus-zookeeper/<run>}: data dirs written by real ZooKeeper servers of
 * several releases, each a child JVM ({@code ZooKeeperServerMain}) whose classpath the standalone
 * {@code testdata/generator-zookeeper/pom.xml} resolves from Maven Central; the workload
 * ({@link ZkWorkload}) runs in another child JVM with the client release's jars. See
 * {@code testdata/corpus-zookeeper/README.md} for the runs and the files.
 *
 * <p>Usage: {@code ZkCorpusGenerator <repository root> [run,...]} (all runs by default). Scratch
 * space is {@code testdata/work/zk/}, which git ignores.
 */
public final class ZkCorpusGenerator {

    /**
     * One run. {@code ended}: clean, killed, upgraded, purged. {@code upgradeTo}: the release that
     * continues an upgraded run. {@code preAllocKb} null = ZooKeeper's default (64 MiB), which
     * only the archived run uses.
     */
    record Run(String name, String server, String client, int snapCount, String compression, Boolean digest,
               Integer preAllocKb, boolean dataLogDir, String ended, String upgradeTo, String description) {
        boolean archived() {
            return preAllocKb == null;
        }
    }

    static final int PREALLOC_KB = 4;

    static final List<Run> RUNS = List.of(
            new Run("zk-3.9.5", "3.9.5", "3.4.6", 100, "none", true, PREALLOC_KB, false, "clean", null,
                    "the newest release, plain snapshots, digests on (the default)"),
            new Run("zk-3.4.14", "3.4.14", "3.4.6", 100, "none", null, PREALLOC_KB, false, "clean", null,
                    "the last 3.4 release: no digests, closeSession without a body"),
            new Run("zk-3.3.6", "3.3.6", "3.3.6", 150, "none", null, PREALLOC_KB, false, "clean", null,
                    "the last 3.3 release with its own client (no multi-ops)"),
            new Run("zk-3.4.6", "3.4.6", "3.4.6", 150, "none", null, PREALLOC_KB, false, "clean", null,
                    "the server and client of Kafka 0.8.2's era"),
            new Run("zk-3.5.10", "3.5.10", "3.4.6", 150, "none", null, PREALLOC_KB, false, "clean", null,
                    "3.5: /zookeeper/config, same byte formats as 3.4"),
            new Run("zk-3.6.4-gz", "3.6.4", "3.4.6", 150, "gz", true, PREALLOC_KB, false, "clean", null,
                    "3.6: gzip snapshots (snapshot.<zxid>.gz), digests"),
            new Run("zk-3.7.2-snappy", "3.7.2", "3.4.6", 150, "snappy", true, PREALLOC_KB, false, "clean", null,
                    "3.7: snappy snapshots (snapshot.<zxid>.snappy), digests"),
            new Run("zk-3.8.4", "3.8.4", "3.4.6", 150, "none", true, PREALLOC_KB, false, "clean", null,
                    "3.8, the server Kafka 3.6-3.9 shipped"),
            new Run("zk-3.8.4-prealloc", "3.8.4", "3.4.6", 300, "none", true, null, false, "clean", null,
                    "the default 64 MiB log preallocation, committed as data.tar.gz"),
            new Run("zk-3.9.5-nodigest", "3.9.5", "3.4.6", 150, "none", false, PREALLOC_KB, false, "clean", null,
                    "zookeeper.digest.enabled=false: no digest blocks in snapshots nor logs"),
            new Run("zk-3.9.5-datalogdir", "3.9.5", "3.4.6", 150, "none", true, PREALLOC_KB, true, "clean", null,
                    "a separate dataLogDir: snapshots in data/, logs in datalog/"),
            new Run("zk-3.9.5-killed", "3.9.5", "3.4.6", 150, "none", true, PREALLOC_KB, false, "killed", null,
                    "SIGKILLed during a burst of pipelined offset commits"),
            new Run("zk-3.4.14-killed", "3.4.14", "3.4.6", 150, "none", null, PREALLOC_KB, false, "killed", null,
                    "3.4 SIGKILLed during a burst of pipelined offset commits"),
            new Run("zk-3.4.6-upgraded-3.9.5", "3.4.6", "3.4.6", 150, "none", null, PREALLOC_KB, false, "upgraded",
                    "3.9.5", "written by 3.4.6, stopped, then continued in place by 3.9.5"),
            new Run("zk-3.9.5-purged", "3.9.5", "3.4.6", 60, "none", true, PREALLOC_KB, false, "purged", null,
                    "stopped cleanly, then ZooKeeper's own PurgeTxnLog kept the 3 newest snapshots"));

    static final int SEED = 20;
    static final int PURGE_KEEP = 3;

    private final Path root;
    private final Path work;
    private final Map<String, String> classpaths = new TreeMap<>();

    ZkCorpusGenerator(Path root) throws IOException {
        this.root = root;
        this.work = Files.createDirectories(root.resolve("testdata/work/zk"));
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        List<String> wanted = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            Arrays.stream(args[i].split(",")).map(String::trim).filter(x -> !x.isEmpty()).forEach(wanted::add);
        }
        ZkCorpusGenerator g = new ZkCorpusGenerator(root);
        for (Run run : RUNS) {
            if (wanted.isEmpty() || wanted.contains(run.name())) {
                g.generate(run);
            }
        }
        if (wanted.isEmpty() || wanted.contains(ZkKafkaRun.NAME)) {
            ZkKafkaRun.generate(g, root, g.work);
        }
    }

    /** The classpath of one ZooKeeper release, from the standalone pom (never the reactor). */
    String classpath(String version) throws IOException, InterruptedException {
        String cached = classpaths.get(version);
        if (cached != null) {
            return cached;
        }
        Path out = work.resolve("cp-" + version + ".txt");
        if (!Files.exists(out)) {
            Process p = new ProcessBuilder("mvn", "-B", "-q", "-f",
                    root.resolve("testdata/generator-zookeeper/pom.xml").toString(),
                    "dependency:build-classpath", "-Dzk.version=" + version, "-Dmdep.outputFile=" + out)
                    .redirectErrorStream(true)
                    .redirectOutput(work.resolve("cp-" + version + ".log").toFile())
                    .start();
            if (p.waitFor() != 0) {
                throw new IOException("resolving ZooKeeper " + version + " failed: see " + work.resolve("cp-" + version + ".log"));
            }
        }
        String cp = Files.readString(out).trim();
        classpaths.put(version, cp);
        return cp;
    }

    /** The workload's classpath: the client release's jars, this module's classes and jackson-core. */
    String clientClasspath(String clientVersion) throws IOException, InterruptedException {
        String own = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.contains("jackson-core") || e.endsWith("classes") || e.endsWith("classes/"))
                .collect(Collectors.joining(File.pathSeparator));
        return classpath(clientVersion) + File.pathSeparator + own;
    }

    void generate(Run run) throws Exception {
        long started = System.nanoTime();
        System.out.println("== " + run.name());
        Path scratch = work.resolve(run.name());
        Trees.deleteTree(scratch);
        Path data = Files.createDirectories(scratch.resolve("data"));
        Path dataLog = run.dataLogDir() ? Files.createDirectories(scratch.resolve("datalog")) : null;
        Path out = Files.createDirectories(scratch.resolve("out"));
        writeLogConfigs(scratch);

        Map<String, String> props = systemProperties(run);
        List<Map<String, Object>> phases = new ArrayList<>();
        int port = ChildJvms.freePort();
        Process server = startServer(run.server(), scratch, data, dataLog, port, props, "server-1.out");
        Process client = null;
        Map<String, Object> purge = null;
        try {
            LegacyCorpusGenerator.waitForPort(port, 60, server, scratch.resolve("server-1.out"));
            Properties job = new Properties();
            job.setProperty("connect", "127.0.0.1:" + port);
            job.setProperty("out", out.toString());
            job.setProperty("run", run.name());
            job.setProperty("seed", Integer.toString(SEED));
            job.setProperty("multi", Boolean.toString(!run.client().startsWith("3.3")));
            job.setProperty("serverVersion", run.server());
            job.setProperty("serverPid", Long.toString(server.pid()));
            job.setProperty("killAfterAcks", "150");
            job.setProperty("part", switch (run.ended()) {
                case "killed" -> "killed";
                case "upgraded" -> "upgrade";
                default -> "full";
            });
            if (run.upgradeTo() != null) {
                job.setProperty("recordServer", "true");
            }
            client = startClient(run.client(), scratch, job, "client.out");
            BufferedReader fromClient = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
            switch (run.ended()) {
                case "killed" -> {
                    expectLine(fromClient, "KILLED", client, scratch);
                    client.waitFor(60, TimeUnit.SECONDS);
                    server.waitFor(30, TimeUnit.SECONDS);
                    phases.add(phase(run.server(), "killed"));
                }
                case "upgraded" -> {
                    expectLine(fromClient, "PART-DONE", client, scratch);
                    LegacyCorpusGenerator.stop(server, "zookeeper " + run.server(), 60);
                    phases.add(phase(run.server(), "clean"));
                    server = startServer(run.upgradeTo(), scratch, data, dataLog, port,
                            systemProperties(run), "server-2.out");
                    LegacyCorpusGenerator.waitForPort(port, 60, server, scratch.resolve("server-2.out"));
                    try (Writer w = new OutputStreamWriter(client.getOutputStream(), StandardCharsets.UTF_8)) {
                        w.write("CONTINUE 127.0.0.1:" + port + " " + run.upgradeTo() + "\n");
                        w.flush();
                        expectLine(fromClient, "READBACK-DONE", client, scratch);
                        LegacyCorpusGenerator.stop(server, "zookeeper " + run.upgradeTo(), 60);
                    }
                    phases.add(phase(run.upgradeTo(), "clean"));
                }
                default -> {
                    expectLine(fromClient, "READBACK-DONE", client, scratch);
                    LegacyCorpusGenerator.stop(server, "zookeeper " + run.server(), 60);
                    client.getOutputStream().close();
                    phases.add(phase(run.server(), "clean"));
                }
            }
            client.waitFor(30, TimeUnit.SECONDS);
        } finally {
            if (client != null && client.isAlive()) {
                client.destroyForcibly();
            }
            if (server.isAlive()) {
                server.destroyForcibly();
            }
        }

        Path target = root.resolve("testdata/corpus-zookeeper").resolve(run.name());
        Trees.deleteTree(target);
        Files.createDirectories(target);
        // The data dir(s) exactly as the server left them, before anything else touches them.
        Trees.copyTree(data, target.resolve("data"));
        if (dataLog != null) {
            Trees.copyTree(dataLog, target.resolve("datalog"));
        }

        if (run.ended().equals("killed")) {
            // Read the tree from a restarted server on a scratch copy; the committed dir stays as killed.
            Path copy = scratch.resolve("restarted");
            Trees.copyTree(data, copy.resolve("data"));
            int port2 = ChildJvms.freePort();
            Process again = startServer(run.server(), scratch, copy.resolve("data"), null, port2, props, "server-restarted.out");
            try {
                LegacyCorpusGenerator.waitForPort(port2, 60, again, scratch.resolve("server-restarted.out"));
                Properties job = new Properties();
                job.setProperty("connect", "127.0.0.1:" + port2);
                job.setProperty("out", out.toString());
                job.setProperty("run", run.name());
                job.setProperty("part", "readback");
                Process rb = startClient(run.client(), scratch, job, "readback.out");
                BufferedReader r = new BufferedReader(new InputStreamReader(rb.getInputStream(), StandardCharsets.UTF_8));
                expectLine(r, "READBACK-DONE", rb, scratch);
                rb.waitFor(30, TimeUnit.SECONDS);
            } finally {
                LegacyCorpusGenerator.stop(again, "restarted copy", 60);
            }
        }

        if (run.ended().equals("purged")) {
            List<String> before = listFiles(target.resolve("data"));
            Map<String, String> shaBefore = new TreeMap<>();
            for (String f : before) {
                shaBefore.put(f, sha256(target.resolve("data").resolve(f)));
            }
            Process p = new ProcessBuilder(ChildJvms.javaBin(), "-Xmx128m", logProperty(run.server(), scratch),
                    "-cp", classpath(run.server()), "org.apache.zookeeper.server.PurgeTxnLog",
                    target.resolve("data").toString(), target.resolve("data").toString(), "-n", Integer.toString(PURGE_KEEP))
                    .redirectErrorStream(true).redirectOutput(scratch.resolve("purge.out").toFile()).start();
            if (p.waitFor() != 0) {
                throw new IOException("PurgeTxnLog failed: see " + scratch.resolve("purge.out"));
            }
            List<String> after = listFiles(target.resolve("data"));
            for (String f : after) {
                if (!sha256(target.resolve("data").resolve(f)).equals(shaBefore.get(f))) {
                    throw new IOException("PurgeTxnLog changed " + f);
                }
            }
            List<String> removed = new ArrayList<>(before);
            removed.removeAll(after);
            purge = new LinkedHashMap<>();
            purge.put("tool", "org.apache.zookeeper.server.PurgeTxnLog");
            purge.put("serverVersion", run.server());
            purge.put("retainCount", PURGE_KEEP);
            purge.put("before", before);
            purge.put("removed", removed);
            purge.put("kept", after);
            phases.add(phase(run.server(), "purged"));
        }

        Files.copy(out.resolve("history.json"), target.resolve("history.json"));
        Files.copy(out.resolve("expected.json"), target.resolve("expected.json"));

        List<Map<String, Object>> files = new ArrayList<>();
        for (String dir : run.dataLogDir() ? List.of("data", "datalog") : List.of("data")) {
            for (String f : listFiles(target.resolve(dir))) {
                Path file = target.resolve(dir).resolve(f);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("path", dir + "/" + f);
                m.put("bytes", Files.size(file));
                m.put("sha256", sha256(file));
                files.add(m);
            }
        }
        if (run.archived()) {
            tarGz(target, "data", target.resolve("data.tar.gz"));
            Trees.deleteTree(target.resolve("data"));
        }

        addSeqRanges(phases, out.resolve("history.json"));
        Map<String, Object> runJson = new LinkedHashMap<>();
        runJson.put("run", run.name());
        runJson.put("description", run.description());
        runJson.put("serverVersion", run.upgradeTo() != null ? run.upgradeTo() : run.server());
        runJson.put("clientVersion", run.client());
        runJson.put("phases", phases);
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("snapCount", run.snapCount());
        settings.put("snapshotSizeFactor", null);
        settings.put("compression", run.compression());
        settings.put("digest", run.digest());
        settings.put("preAllocSizeKb", run.preAllocKb());
        settings.put("dataLogDir", run.dataLogDir());
        settings.put("tickTime", 2000);
        settings.put("sessionTimeoutMs", ZkWorkload.SESSION_TIMEOUT_MS);
        settings.put("systemProperties", props);
        runJson.put("settings", settings);
        runJson.put("ended", run.ended());
        Object lastAck = null;
        Object lastSent = null;
        if (run.ended().equals("killed")) {
            String kill = Files.readString(out.resolve("kill.json"));
            runJson.put("kill", new RawJson(kill));
        }
        runJson.put("lastAcknowledged", lastAck);
        runJson.put("lastSent", lastSent);
        runJson.put("purge", purge);
        runJson.put("archive", run.archived() ? "data.tar.gz" : null);
        runJson.put("files", files);
        runJson.put("seed", SEED);
        writeRunJson(target.resolve("run.json"), runJson);
        System.out.printf("== %s done in %d s%n", run.name(), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
    }

    /** A JSON text inserted as it is (the killed runs' last acknowledged and sent writes). */
    record RawJson(String text) {
    }

    private void writeRunJson(Path file, Map<String, Object> runJson) throws IOException {
        Object kill = runJson.remove("kill");
        if (kill instanceof RawJson raw) {
            // Put kill.json's lastAcknowledged and lastSent objects in place, keeping their field order.
            JsonFactory f = new JsonFactory();
            try (JsonParser p = f.createParser(raw.text())) {
                p.nextToken();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.getCurrentName();
                    p.nextToken();
                    runJson.put(name, readValue(p));
                }
            }
        }
        ZkJson.write(file, runJson);
    }

    /** The JSON value at the parser's current token: maps (in order), lists, strings, longs, doubles, booleans, null. */
    public static Object readValue(JsonParser p) throws IOException {
        switch (p.currentToken()) {
            case START_OBJECT -> {
                Map<String, Object> m = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.getCurrentName();
                    p.nextToken();
                    m.put(name, readValue(p));
                }
                return m;
            }
            case START_ARRAY -> {
                List<Object> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    l.add(readValue(p));
                }
                return l;
            }
            case VALUE_STRING -> {
                return p.getText();
            }
            case VALUE_NUMBER_INT -> {
                return p.getLongValue();
            }
            case VALUE_NUMBER_FLOAT -> {
                return p.getDoubleValue();
            }
            case VALUE_TRUE -> {
                return true;
            }
            case VALUE_FALSE -> {
                return false;
            }
            default -> {
                return null;
            }
        }
    }

    /** Each phase's seq range, from the "server" field of the writes (or all writes for one phase). */
    @SuppressWarnings("unchecked")
    private void addSeqRanges(List<Map<String, Object>> phases, Path historyFile) throws IOException {
        Object h;
        try (JsonParser p = new JsonFactory().createParser(historyFile.toFile())) {
            p.nextToken();
            h = readValue(p);
        }
        List<Map<String, Object>> writes = (List<Map<String, Object>>) ((Map<String, Object>) h).get("writes");
        for (Map<String, Object> ph : phases) {
            if (ph.get("ended").equals("purged")) {
                continue;
            }
            Long first = null;
            Long last = null;
            for (Map<String, Object> w : writes) {
                Object server = w.get("server");
                if (server == null || server.equals(ph.get("serverVersion"))) {
                    long seq = (Long) w.get("seq");
                    first = first == null ? seq : first;
                    last = seq;
                }
            }
            ph.put("firstSeq", first);
            ph.put("lastSeq", last);
        }
    }

    private static Map<String, Object> phase(String server, String ended) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("serverVersion", server);
        m.put("ended", ended);
        return m;
    }

    static Map<String, String> systemProperties(Run run) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("zookeeper.snapCount", Integer.toString(run.snapCount()));
        if (run.preAllocKb() != null) {
            p.put("zookeeper.preAllocSize", Integer.toString(run.preAllocKb()));
        }
        if (!run.compression().equals("none")) {
            p.put("zookeeper.snapshot.compression.method", run.compression());
        }
        if (Boolean.FALSE.equals(run.digest())) {
            p.put("zookeeper.digest.enabled", "false");
        }
        p.put("zookeeper.admin.enableServer", "false");
        return p;
    }

    private Process startServer(String version, Path scratch, Path data, Path dataLog, int port,
                                Map<String, String> props, String outName) throws IOException, InterruptedException {
        Path cfg = scratch.resolve("zoo-" + outName + ".cfg");
        List<String> lines = new ArrayList<>(List.of(
                "tickTime=2000",
                "dataDir=" + data,
                "clientPort=" + port,
                "clientPortAddress=127.0.0.1",
                "maxClientCnxns=0"));
        if (dataLog != null) {
            lines.add("dataLogDir=" + dataLog);
        }
        Files.write(cfg, lines);
        List<String> cmd = new ArrayList<>(List.of(ChildJvms.javaBin(), "-Xmx192m", logProperty(version, scratch)));
        props.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.addAll(List.of("-cp", classpath(version), "org.apache.zookeeper.server.ZooKeeperServerMain", cfg.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(scratch.resolve(outName).toFile()).start();
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly));
        return p;
    }

    Process startClient(String version, Path scratch, Properties job, String outName) throws IOException, InterruptedException {
        Path jobFile = scratch.resolve("job-" + outName + ".properties");
        try (Writer w = Files.newBufferedWriter(jobFile, StandardCharsets.UTF_8)) {
            job.store(w, null);
        }
        Process p = new ProcessBuilder(ChildJvms.javaBin(), "-Xmx192m", logProperty(version, scratch),
                "-cp", clientClasspath(version), ZkWorkload.class.getName(), jobFile.toString())
                .redirectError(scratch.resolve(outName).toFile())
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly));
        return p;
    }

    static void expectLine(BufferedReader r, String prefix, Process p, Path scratch) throws IOException {
        String line;
        while ((line = r.readLine()) != null) {
            if (line.startsWith(prefix)) {
                System.out.println("   " + line);
                return;
            }
        }
        throw new IOException("the workload ended without " + prefix + "; see " + scratch);
    }

    /** log4j 1.2 (3.3, 3.4, 3.5-3.7) and logback (3.8+) at INFO to the child's output. */
    private static void writeLogConfigs(Path scratch) throws IOException {
        Files.writeString(scratch.resolve("log4j.properties"), String.join("\n",
                "log4j.rootLogger=INFO, C",
                "log4j.appender.C=org.apache.log4j.ConsoleAppender",
                "log4j.appender.C.Target=System.err",
                "log4j.appender.C.layout=org.apache.log4j.PatternLayout",
                "log4j.appender.C.layout.ConversionPattern=%d %-5p [%t] %c{1} - %m%n", ""));
        Files.writeString(scratch.resolve("logback.xml"), String.join("\n",
                "<configuration>",
                "  <appender name=\"C\" class=\"ch.qos.logback.core.ConsoleAppender\">",
                "    <target>System.err</target>",
                "    <encoder><pattern>%d %-5level [%thread] %logger{0} - %msg%n</pattern></encoder>",
                "  </appender>",
                "  <root level=\"INFO\"><appender-ref ref=\"C\"/></root>",
                "</configuration>", ""));
    }

    private static String logProperty(String version, Path scratch) {
        return version.startsWith("3.8") || version.startsWith("3.9")
                ? "-Dlogback.configurationFile=" + scratch.resolve("logback.xml")
                : "-Dlog4j.configuration=file:" + scratch.resolve("log4j.properties");
    }

    static List<String> listFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).map(f -> dir.relativize(f).toString().replace('\\', '/'))
                    .sorted().collect(Collectors.toList());
        }
    }

    static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A ustar archive of {@code base/dir}, entries named {@code dir/...}, gzip'd. */
    static void tarGz(Path base, String dir, Path archive) throws IOException {
        List<String> entries = new ArrayList<>();
        try (Stream<Path> s = Files.walk(base.resolve(dir))) {
            s.sorted().forEach(p -> entries.add(base.relativize(p).toString().replace('\\', '/')));
        }
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(archive), 1 << 16)) {
            for (String name : entries) {
                Path p = base.resolve(name);
                boolean isDir = Files.isDirectory(p);
                long size = isDir ? 0 : Files.size(p);
                out.write(tarHeader(isDir ? name + "/" : name, size, isDir));
                if (!isDir) {
                    try (var in = Files.newInputStream(p)) {
                        in.transferTo(out);
                    }
                    int pad = (int) ((512 - size % 512) % 512);
                    out.write(new byte[pad]);
                }
            }
            out.write(new byte[1024]);
        }
    }

    private static byte[] tarHeader(String name, long size, boolean dir) {
        byte[] h = new byte[512];
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        if (n.length > 100) {
            throw new IllegalArgumentException("tar name too long: " + name);
        }
        System.arraycopy(n, 0, h, 0, n.length);
        octal(h, 100, 8, dir ? 0755 : 0644);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        octal(h, 124, 12, size);
        octal(h, 136, 12, 1_765_000_000L);
        Arrays.fill(h, 148, 156, (byte) ' ');
        h[156] = (byte) (dir ? '5' : '0');
        byte[] magic = "ustar\u000000".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(magic, 0, h, 257, magic.length);
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        octal(h, 148, 7, sum);
        return h;
    }

    private static void octal(byte[] h, int off, int len, long v) {
        String s = Long.toOctalString(v);
        while (s.length() < len - 1) {
            s = "0" + s;
        }
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(b, 0, h, off, len - 1);
        h[off + len - 1] = 0;
    }
}
