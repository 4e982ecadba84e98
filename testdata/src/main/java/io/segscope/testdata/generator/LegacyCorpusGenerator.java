package io.segscope.testdata.generator;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Makes {@code testdata/corpus/legacy-*}: real log dirs written by a Kafka 3.9.1 broker in
 * ZooKeeper mode told to write the old formats (magic 0 and 1, old coordinator value versions)
 * through {@code inter.broker.protocol.version} and {@code log.message.format.version}; see
 * {@code testdata/corpus/LEGACY.md}.
 *
 * <p>For each {@link Run}: ZooKeeper 3.8 and a 3.9.1 broker start as child JVMs on 127.0.0.1
 * (free ports) with the 3.9.1 jars, which are resolved by the standalone
 * {@code testdata/generator-3.9.1/pom.xml} and never enter this build's classpaths. The workload
 * ({@link LegacyWorkload}) runs in this JVM with Kafka 4.4.0's clients. The broker, then
 * ZooKeeper, stop on SIGTERM (clean shutdown); the log dir is copied to
 * {@code testdata/corpus/<run>/logdir}, next to {@code admin.json} and {@code dump/} (Kafka
 * 4.4.0 DumpLogSegments for every segment, index and snapshot file).
 *
 * <p>Usage: {@code LegacyCorpusGenerator <repository root> [run name,...]} (all runs by default).
 * Scratch space (ZooKeeper data, broker logs) is {@code testdata/work/legacy/}, which git ignores.
 */
public final class LegacyCorpusGenerator {

    /**
     * One broker lifetime: its {@code inter.broker.protocol.version},
     * {@code log.message.format.version} and {@code offsets.topic.compression.codec} (Kafka's
     * codec id: 0 none, 1 gzip, 2 snappy, 3 lz4).
     */
    record Run(String name, String ibp, String messageFormat, int offsetsCodec, boolean staticMembers) {
    }

    static final List<Run> RUNS = List.of(
            new Run("legacy-3.9.1-ibp0.10.2-gzip", "0.10.2", "0.10.0", 1, false),
            new Run("legacy-3.9.1-ibp0.10.0-none", "0.10.0", "0.9.0", 0, false),
            new Run("legacy-3.9.1-ibp2.1-snappy", "2.1-IV0", "0.10.2", 2, false),
            // Static membership (group.instance.id) needs IBP 2.3 or later.
            new Run("legacy-3.9.1-ibp2.8-lz4", "2.8", "0.10.2", 3, true));

    private LegacyCorpusGenerator() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        List<String> wanted = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            Arrays.stream(args[i].split(",")).map(String::trim).filter(x -> !x.isEmpty()).forEach(wanted::add);
        }
        Path work = root.resolve("testdata/work/legacy");
        Files.createDirectories(work);
        String cp391 = resolveKafka391(root, work);
        for (Run run : RUNS) {
            if (wanted.isEmpty() || wanted.contains(run.name())) {
                generate(root, work, cp391, run);
            }
        }
    }

    /** The 3.9.1 broker classpath, from the standalone pom (never the reactor). */
    static String resolveKafka391(Path root, Path work) throws IOException, InterruptedException {
        Path out = work.resolve("kafka-3.9.1.classpath");
        Process p = new ProcessBuilder("mvn", "-B", "-q", "-f", root.resolve("testdata/generator-3.9.1/pom.xml").toString(),
                "dependency:build-classpath", "-Dmdep.outputFile=" + out)
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("kafka-3.9.1.classpath.log").toFile())
                .start();
        if (p.waitFor() != 0) {
            throw new IOException("resolving Kafka 3.9.1 failed: see " + work.resolve("kafka-3.9.1.classpath.log"));
        }
        return Files.readString(out).trim();
    }

    static void generate(Path root, Path work, String cp391, Run run) throws Exception {
        long started = System.nanoTime();
        System.out.println("== " + run.name());
        Path runDir = work.resolve(run.name());
        Trees.deleteTree(runDir);
        Path zkData = Files.createDirectories(runDir.resolve("zookeeper"));
        Path logDir = Files.createDirectories(runDir.resolve("logdir"));
        int zkPort = ChildJvms.freePort();
        int brokerPort = ChildJvms.freePort();

        Path zkProps = runDir.resolve("zookeeper.properties");
        Files.writeString(zkProps, String.join("\n",
                "dataDir=" + zkData,
                "clientPort=" + zkPort,
                "clientPortAddress=127.0.0.1",
                "maxClientCnxns=0",
                "admin.enableServer=false",
                "4lw.commands.whitelist=",
                ""));
        Path serverProps = runDir.resolve("server.properties");
        Files.writeString(serverProps, String.join("\n",
                "broker.id=0",
                "listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
                "zookeeper.connect=127.0.0.1:" + zkPort,
                "zookeeper.session.timeout.ms=18000",
                "log.dirs=" + logDir,
                "num.partitions=1",
                "inter.broker.protocol.version=" + run.ibp(),
                "log.message.format.version=" + run.messageFormat(),
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=5",
                "offsets.topic.segment.bytes=16384",
                "offsets.topic.compression.codec=" + run.offsetsCodec(),
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=false",
                // Keep every record the workload wrote: no compaction of __consumer_offsets.
                "log.cleaner.enable=false",
                "log.segment.bytes=16384",
                "log.retention.hours=-1",
                "controlled.shutdown.enable=true",
                ""));

        Process zk = startJvm(cp391, "256m", "org.apache.zookeeper.server.quorum.QuorumPeerMain", zkProps,
                runDir.resolve("zookeeper.out"));
        Process broker = null;
        try {
            waitForPort(zkPort, 60, zk, runDir.resolve("zookeeper.out"));
            broker = startJvm(cp391, "768m", "kafka.Kafka", serverProps, runDir.resolve("broker.out"));
            waitForPort(brokerPort, 120, broker, runDir.resolve("broker.out"));
            String adminJson = LegacyWorkload.run("127.0.0.1:" + brokerPort, run);
            Files.writeString(runDir.resolve("admin.json"), adminJson, StandardCharsets.UTF_8);
            stop(broker, "broker", 180);
            broker = null;
        } finally {
            if (broker != null) {
                broker.destroyForcibly();
            }
            stop(zk, "zookeeper", 60);
        }

        Path target = root.resolve("testdata/corpus").resolve(run.name());
        Trees.deleteTree(target);
        Trees.copyTree(logDir, target.resolve("logdir"));
        Files.copy(runDir.resolve("admin.json"), target.resolve("admin.json"));
        LegacyDumps.dumpTree(target.resolve("logdir"), target.resolve("dump"), root, System.getProperty("java.class.path"));
        System.out.printf("== %s done in %d s%n", run.name(), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
    }

    static Process startJvm(String classpath, String heap, String mainClass, Path config, Path output) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(ChildJvms.javaBin(), "-Xmx" + heap, "-Xms64m",
                "-Djava.awt.headless=true",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dzookeeper.admin.enableServer=false",
                "-cp", classpath, mainClass, config.toString()));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    /** SIGTERM, then wait: Kafka and ZooKeeper shut down cleanly on it. */
    static void stop(Process p, String what, int seconds) throws InterruptedException, IOException {
        if (!p.isAlive()) {
            System.out.println(what + " had already exited with " + p.exitValue());
            return;
        }
        p.destroy();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(what + " did not stop within " + seconds + " s of SIGTERM");
        }
        System.out.println(what + " stopped on SIGTERM, exit code " + p.exitValue());
    }

    static void waitForPort(int port, int seconds, Process owner, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (!owner.isAlive()) {
                throw new IOException("process exited with " + owner.exitValue() + "; see " + log);
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(250);
            }
        }
        throw new IOException("nothing listens on 127.0.0.1:" + port + " after " + seconds + " s; see " + log);
    }
}
