package io.segscope.format.zookeeper;

import org.apache.zookeeper.server.ZooKeeperServer;

import java.util.concurrent.Callable;

/** Runs ZooKeeper's own readers with the settings a workload's server had (digest on or off). */
final class ZooKeeperSettings {
    private ZooKeeperSettings() {
    }

    static <T> T with(ZkWorkload.Dirs dirs, Callable<T> body) throws Exception {
        ZooKeeperServer.setDigestEnabled(dirs.digest());
        try {
            return body.call();
        } finally {
            ZooKeeperServer.setDigestEnabled(true);
        }
    }
}
