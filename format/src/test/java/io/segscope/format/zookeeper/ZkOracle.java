package io.segscope.format.zookeeper;

import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.StatPersisted;
import org.apache.zookeeper.server.DataNode;
import org.apache.zookeeper.server.DataTree;
import org.apache.zookeeper.server.persistence.FileTxnLog;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;
import org.apache.zookeeper.server.persistence.TxnLog;

import java.io.File;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/** ZooKeeper 3.9.5's own restore of a data dir, and a node-for-node comparison with segscope's tree. */
final class ZkOracle {
    static {
        System.setProperty("zookeeper.snapshot.trust.empty", "true");
    }

    /** ZooKeeper's restored tree, sessions and last zxid. */
    record Restored(DataTree tree, Map<Long, Integer> sessions, long lastZxid) {
    }

    private ZkOracle() {
    }

    /**
     * {@code FileTxnSnapLog.restore} over the dirs holding {@code version-2} (it may delete an
     * empty tail log: run it after segscope, or on a copy).
     */
    static Restored restore(File logParent, File snapParent) throws Exception {
        FileTxnSnapLog snapLog = new FileTxnSnapLog(logParent, snapParent);
        try {
            DataTree dt = new DataTree();
            Map<Long, Integer> sessions = new ConcurrentHashMap<>();
            long z = snapLog.restore(dt, sessions, (h, t, d) -> { });
            return new Restored(dt, sessions, Math.max(z, dt.lastProcessedZxid));
        } finally {
            snapLog.close();
        }
    }

    /** Every log transaction from the empty tree up to {@code asOf}, with ZooKeeper's processTransaction. */
    static Restored replayTo(File logParent, File snapParent, long asOf) throws Exception {
        FileTxnSnapLog snapLog = new FileTxnSnapLog(logParent, snapParent);
        try {
            DataTree dt = new DataTree();
            Map<Long, Integer> sessions = new ConcurrentHashMap<>();
            FileTxnLog log = new FileTxnLog(snapLog.getDataLogDir());
            try (TxnLog.TxnIterator it = log.read(1)) {
                while (it.getHeader() != null && it.getHeader().getZxid() <= asOf) {
                    snapLog.processTransaction(it.getHeader(), dt, sessions, it.getTxn());
                    if (!it.next()) {
                        break;
                    }
                }
            }
            return new Restored(dt, sessions, dt.lastProcessedZxid);
        } finally {
            snapLog.close();
        }
    }

    /** Every node ZooKeeper's tree reaches from the root, by path ("/" for the root). */
    static Map<String, DataNode> nodes(DataTree dt) {
        Map<String, DataNode> out = new TreeMap<>();
        List<String> stack = new ArrayList<>(List.of("/"));
        while (!stack.isEmpty()) {
            String p = stack.remove(stack.size() - 1);
            DataNode n = dt.getNode(p);
            if (n == null) {
                continue;
            }
            out.put(p, n);
            for (String c : n.getChildren()) {
                stack.add(p.equals("/") ? "/" + c : p + "/" + c);
            }
        }
        return out;
    }

    static List<ZkAcl> acl(DataTree dt, DataNode n) {
        List<ZkAcl> out = new ArrayList<>();
        for (ACL a : dt.getACL(n)) {
            out.add(new ZkAcl(a.getPerms(), a.getId().getScheme(), a.getId().getId()));
        }
        return out;
    }

    /** Asserts that segscope's tree equals ZooKeeper's on every node segscope keeps (all of them without a filter). */
    static void assertSame(ZkTree ours, Restored theirs, String what) {
        Map<String, DataNode> zk = nodes(theirs.tree());
        Map<String, ZkNode> seg = ours.nodesByPath();
        if (ours.filter().keepsAll()) {
            java.util.Set<String> onlyZk = new TreeSet<>(zk.keySet());
            onlyZk.removeAll(seg.keySet());
            java.util.Set<String> onlyOurs = new TreeSet<>(seg.keySet());
            onlyOurs.removeAll(zk.keySet());
            assertThat(onlyZk).as(what + ": paths only ZooKeeper has").isEmpty();
            assertThat(onlyOurs).as(what + ": paths only segscope has").isEmpty();
        } else {
            for (String p : zk.keySet()) {
                if (ours.filter().keeps(p)) {
                    assertThat(seg).as(what + ": kept path " + p).containsKey(p);
                }
            }
        }
        for (Map.Entry<String, ZkNode> e : seg.entrySet()) {
            String p = e.getKey();
            DataNode z = zk.get(p);
            assertThat(z).as(what + ": " + p + " exists in ZooKeeper's tree").isNotNull();
            ZkNode n = e.getValue();
            assertThat(n.data()).as(what + ": data of " + p).isEqualTo(z.getData());
            assertThat(n.acl()).as(what + ": acl of " + p).isEqualTo(acl(theirs.tree(), z));
            StatPersisted s = z.stat;
            assertThat(List.of(n.czxid(), n.mzxid(), n.ctime(), n.mtime(), (long) n.version(), (long) n.cversion(),
                    (long) n.aversion(), n.ephemeralOwner(), n.pzxid()))
                    .as(what + ": stat of " + p + " (czxid mzxid ctime mtime version cversion aversion owner pzxid)")
                    .isEqualTo(List.of(s.getCzxid(), s.getMzxid(), s.getCtime(), s.getMtime(), (long) s.getVersion(),
                            (long) s.getCversion(), (long) s.getAversion(), s.getEphemeralOwner(), s.getPzxid()));
            assertThat(n.children()).as(what + ": children of " + p).isEqualTo(new TreeSet<>(z.getChildren()));
        }
        assertThat(new HashMap<>(ours.sessions())).as(what + ": sessions").isEqualTo(new HashMap<>(theirs.sessions()));
    }
}
