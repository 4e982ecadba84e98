package io.segscope.testdata.generator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * One combined broker+controller KRaft node of the pinned Kafka release, run as a child JVM on
 * 127.0.0.1 with ports picked at run time. The log dir is formatted with Kafka's own
 * {@code kafka.tools.StorageTool} (another child JVM) before the first start.
 *
 * <p>Every child process is registered with a JVM shutdown hook that kills it, so an aborted
 * generator never leaves a broker behind.
 */
public final class Broker {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Process p : LIVE) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }, "kill-child-jvms"));
    }

    private final Path workDir;
    private final Path logDir;
    private final String classpath;
    private final Map<String, String> config = new TreeMap<>();
    private final int brokerPort;
    private final int controllerPort;
    /** What {@link #reportableConfig()} shows instead of the log dir's absolute path. */
    private final String logDirLabel;
    /** A KRaft controller without a broker: no PLAINTEXT listener, ready when its port accepts. */
    private final boolean controllerOnly;
    private Process process;

    /**
     * @param workDir scratch directory for server.properties and the broker's console output
     * @param logDir  the broker's single log dir (also the metadata log dir)
     * @param overrides settings that replace or extend the single-node defaults
     */
    public Broker(Path workDir, Path logDir, String classpath, Map<String, String> overrides) {
        this.workDir = workDir;
        this.logDir = logDir;
        this.classpath = classpath;
        this.brokerPort = ChildJvms.freePort();
        this.controllerPort = ChildJvms.freePort();
        this.logDirLabel = "<run>/logdir";
        this.controllerOnly = false;
        config.put("process.roles", "broker,controller");
        config.put("node.id", "1");
        config.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        config.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        config.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        config.put("controller.listener.names", "CONTROLLER");
        config.put("inter.broker.listener.name", "PLAINTEXT");
        config.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        config.put("log.dirs", logDir.toAbsolutePath().toString());
        config.put("num.partitions", "1");
        config.put("offsets.topic.replication.factor", "1");
        config.put("transaction.state.log.replication.factor", "1");
        config.put("transaction.state.log.min.isr", "1");
        config.put("share.coordinator.state.topic.replication.factor", "1");
        config.put("share.coordinator.state.topic.min.isr", "1");
        config.put("group.initial.rebalance.delay.ms", "0");
        config.put("auto.create.topics.enable", "false");
        config.putAll(overrides);
    }

    private Broker(Path workDir, Path logDir, String classpath, Map<String, String> config, int brokerPort,
                   int controllerPort, String logDirLabel, boolean controllerOnly) {
        this.workDir = workDir;
        this.logDir = logDir;
        this.classpath = classpath;
        this.config.putAll(config);
        this.brokerPort = brokerPort;
        this.controllerPort = controllerPort;
        this.logDirLabel = logDirLabel;
        this.controllerOnly = controllerOnly;
    }

    /**
     * A controller-only KRaft node ({@code process.roles=controller}), the single voter of a
     * cluster whose brokers are {@link #brokerOnly} nodes.
     */
    static Broker controllerOnly(Path workDir, Path logDir, String classpath, int nodeId, int controllerPort,
                                 Map<String, String> overrides) {
        Map<String, String> c = new TreeMap<>();
        c.put("process.roles", "controller");
        c.put("node.id", String.valueOf(nodeId));
        c.put("controller.quorum.voters", nodeId + "@127.0.0.1:" + controllerPort);
        c.put("listeners", "CONTROLLER://127.0.0.1:" + controllerPort);
        c.put("controller.listener.names", "CONTROLLER");
        c.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT");
        c.put("log.dirs", logDir.toAbsolutePath().toString());
        c.putAll(overrides);
        return new Broker(workDir, logDir, classpath, c, controllerPort, controllerPort, "<run>/controller", true);
    }

    /**
     * A broker-only KRaft node ({@code process.roles=broker}) of a cluster whose single voter is
     * the controller {@code controllerId} on {@code controllerPort}; its one log dir is reported as
     * {@code logDirLabel}.
     */
    static Broker brokerOnly(Path workDir, Path logDir, String classpath, int nodeId, int controllerId,
                             int controllerPort, String logDirLabel, Map<String, String> overrides) {
        int port = ChildJvms.freePort();
        Map<String, String> c = new TreeMap<>();
        c.put("process.roles", "broker");
        c.put("node.id", String.valueOf(nodeId));
        c.put("controller.quorum.voters", controllerId + "@127.0.0.1:" + controllerPort);
        c.put("listeners", "PLAINTEXT://127.0.0.1:" + port);
        c.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        c.put("controller.listener.names", "CONTROLLER");
        c.put("inter.broker.listener.name", "PLAINTEXT");
        c.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        c.put("log.dirs", logDir.toAbsolutePath().toString());
        c.put("group.initial.rebalance.delay.ms", "0");
        c.put("auto.create.topics.enable", "false");
        c.putAll(overrides);
        return new Broker(workDir, logDir, classpath, c, port, controllerPort, logDirLabel, false);
    }

    /** The broker's log dir (its only one). */
    Path logDir() {
        return logDir;
    }

    /** Whether the node's JVM runs. */
    boolean isAlive() {
        return process != null && process.isAlive();
    }

    public String bootstrap() {
        return "127.0.0.1:" + brokerPort;
    }

    /** The server.properties as written, with the run-specific ports and path masked. */
    public Map<String, String> reportableConfig() {
        Map<String, String> out = new TreeMap<>(config);
        out.replaceAll((k, v) -> v.replace(String.valueOf(brokerPort), "<broker-port>")
                .replace(String.valueOf(controllerPort), "<controller-port>")
                .replace(logDir.toAbsolutePath().toString(), logDirLabel));
        return out;
    }

    /** Runs {@code kafka.tools.StorageTool format}; waits for it to finish. */
    void format(String clusterId, List<String> features) throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path props = writeProperties();
        List<String> args = new ArrayList<>(List.of("kafka.tools.StorageTool", "format", "-t", clusterId,
                "-c", props.toString()));
        for (String f : features) {
            args.add("--feature");
            args.add(f);
        }
        Process p = startJvm(args, workDir.resolve("format.out"));
        try {
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                throw new IllegalStateException("StorageTool format did not finish in 180 s");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("StorageTool format failed (exit " + p.exitValue() + "): "
                        + Files.readString(workDir.resolve("format.out")));
            }
        } finally {
            p.destroyForcibly();
            LIVE.remove(p);
        }
    }

    /** Starts {@code kafka.Kafka} and waits until the Admin API answers. */
    public void start() throws IOException, InterruptedException {
        Path props = writeProperties();
        process = startJvm(List.of("kafka.Kafka", props.toString()), workDir.resolve("broker.out"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        if (controllerOnly) {
            while (!listening(controllerPort)) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("controller did not come up; see " + workDir.resolve("broker.out"));
                }
                Thread.sleep(300);
            }
            return;
        }
        try (Admin admin = admin()) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("broker exited with " + process.exitValue()
                            + "; see " + workDir.resolve("broker.out"));
                }
                try {
                    admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    admin.listTopics().names().get(5, TimeUnit.SECONDS);
                    return;
                } catch (Exception notYet) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("broker did not come up in 180 s; see "
                                + workDir.resolve("broker.out"), notYet);
                    }
                    Thread.sleep(500);
                }
            }
        }
    }

    private static boolean listening(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "30000");
        return Admin.create(p);
    }

    /** SIGTERM: Kafka's controlled shutdown, which leaves {@code .kafka_cleanshutdown}. Returns the exit code. */
    public int stopClean() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw new IllegalStateException("broker ignored SIGTERM for 180 s and was killed");
        }
        LIVE.remove(process);
        return process.exitValue();
    }

    /** SIGKILL: no shutdown hooks, no flush, no clean-shutdown marker. Returns the exit code. */
    public int kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(60, TimeUnit.SECONDS);
        LIVE.remove(process);
        return process.exitValue();
    }

    private Path writeProperties() {
        Path props = workDir.resolve("server.properties");
        try (Writer w = Files.newBufferedWriter(props, StandardCharsets.UTF_8)) {
            for (Map.Entry<String, String> e : config.entrySet()) {
                w.write(e.getKey() + "=" + e.getValue() + "\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return props;
    }

    private Process startJvm(List<String> mainAndArgs, Path output) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ChildJvms.javaBin());
        cmd.add("-Xmx512m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-Djava.awt.headless=true");
        cmd.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
        cmd.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.addAll(mainAndArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        Process p = pb.start();
        LIVE.add(p);
        return p;
    }
}
