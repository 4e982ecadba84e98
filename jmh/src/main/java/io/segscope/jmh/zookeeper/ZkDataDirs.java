package io.segscope.jmh.zookeeper;

import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A big ZooKeeper data dir written by a real ZooKeeper 3.9.5 server (embedded, standalone), made
 * on first use under {@code ${data}/zk${znodes}} and never committed: old consumers' offsets of
 * many groups (a tenth of the znodes), Kafka's topic metadata, and unrelated application znodes;
 * then a round of setData on every offset. Snapshots are taken along the way ({@code snapCount}).
 */
final class ZkDataDirs {
    private ZkDataDirs() {
    }

    static Path dataDir(Path data, int znodes) throws Exception {
        Path dir = data.resolve("zk" + znodes);
        if (Files.exists(dir.resolve("done"))) {
            return dir;
        }
        Files.createDirectories(dir);
        System.setProperty("zookeeper.snapCount", Integer.toString(Math.max(1000, znodes / 2)));
        System.setProperty("zookeeper.admin.enableServer", "false");
        ZooKeeperServer zks = new ZooKeeperServer(dir.toFile(), dir.toFile(), 2000);
        ServerCnxnFactory factory = ServerCnxnFactory.createFactory(0, 10);
        factory.startup(zks);
        try {
            CountDownLatch up = new CountDownLatch(1);
            ZooKeeper zk = new ZooKeeper("127.0.0.1:" + factory.getLocalPort(), 30000, e -> {
                if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    up.countDown();
                }
            });
            if (!up.await(30, TimeUnit.SECONDS)) {
                throw new IOException("no connection to the embedded server");
            }
            Pipeline p = new Pipeline(zk);
            for (String root : new String[]{"/consumers", "/brokers", "/brokers/topics", "/apps"}) {
                p.create(root, null);
            }
            int groups = Math.max(1, znodes / 800);
            int topics = 10;
            int partitions = 8;
            for (int t = 0; t < topics; t++) {
                p.create("/brokers/topics/topic-" + t, ("{\"version\":1,\"partitions\":{\"0\":[1,2]}}").getBytes(StandardCharsets.UTF_8));
            }
            for (int g = 0; g < groups; g++) {
                String gp = "/consumers/group-" + g;
                p.create(gp, null);
                p.create(gp + "/offsets", null);
                for (int t = 0; t < topics; t++) {
                    p.create(gp + "/offsets/topic-" + t, null);
                    for (int q = 0; q < partitions; q++) {
                        p.create(gp + "/offsets/topic-" + t + "/" + q, Long.toString(g * 1000L + q).getBytes(StandardCharsets.US_ASCII));
                    }
                }
            }
            int apps = Math.max(0, znodes - groups * (2 + topics * (1 + partitions)));
            int perDir = 100;
            for (int a = 0; a < apps; a++) {
                if (a % perDir == 0) {
                    p.create("/apps/dir-" + a / perDir, null);
                }
                p.create("/apps/dir-" + a / perDir + "/node-" + a, ("app data " + a).getBytes(StandardCharsets.UTF_8));
            }
            for (int g = 0; g < groups; g++) {
                for (int t = 0; t < topics; t++) {
                    for (int q = 0; q < partitions; q++) {
                        p.setData("/consumers/group-" + g + "/offsets/topic-" + t + "/" + q,
                                Long.toString(g * 1000L + q + 500).getBytes(StandardCharsets.US_ASCII));
                    }
                }
            }
            p.drain();
            zk.close();
        } finally {
            factory.shutdown();
            zks.shutdown();
        }
        Files.writeString(dir.resolve("done"), "");
        return dir;
    }

    /** Asynchronous writes, at most 2,000 in flight. */
    private static final class Pipeline {
        private final ZooKeeper zk;
        private final Semaphore inFlight = new Semaphore(2000);
        private final AsyncCallback.StringCallback created = (rc, path, ctx, name) -> done(rc);
        private final AsyncCallback.StatCallback set = (rc, path, ctx, stat) -> done(rc);
        private volatile int failed;

        Pipeline(ZooKeeper zk) {
            this.zk = zk;
        }

        private void done(int rc) {
            if (rc != 0) {
                failed = rc;
            }
            inFlight.release();
        }

        void create(String path, byte[] data) throws InterruptedException {
            inFlight.acquire();
            zk.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, created, null);
        }

        void setData(String path, byte[] data) throws InterruptedException {
            inFlight.acquire();
            zk.setData(path, data, -1, set, null);
        }

        void drain() throws InterruptedException, IOException {
            inFlight.acquire(2000);
            inFlight.release(2000);
            if (failed != 0) {
                throw new IOException("a write failed: " + failed);
            }
        }
    }
}
