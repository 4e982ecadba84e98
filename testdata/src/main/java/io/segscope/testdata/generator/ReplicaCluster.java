package io.segscope.testdata.generator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A KRaft cluster of one controller-only node ({@value #CONTROLLER_ID}) and three broker-only
 * nodes ({@code 1}, {@code 2}, {@code 3}), each broker with one log dir
 * ({@code <work>/logdirs/broker-<id>}), all child JVMs on 127.0.0.1. A dedicated controller keeps
 * the metadata quorum up whichever brokers are stopped, which the replicas run needs (it stops
 * and kills brokers part way). Every node is formatted with {@code kafka.tools.StorageTool} and
 * the same cluster id; the controller is the single static voter.
 */
final class ReplicaCluster {
    static final int CONTROLLER_ID = 0;
    static final List<Integer> BROKER_IDS = List.of(1, 2, 3);

    private final Broker controller;
    private final Map<Integer, Broker> brokers = new TreeMap<>();

    ReplicaCluster(Path work, String classpath, Map<String, String> brokerOverrides) {
        int controllerPort = ChildJvms.freePort();
        controller = Broker.controllerOnly(work.resolve("controller"), work.resolve("controller/metadata"), classpath,
                CONTROLLER_ID, controllerPort, Map.of("metadata.log.max.snapshot.interval.ms", "15000"));
        for (int id : BROKER_IDS) {
            brokers.put(id, Broker.brokerOnly(work.resolve("node-" + id), logDir(work, id), classpath, id,
                    CONTROLLER_ID, controllerPort, "<run>/" + label(id), brokerOverrides));
        }
    }

    /** The broker's log dir below {@code work} (and, the same relative path, below the run). */
    static Path logDir(Path work, int id) {
        return work.resolve(label(id));
    }

    /** {@code logdirs/broker-<id>}. */
    static String label(int id) {
        return "logdirs/broker-" + id;
    }

    void format(String clusterId) throws IOException, InterruptedException {
        Files.createDirectories(controller.logDir());
        controller.format(clusterId, List.of());
        for (Broker b : brokers.values()) {
            Files.createDirectories(b.logDir());
            b.format(clusterId, List.of());
        }
    }

    void startAll() throws IOException, InterruptedException {
        controller.start();
        for (Broker b : brokers.values()) {
            b.start();
        }
    }

    Broker broker(int id) {
        return brokers.get(id);
    }

    Broker controller() {
        return controller;
    }

    /** Every broker's {@code host:port}, running or not (clients skip the ones that do not answer). */
    String bootstrap() {
        List<String> out = new ArrayList<>();
        for (Broker b : brokers.values()) {
            out.add(b.bootstrap());
        }
        return String.join(",", out);
    }

    /** The {@code host:port} of the running brokers only (Kafka's tools are given these). */
    String liveBootstrap() {
        List<String> out = new ArrayList<>();
        for (Broker b : brokers.values()) {
            if (b.isAlive()) {
                out.add(b.bootstrap());
            }
        }
        return String.join(",", out);
    }

    Set<Integer> brokerIds() {
        return new TreeSet<>(BROKER_IDS);
    }

    Admin admin() {
        return admin(bootstrap());
    }

    /** A new Admin client bootstrapped from the running brokers only. */
    Admin liveAdmin() {
        return admin(liveBootstrap());
    }

    private static Admin admin(String bootstrap) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "20000");
        return Admin.create(p);
    }

    /** Kills every node still running (the generator failed). */
    void killAll() {
        for (Broker b : brokers.values()) {
            if (b.isAlive()) {
                try {
                    b.kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        if (controller.isAlive()) {
            try {
                controller.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
