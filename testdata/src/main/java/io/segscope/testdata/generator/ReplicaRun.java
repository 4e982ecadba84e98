package io.segscope.testdata.generator;

import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.internals.AppInfoParser;

/**
 * Writes {@code testdata/corpus-replicas/kraft-4.4.0-replicas}: a {@link ReplicaCluster} is
 * formatted and started, driven by {@link ReplicaWorkload}, snapshotted ({@link AdminSnapshot})
 * and Kafka's tools run ({@link KafkaTools}) at one moment, the running brokers stopped with
 * SIGTERM (broker 3 was SIGKILLed part way), and every broker's log dir copied into
 * {@code logdirs/broker-<id>/} and dumped into {@code dumps/broker-<id>/}.
 *
 * <p>The run lives beside {@code testdata/corpus/}, not in it: the tests that go over every
 * corpus run read one {@code logdir/} per run (and the golden outputs cover the whole of
 * {@code testdata/corpus/}); {@code io.segscope.testdata.Corpus#replicaRuns()} lists these runs.
 */
final class ReplicaRun {
    /** Beside {@code testdata/corpus/}. */
    static final String CORPUS_DIR = "corpus-replicas";

    private ReplicaRun() {
    }

    private static Map<String, Object> stop(String node, int exitCode, String when) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("node", node);
        m.put("signal", "SIGTERM");
        m.put("exitCode", exitCode);
        m.put("when", when);
        return m;
    }

    static void generate(RunSpec spec, Path out, Path work, String classpath) throws Exception {
        long t0 = System.currentTimeMillis();
        Path runWork = work.resolve(spec.name());
        ReplicaCluster cluster = new ReplicaCluster(runWork, classpath, spec.brokerOverrides());
        String clusterId = new Uuid(spec.seed(), ~spec.seed()).toString();
        System.out.println("[" + spec.name() + "] formatting a controller and brokers " + ReplicaCluster.BROKER_IDS
                + " (cluster " + clusterId + ")");
        cluster.format(clusterId);
        cluster.startAll();
        long tUp = System.currentTimeMillis();
        System.out.println("[" + spec.name() + "] cluster up at " + cluster.bootstrap());

        ReplicaWorkload workload = new ReplicaWorkload(cluster, spec.seed());
        Map<String, Object> snapshot;
        List<Object> toolRuns;
        long tWorkload;
        List<Object> stops = new java.util.ArrayList<>();
        try {
            workload.beforeDivergence();
            workload.divergence();
            stops.addAll(workload.stops());
            workload.afterDivergence();
            tWorkload = System.currentTimeMillis();
            Map<String, String> labels = new LinkedHashMap<>();
            for (int id : ReplicaCluster.BROKER_IDS) {
                labels.put(ReplicaCluster.logDir(runWork, id).toAbsolutePath().toString(), ReplicaCluster.label(id));
            }
            // a new client: the workload's one still has the SIGKILLed broker in its metadata
            try (org.apache.kafka.clients.admin.Admin fresh = cluster.liveAdmin()) {
                snapshot = new AdminSnapshot(fresh, cluster::liveAdmin, labels, workload.probeTimestamps(), cluster.brokerIds()).take();
            }
            toolRuns = new KafkaTools(runWork.resolve("tools"), cluster.liveBootstrap(), runWork.resolve("scratch"))
                    .runAll(cluster.brokerIds(), KafkaTools.transactionalIds(snapshot), workload.probeTimestamps());
        } catch (Exception e) {
            try {
                cluster.killAll();
            } finally {
                workload.closeClients();
            }
            throw e;
        }
        // SIGTERM the running brokers (controlled shutdown), then the controller.
        for (int id : ReplicaCluster.BROKER_IDS) {
            Broker b = cluster.broker(id);
            if (b.isAlive()) {
                stops.add(stop("broker-" + id, b.stopClean(), "end of run"));
            }
        }
        stops.add(stop("controller-" + ReplicaCluster.CONTROLLER_ID, cluster.controller().stopClean(),
                "end of run, after the brokers"));
        long tStopped = System.currentTimeMillis();
        workload.closeClients();
        System.out.println("[" + spec.name() + "] cluster stopped: " + stops);

        Path runDir = out.resolve(spec.name());
        Trees.deleteTree(runDir);
        Map<String, Object> manifests = new LinkedHashMap<>();
        Map<String, Object> dumpFlags = new LinkedHashMap<>();
        Dumper dumper = new Dumper(runDir);
        for (int id : ReplicaCluster.BROKER_IDS) {
            Path logDir = runDir.resolve(ReplicaCluster.label(id));
            Trees.copyTree(ReplicaCluster.logDir(runWork, id), logDir);
            List<Map<String, Object>> manifest = CorpusGenerator.manifest(logDir);
            dumpFlags.put("broker-" + id, dumper.dumpAll(logDir, runDir.resolve("dumps/broker-" + id)));
            if (!manifest.equals(CorpusGenerator.manifest(logDir))) {
                throw new IllegalStateException("DumpLogSegments changed files in " + logDir);
            }
            manifests.put("broker-" + id, manifest);
        }
        Trees.copyTree(runWork.resolve("tools"), runDir.resolve("tools"));
        long tDumped = System.currentTimeMillis();
        Json.write(runDir.resolve("admin.json"), snapshot);

        Map<String, Object> run = new LinkedHashMap<>();
        run.put("name", spec.name());
        run.put("kafkaVersion", spec.kafkaVersion());
        run.put("clientsAndDumpVersion", AppInfoParser.getVersion());
        run.put("mode", "KRaft, one controller-only node (node.id=" + ReplicaCluster.CONTROLLER_ID
                + ", its metadata log not committed) and three broker-only nodes (1, 2, 3), one log dir each");
        run.put("seed", "0x" + Long.toHexString(spec.seed()));
        run.put("clusterId", clusterId);
        run.put("formatFeatures", spec.features());
        Map<String, Object> configs = new LinkedHashMap<>();
        configs.put("controller-" + ReplicaCluster.CONTROLLER_ID, cluster.controller().reportableConfig());
        for (int id : ReplicaCluster.BROKER_IDS) {
            configs.put("broker-" + id, cluster.broker(id).reportableConfig());
        }
        run.put("nodeConfigs", configs);
        run.put("stops", stops);
        Map<String, Object> timing = new LinkedHashMap<>();
        timing.put("startedAt", Instant.ofEpochMilli(t0).toString());
        timing.put("formatAndStartMs", tUp - t0);
        timing.put("workloadMs", tWorkload - tUp);
        timing.put("snapshotToolsAndStopMs", tStopped - tWorkload);
        timing.put("copyAndDumpMs", tDumped - tStopped);
        run.put("timing", timing);
        run.put("workload", workload.report());
        run.put("toolRuns", toolRuns);
        run.put("dumpFlags", dumpFlags);
        run.put("logdirManifests", manifests);
        Json.write(runDir.resolve("run.json"), run);
        Trees.deleteTree(runWork);
        System.out.println("[" + spec.name() + "] written to " + runDir + " in "
                + (System.currentTimeMillis() - t0) / 1000 + " s");
    }
}
