package io.segscope.testdata.generator;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.segscope.testdata.Corpus;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.internals.AppInfoParser;

/**
 * Writes {@code testdata/corpus/kraft-4.4.0-*} and {@code kraft-3.9.1-plain}: for each run, a
 * real Kafka broker (KRaft, combined broker+controller, child JVMs on 127.0.0.1) is formatted,
 * started, driven by
 * {@link Workload}, snapshotted through the Admin API ({@link AdminSnapshot}), stopped with
 * SIGTERM or SIGKILL, and its log dir copied into the corpus and dumped with Kafka's own
 * DumpLogSegments ({@link Dumper}).
 *
 * <p>Run only on request, through the {@code generate-corpus} Maven profile (see
 * {@code testdata/corpus/README.md}). Arguments: {@code --out DIR --runs plain,compressed,crashed,killed-mid-write,3.9.1-plain,replicas}
 * ({@code replicas}, a cluster of three brokers, is written by {@link ReplicaRun} beside
 * {@code --out}, into {@code ../corpus-replicas/}).
 * A 4.4.0 broker runs on this JVM's class path; a 3.9.1 broker on the jars resolved from
 * {@code testdata/generator-3.9.1/pom.xml}, any other release ({@code --runs 3.6.2-plain},
 * {@link RunSpec#versioned}) on those of {@code testdata/generator-kafka/pom.xml}
 * ({@code -Dkafka.version}); neither enters the build. {@code --out} may be outside the repository
 * (a scratch dir for runs that are compared but not committed). Clients, Admin and DumpLogSegments are always 4.4.0.
 */
public final class CorpusGenerator {
    private CorpusGenerator() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Paths.get("corpus");
        List<String> runs = List.of("plain", "compressed", "crashed", "killed-mid-write", "3.9.1-plain", "replicas");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out":
                    out = Paths.get(args[++i]);
                    break;
                case "--runs":
                    runs = List.of(args[++i].split(","));
                    break;
                default:
                    throw new IllegalArgumentException("usage: CorpusGenerator [--out DIR] [--runs plain,compressed,crashed,killed-mid-write,3.9.1-plain,replicas]");
            }
        }
        String classpath = System.getProperty("java.class.path");
        Path work = Files.createTempDirectory("segscope-corpus-");
        try {
            for (String r : runs) {
                RunSpec spec = RunSpec.byShortName(r);
                if (spec.kind() == RunSpec.Kind.REPLICAS) {
                    ReplicaRun.generate(spec, out.toAbsolutePath().getParent().resolve(ReplicaRun.CORPUS_DIR), work, classpath);
                    continue;
                }
                String brokerClasspath = classpath;
                if (spec.kafkaVersion().equals(RunSpec.KAFKA_391)) {
                    brokerClasspath = LegacyCorpusGenerator.resolveKafka391(Corpus.root(), work);
                } else if (!spec.kafkaVersion().equals(RunSpec.PINNED)) {
                    brokerClasspath = resolveKafka(Corpus.root(), work, spec.kafkaVersion());
                }
                generate(spec, out.toAbsolutePath(), work, brokerClasspath);
            }
        } finally {
            Trees.deleteTree(work);
        }
        // Client threads of closed-but-unreachable consumers must not keep the JVM alive.
        System.exit(0);
    }

    /**
     * The classpath of Kafka {@code version}'s broker, from the standalone
     * {@code testdata/generator-kafka/pom.xml} with {@code -Dkafka.version} (never the reactor).
     */
    static String resolveKafka(Path root, Path work, String version) throws IOException, InterruptedException {
        Path out = work.resolve("kafka-" + version + ".classpath");
        Path log = work.resolve("kafka-" + version + ".classpath.log");
        Process p = new ProcessBuilder("mvn", "-B", "-q", "-f", root.resolve("testdata/generator-kafka/pom.xml").toString(),
                "dependency:build-classpath", "-Dkafka.version=" + version, "-Dmdep.outputFile=" + out)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (p.waitFor() != 0) {
            throw new IOException("resolving Kafka " + version + " failed: see " + log);
        }
        return Files.readString(out).trim();
    }

    private static void generate(RunSpec spec, Path out, Path work, String classpath) throws Exception {
        long t0 = System.currentTimeMillis();
        Path runWork = work.resolve(spec.name());
        Path liveLogDir = runWork.resolve("logdir");
        Files.createDirectories(liveLogDir);
        Broker broker = new Broker(runWork, liveLogDir, classpath, spec.brokerOverrides());
        String clusterId = new Uuid(spec.seed(), ~spec.seed()).toString();
        System.out.println("[" + spec.name() + "] formatting " + liveLogDir + " (cluster " + clusterId + ")");
        broker.format(clusterId, spec.features());
        broker.start();
        long tUp = System.currentTimeMillis();
        System.out.println("[" + spec.name() + "] broker up at " + broker.bootstrap());

        Workload workload = new Workload(spec, broker, liveLogDir);
        boolean killedMidWrite = spec.kind() == RunSpec.Kind.KILLED;
        MidWriteBurst burst = killedMidWrite ? new MidWriteBurst(workload, runWork.resolve(MidWriteBurst.COPY_DIR)) : null;
        Map<String, Object> snapshot;
        List<Object> toolRuns;
        int exitCode;
        String stop;
        long tWorkload;
        try {
            if (killedMidWrite) {
                burst.run();
            } else {
                workload.run();
            }
            tWorkload = System.currentTimeMillis();
            snapshot = new AdminSnapshot(workload.admin(), broker::admin, Map.of(liveLogDir.toAbsolutePath().toString(), "logdir"),
                    List.of(), Set.of(1)).take();
            toolRuns = new KafkaTools(runWork.resolve("tools"), broker.bootstrap(), runWork.resolve("scratch"))
                    .runAll(Set.of(1), KafkaTools.transactionalIds(snapshot), KafkaTools.probeTimestamps(snapshot));
        } catch (Exception e) {
            try {
                broker.kill();
            } finally {
                if (burst != null) {
                    burst.stopClients();
                }
                workload.closeClients();
            }
            throw e;
        }
        Map<String, Long> cleanerOffsets = workload.cleanerOffsets();
        if (spec.kind() == RunSpec.Kind.CRASHED) {
            exitCode = broker.kill();
            stop = "SIGKILL";
        } else if (killedMidWrite) {
            try {
                exitCode = burst.kill(broker, 1500);
            } finally {
                burst.stopClients();
            }
            stop = "SIGKILL";
        } else {
            exitCode = broker.stopClean();
            stop = "SIGTERM";
        }
        long tStopped = System.currentTimeMillis();
        workload.closeClients();
        System.out.println("[" + spec.name() + "] broker stopped with " + stop + " (exit " + exitCode + ")");

        Path runDir = out.resolve(spec.name());
        Trees.deleteTree(runDir);
        Path logDir = runDir.resolve("logdir");
        Trees.copyTree(liveLogDir, logDir);
        Trees.copyTree(runWork.resolve("tools"), runDir.resolve("tools"));
        List<Map<String, Object>> manifest = manifest(logDir);
        Dumper dumper = new Dumper(runDir, killedMidWrite ? Set.of(MidWriteBurst.TOPIC) : Set.of());
        Map<String, Object> dumped = dumper.dumpAll(logDir, runDir.resolve("dump"));
        if (!manifest.equals(manifest(logDir))) {
            throw new IllegalStateException("DumpLogSegments changed files in " + logDir);
        }
        List<Map<String, Object>> copyManifest = null;
        if (killedMidWrite) {
            burst.recordKilledTails(logDir);
            Path copied = runDir.resolve(MidWriteBurst.COPY_DIR);
            Trees.copyTree(runWork.resolve(MidWriteBurst.COPY_DIR), copied);
            copyManifest = manifest(copied);
            // beside dump/, not in it: dump/ mirrors logdir/ partition for partition
            Map<String, Object> copyDumped = dumper.dumpAll(copied, runDir.resolve("dump-" + MidWriteBurst.COPY_DIR));
            for (Map.Entry<String, Object> e : copyDumped.entrySet()) {
                dumped.put(MidWriteBurst.COPY_DIR + "/" + e.getKey(), e.getValue());
            }
            if (!copyManifest.equals(manifest(copied))) {
                throw new IllegalStateException("DumpLogSegments changed files in " + copied);
            }
            workload.putReport("midWrite", burst.facts());
        }
        long tDumped = System.currentTimeMillis();
        Json.write(runDir.resolve("admin.json"), snapshot);

        Map<String, Object> run = new LinkedHashMap<>();
        run.put("name", spec.name());
        run.put("kafkaVersion", spec.kafkaVersion());
        run.put("clientsAndDumpVersion", AppInfoParser.getVersion());
        run.put("mode", "KRaft, combined broker+controller, node.id=1, one log dir");
        run.put("seed", "0x" + Long.toHexString(spec.seed()));
        run.put("clusterId", clusterId);
        run.put("formatFeatures", spec.features());
        run.put("brokerConfig", broker.reportableConfig());
        run.put("stop", Map.of("signal", stop, "exitCode", exitCode));
        Map<String, Object> timing = new LinkedHashMap<>();
        timing.put("startedAt", Instant.ofEpochMilli(t0).toString());
        timing.put("formatAndStartMs", tUp - t0);
        timing.put("workloadMs", tWorkload - tUp);
        timing.put("snapshotAndStopMs", tStopped - tWorkload);
        timing.put("copyAndDumpMs", tDumped - tStopped);
        run.put("timing", timing);
        run.put("workload", workload.report());
        run.put("cleanerOffsetCheckpointAtSnapshot", cleanerOffsets);
        run.put("toolRuns", toolRuns);
        run.put("dumpFlags", dumped);
        run.put("logdirManifest", manifest);
        if (copyManifest != null) {
            run.put("copiedWhileWritingManifest", copyManifest);
        }
        Json.write(runDir.resolve("run.json"), run);
        Trees.deleteTree(runWork);
        System.out.println("[" + spec.name() + "] written to " + runDir + " in "
                + (System.currentTimeMillis() - t0) / 1000 + " s");
    }

    /** Every file below {@code dir}: relative path, size and SHA-256, sorted by path. */
    static List<Map<String, Object>> manifest(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (Path f : files) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("path", dir.relativize(f).toString());
            m.put("size", Files.size(f));
            m.put("sha256", sha256(f));
            out.add(m);
        }
        return out;
    }

    private static String sha256(Path f) throws IOException {
        try (InputStream in = Files.newInputStream(f)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[65536];
            int n;
            while ((n = in.read(buf)) > 0) {
                md.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
