package io.segscope.format.zookeeper;

import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.persistence.SnapStream;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A seeded random workload run against an embedded ZooKeeper 3.9.5 server: every create mode,
 * failing writes, multi-ops (some failing), setACL, sessions opened, closed and left open,
 * snapshots forced while writes go on; compression, digest and a separate dataLogDir by seed.
 */
final class ZkWorkload {
    static {
        System.setProperty("zookeeper.admin.enableServer", "false");
        System.setProperty("zookeeper.snapCount", "100000");
    }

    /** Where a workload left its files. */
    record Dirs(Path snapDir, Path logDir, String compression, boolean digest) {
        /** The dir holding the dataDir and the dataLogDir. */
        Path root() {
            return snapDir.getParent().getParent();
        }
    }

    private static final String[] GROUPS = {"g0", "grp,1", "g:2"};
    private static final String[] TOPICS = {"t0", "topic.1"};

    private ZkWorkload() {
    }

    static Dirs run(Path base, long seed, int ops) throws Exception {
        Random r = new Random(seed);
        String compression = switch ((int) (seed % 3)) {
            case 1 -> "gz";
            case 2 -> "snappy";
            default -> "none";
        };
        boolean digest = seed % 2 == 0;
        boolean separate = seed % 4 == 1;
        Path snap = base.resolve("data");
        Path log = separate ? base.resolve("datalog") : snap;
        Files.createDirectories(snap);
        Files.createDirectories(log);
        SnapStream.setStreamMode(SnapStream.getStreamMode("snapshot.1." + (compression.equals("none") ? "x" : compression)));
        ZooKeeperServer.setDigestEnabled(digest);
        System.setProperty("zookeeper.extendedTypesEnabled", "true");
        org.apache.zookeeper.server.persistence.FilePadding.setPreallocSize(r.nextBoolean() ? 4096 : 65536);
        // its constructor hands the first dir to FileTxnSnapLog as the log dir
        ZooKeeperServer zks = new ZooKeeperServer(log.toFile(), snap.toFile(), 2000);
        ServerCnxnFactory factory = ServerCnxnFactory.createFactory(0, 100);
        factory.startup(zks);
        List<ZooKeeper> clients = new ArrayList<>();
        List<Thread> snapshots = new ArrayList<>();
        try {
            String connect = "127.0.0.1:" + factory.getLocalPort();
            clients.add(connect(connect));
            clients.add(connect(connect));
            for (int i = 0; i < ops; i++) {
                int pick = r.nextInt(100);
                if (pick < 4 && clients.size() < 6) {
                    clients.add(connect(connect));
                    continue;
                }
                if (pick < 7 && clients.size() > 1) {
                    clients.remove(1 + r.nextInt(clients.size() - 1)).close();
                    continue;
                }
                if (pick < 10) {
                    Thread t = new Thread(() -> {
                        try {
                            zks.takeSnapshot();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    t.start();
                    snapshots.add(t);
                    continue;
                }
                ZooKeeper zk = clients.get(r.nextInt(clients.size()));
                try {
                    op(zk, r, pick);
                } catch (KeeperException e) {
                    // failing writes are part of the workload
                }
            }
            for (Thread t : snapshots) {
                t.join();
            }
            // leave the first client's session open: no closeSession is logged for it
        } finally {
            factory.shutdown();
            zks.shutdown();
            for (ZooKeeper zk : clients) {
                zk.close(10);
            }
            System.clearProperty("zookeeper.extendedTypesEnabled");
            SnapStream.setStreamMode(SnapStream.StreamMode.CHECKED);
            ZooKeeperServer.setDigestEnabled(true);
        }
        settle(snap, log);
        return new Dirs(snap.resolve("version-2"), log.resolve("version-2"), compression, digest);
    }

    /** Waits until the server's threads have stopped writing (shutdown returns before its sync thread is done). */
    private static void settle(Path... dirs) throws Exception {
        long before = -1;
        for (int i = 0; i < 100; i++) {
            long now = 0;
            for (Path d : dirs) {
                try (var files = Files.walk(d)) {
                    for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
                        crc.update(Files.readAllBytes(f));
                        now = now * 31 + crc.getValue() + f.getFileName().toString().hashCode();
                    }
                }
            }
            if (now == before) {
                return;
            }
            before = now;
            Thread.sleep(150);
        }
    }

    private static ZooKeeper connect(String connect) throws Exception {
        CountDownLatch up = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connect, 30000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                up.countDown();
            }
        });
        if (!up.await(20, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no connection to " + connect);
        }
        return zk;
    }

    static String path(Random r) {
        return switch (r.nextInt(6)) {
            case 0 -> "/consumers";
            case 1 -> "/consumers/" + GROUPS[r.nextInt(GROUPS.length)];
            case 2 -> "/consumers/" + GROUPS[r.nextInt(GROUPS.length)] + "/offsets";
            case 3 -> "/consumers/" + GROUPS[r.nextInt(GROUPS.length)] + "/offsets/" + TOPICS[r.nextInt(TOPICS.length)];
            case 4 -> "/consumers/" + GROUPS[r.nextInt(GROUPS.length)] + "/offsets/" + TOPICS[r.nextInt(TOPICS.length)] + "/" + r.nextInt(3);
            default -> "/a" + (r.nextBoolean() ? "" : "/b" + r.nextInt(3));
        };
    }

    private static byte[] data(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> null;
            case 1 -> new byte[0];
            case 2 -> "\u00e9\u4e2d\ud83d\ude00".getBytes(StandardCharsets.UTF_8);
            default -> Long.toString(r.nextInt(1_000_000)).getBytes(StandardCharsets.US_ASCII);
        };
    }

    private static List<ACL> acl(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> ZooDefs.Ids.OPEN_ACL_UNSAFE;
            case 1 -> new ArrayList<>(List.of(new ACL(ZooDefs.Perms.ALL, new Id("ip", "127.0.0.1")), new ACL(ZooDefs.Perms.READ, new Id("world", "anyone"))));
            case 2 -> new ArrayList<>(List.of(new ACL(ZooDefs.Perms.ALL & ~ZooDefs.Perms.DELETE, new Id("world", "anyone"))));
            default -> ZooDefs.Ids.OPEN_ACL_UNSAFE;
        };
    }

    private static CreateMode mode(Random r) {
        CreateMode[] all = CreateMode.values();
        return r.nextInt(2) == 0 ? CreateMode.PERSISTENT : all[r.nextInt(all.length)];
    }

    private static void op(ZooKeeper zk, Random r, int pick) throws Exception {
        String p = path(r);
        if (pick < 45) {
            CreateMode m = mode(r);
            if (m.isTTL()) {
                zk.create(p, data(r), acl(r), m, null, 100_000 + r.nextInt(1000));
            } else if (r.nextBoolean()) {
                zk.create(p, data(r), acl(r), m);
            } else {
                zk.create(p, data(r), acl(r), m, new org.apache.zookeeper.data.Stat());
            }
        } else if (pick < 70) {
            zk.setData(p, data(r), r.nextInt(5) == 0 ? r.nextInt(3) : -1);
        } else if (pick < 78) {
            zk.delete(p, r.nextInt(4) == 0 ? r.nextInt(2) : -1);
        } else if (pick < 82) {
            zk.setACL(p, acl(r), r.nextInt(4) == 0 ? r.nextInt(2) : -1);
        } else {
            List<Op> ops = new ArrayList<>();
            int n = 1 + r.nextInt(4);
            for (int i = 0; i < n; i++) {
                String q = path(r);
                switch (r.nextInt(4)) {
                    case 0 -> ops.add(Op.create(q, data(r), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                            r.nextBoolean() ? CreateMode.PERSISTENT : CreateMode.EPHEMERAL));
                    case 1 -> ops.add(Op.setData(q, data(r), -1));
                    case 2 -> ops.add(Op.delete(q, -1));
                    default -> ops.add(Op.check(q, r.nextInt(3) == 0 ? 0 : -1));
                }
            }
            zk.multi(ops);
        }
    }
}
