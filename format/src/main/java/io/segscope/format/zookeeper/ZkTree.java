package io.segscope.format.zookeeper;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * A ZooKeeper data tree with the replay rules of ZooKeeper 3.9.5's {@code DataTree.processTxn}
 * (docs/format.md 5.6): the kept nodes (a {@link ZkPathFilter}), the open sessions with their
 * timeouts, the ephemeral nodes of each session and the last processed zxid.
 */
public final class ZkTree {
    static final int OK = 0;
    static final int NONODE = -101;
    static final int NODEEXISTS = -110;

    final Map<String, ZkNode> nodes = new HashMap<>();
    final Map<Long, Integer> sessions = new LinkedHashMap<>();
    final Map<Long, Set<String>> ephemerals = new HashMap<>();
    /** Owners of ephemeral nodes that are not kept but whose parent is. */
    final Map<String, Long> shadowOwners = new HashMap<>();
    final ZkPathFilter filter;
    long lastProcessedZxid;
    /** Every node's largest zxid and time seen in the snapshot loaded (for as-of choices). */
    long snapshotMaxZxid;
    long snapshotMaxTime;

    ZkTree(ZkPathFilter filter) {
        this.filter = filter;
    }

    /**
     * The tree a ZooKeeper 3.9 server starts from with no snapshot: {@code /}, {@code /zookeeper},
     * {@code /zookeeper/quota} and {@code /zookeeper/config} (read-only ACL, aversion -1).
     */
    public static ZkTree empty(ZkPathFilter filter) {
        ZkTree t = new ZkTree(filter);
        ZkNode root = new ZkNode(new byte[0], ZkAcl.OPEN);
        t.nodes.put("/", root);
        root.children.add("zookeeper");
        ZkNode zk = new ZkNode(new byte[0], ZkAcl.OPEN);
        zk.children.add("quota");
        zk.children.add("config");
        if (filter.keeps("/zookeeper")) {
            t.nodes.put("/zookeeper", zk);
            if (filter.keeps("/zookeeper/quota")) {
                t.nodes.put("/zookeeper/quota", new ZkNode(new byte[0], ZkAcl.OPEN));
            }
            if (filter.keeps("/zookeeper/config")) {
                ZkNode config = new ZkNode(new byte[0], ZkAcl.READ);
                config.aversion = -1;
                t.nodes.put("/zookeeper/config", config);
            }
        }
        return t;
    }

    public ZkPathFilter filter() {
        return filter;
    }

    /** The node at {@code path} ("/" or "/a/b"), or null when absent or not kept. */
    public ZkNode node(String path) {
        return nodes.get(path.isEmpty() ? "/" : path);
    }

    /** Open sessions: id to timeout in ms, as a restore leaves them. */
    public Map<Long, Integer> sessions() {
        return Collections.unmodifiableMap(sessions);
    }

    public boolean sessionOpen(long id) {
        return sessions.containsKey(id);
    }

    public long lastProcessedZxid() {
        return lastProcessedZxid;
    }

    /** Number of nodes kept (reachable from the root). */
    public int size() {
        int[] n = {0};
        walk("/", (p, node) -> n[0]++);
        return n[0];
    }

    /** Visits the kept nodes reachable from {@code from} depth first, children in name order. */
    public void walk(String from, BiConsumer<String, ZkNode> visitor) {
        ZkNode start = node(from);
        if (start == null) {
            return;
        }
        List<String> stack = new ArrayList<>();
        stack.add(from.isEmpty() ? "/" : from);
        while (!stack.isEmpty()) {
            String p = stack.remove(stack.size() - 1);
            ZkNode n = nodes.get(p);
            if (n == null) {
                continue;
            }
            visitor.accept(p, n);
            TreeSet<String> names = new TreeSet<>(Collections.reverseOrder());
            names.addAll(n.children);
            for (String c : names) {
                stack.add(p.equals("/") ? "/" + c : p + "/" + c);
            }
        }
    }

    /** Every kept node reachable from the root, by path. */
    public Map<String, ZkNode> nodesByPath() {
        Map<String, ZkNode> out = new TreeMap<>();
        walk("/", out::put);
        return out;
    }

    static String parentOf(String path) {
        int i = path.lastIndexOf('/');
        return i <= 0 ? "/" : path.substring(0, i);
    }

    // ---- DataTree's operations ----

    /** The node of {@code path}'s parent, or null when the path has no '/' or the parent is not there. */
    private ZkNode parentNode(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? null : nodes.get(slash == 0 ? "/" : path.substring(0, slash));
    }

    /** The last name in {@code path}. */
    private static String childName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    int createNode(String path, byte[] data, List<ZkAcl> acl, long owner, int parentCVersion, long zxid, long time) {
        ZkNode parent = parentNode(path);
        if (parent == null) {
            return NONODE;
        }
        String child = childName(path);
        if (parent.children.contains(child) || (path.equals("/"))) {
            ZkNode existing = nodes.get(path);
            if (existing != null) {
                existing.acl = acl;
            }
            return NODEEXISTS;
        }
        if (parentCVersion == -1) {
            parentCVersion = parent.cversion + 1;
        }
        if (parentCVersion > parent.cversion) {
            parent.cversion = parentCVersion;
            parent.pzxid = zxid;
        }
        parent.children.add(child);
        if (filter.keeps(path)) {
            ZkNode n = new ZkNode(data, acl);
            n.czxid = zxid;
            n.mzxid = zxid;
            n.pzxid = zxid;
            n.ctime = time;
            n.mtime = time;
            n.ephemeralOwner = owner;
            nodes.put(path, n);
        } else if (ZkNode.sessionOwned(owner)) {
            shadowOwners.put(path, owner);
        }
        if (ZkNode.sessionOwned(owner)) {
            ephemerals.computeIfAbsent(owner, k -> new HashSet<>()).add(path);
        }
        return OK;
    }

    int deleteNode(String path, long zxid) {
        ZkNode parent = parentNode(path);
        if (parent == null) {
            return NONODE;
        }
        boolean existed = parent.children.remove(childName(path));
        if (zxid > parent.pzxid) {
            parent.pzxid = zxid;
        }
        if (!existed) {
            return NONODE;
        }
        ZkNode node = nodes.remove(path);
        long owner = node != null ? node.ephemeralOwner : shadowOwners.getOrDefault(path, 0L);
        shadowOwners.remove(path);
        if (ZkNode.sessionOwned(owner)) {
            Set<String> set = ephemerals.get(owner);
            if (set != null) {
                set.remove(path);
            }
        }
        return OK;
    }

    int setData(String path, byte[] data, int version, long zxid, long time) {
        ZkNode n = node(path);
        if (n == null) {
            return exists(path) ? OK : NONODE;
        }
        n.data = data;
        n.mtime = time;
        n.mzxid = zxid;
        n.version = version;
        return OK;
    }

    int setAcl(String path, List<ZkAcl> acl, int version) {
        ZkNode n = node(path);
        if (n == null) {
            return exists(path) ? OK : NONODE;
        }
        n.aversion = version;
        n.acl = acl;
        return OK;
    }

    private boolean exists(String path) {
        if (path.equals("/") || path.isEmpty()) {
            return true;
        }
        ZkNode parent = parentNode(path);
        return parent != null && parent.children.contains(childName(path));
    }

    int setCversionPzxid(String path, int newCversion, long zxid) {
        if (path.endsWith("/") && path.length() > 1) {
            path = path.substring(0, path.length() - 1);
        }
        ZkNode n = node(path);
        if (n == null) {
            return NONODE;
        }
        if (newCversion == -1) {
            newCversion = n.cversion + 1;
        }
        if (newCversion > n.cversion) {
            n.cversion = newCversion;
            n.pzxid = zxid;
        }
        return OK;
    }

    void killSession(long session, long zxid, List<String> pathsInTxn) {
        Set<String> local = ephemerals.remove(session);
        if (pathsInTxn != null) {
            for (String p : pathsInTxn) {
                deleteNode(p, zxid);
            }
        }
        if (local != null) {
            if (pathsInTxn != null) {
                local.removeAll(pathsInTxn);
            }
            for (String p : new ArrayList<>(local)) {
                deleteNode(p, zxid);
            }
        }
    }

    /**
     * Applies one transaction as {@code FileTxnSnapLog.processTransaction} and
     * {@code DataTree.processTxn} do.
     *
     * @return null, or what stopped a multi part way (a sub-type ZooKeeper does not take, a
     *     sub-record that does not parse): ZooKeeper stops the multi there too
     */
    String apply(ZkTxn txn, int maxLength) {
        if (txn.type() == ZkTxn.CLOSE_SESSION) {
            sessions.remove(txn.clientId());
        } else if (txn.type() == ZkTxn.CREATE_SESSION && txn.body() instanceof ZkTxn.CreateSession cs) {
            sessions.put(txn.clientId(), cs.timeout());
        }
        String stopped = process(txn.type(), txn.body(), txn, maxLength);
        if (txn.zxid() > lastProcessedZxid) {
            lastProcessedZxid = txn.zxid();
        }
        return stopped;
    }

    private String process(int type, ZkTxn.Body body, ZkTxn h, int maxLength) {
        int err = OK;
        String path = null;
        switch (type) {
            case ZkTxn.CLOSE_SESSION -> killSession(h.clientId(), h.zxid(),
                    body instanceof ZkTxn.CloseSession cs ? cs.paths() : null);
            case ZkTxn.CREATE, ZkTxn.CREATE2, ZkTxn.CREATE_CONTAINER, ZkTxn.CREATE_TTL -> {
                ZkTxn.Create c = (ZkTxn.Create) body;
                path = c.path();
                long owner = switch (type) {
                    case ZkTxn.CREATE_CONTAINER -> Long.MIN_VALUE;
                    case ZkTxn.CREATE_TTL -> ttlOwner(c.ttl());
                    default -> c.ephemeral() ? h.clientId() : 0L;
                };
                err = createNode(c.path(), c.data(), c.acl(), owner, c.parentCVersion(), h.zxid(), h.time());
            }
            case ZkTxn.DELETE, ZkTxn.DELETE_CONTAINER -> deleteNode(((ZkTxn.Delete) body).path(), h.zxid());
            case ZkTxn.SET_DATA, ZkTxn.RECONFIG -> {
                ZkTxn.SetData s = (ZkTxn.SetData) body;
                setData(s.path(), s.data(), s.version(), h.zxid(), h.time());
            }
            case ZkTxn.SET_ACL -> {
                ZkTxn.SetAcl s = (ZkTxn.SetAcl) body;
                setAcl(s.path(), s.acl(), s.version());
            }
            case ZkTxn.MULTI -> {
                List<ZkTxn.Sub> subs = ((ZkTxn.Multi) body).txns();
                boolean failed = false;
                for (ZkTxn.Sub s : subs) {
                    if (s.type() == ZkTxn.ERROR) {
                        failed = true;
                        break;
                    }
                }
                for (ZkTxn.Sub s : subs) {
                    ZkTxn.Body sb;
                    try {
                        sb = ZkTxn.readSub(s, h.file(), h.position(), maxLength);
                    } catch (ZkTxn.UnknownType | JuteInput.JuteException e) {
                        return "multi stopped at a sub-transaction of " + ZkTxn.typeName(s.type()) + ": "
                                + (e instanceof JuteInput.JuteException je ? je.detail() : e.getMessage());
                    }
                    if (!failed) {
                        process(s.type(), sb, h, maxLength);
                    }
                }
            }
            default -> {
            }
        }
        if (type == ZkTxn.CREATE && err == NODEEXISTS) {
            setCversionPzxid(parentOf(path), ((ZkTxn.Create) body).parentCVersion(), h.zxid());
        }
        return null;
    }

    /** {@code EphemeralType.TTL.toEphemeralOwner(ttl)}: 0xff, then the TTL in the low 56 bits. */
    static long ttlOwner(long ttl) {
        return 0xff00000000000000L | (ttl & 0x00ffffffffffffffL);
    }
}
