package io.segscope.format.zookeeper;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One znode as ZooKeeper's {@code DataTree} holds it: data (null and empty kept apart), ACL, the
 * persisted stat ({@code StatPersisted}) and the names of its children. Mutable: replay changes it.
 */
public final class ZkNode {
    byte[] data;
    List<ZkAcl> acl;
    long czxid;
    long mzxid;
    long ctime;
    long mtime;
    int version;
    int cversion;
    int aversion;
    long ephemeralOwner;
    long pzxid;
    final Set<String> children = new LinkedHashSet<>();

    ZkNode(byte[] data, List<ZkAcl> acl) {
        this.data = data;
        this.acl = acl;
    }

    /** The data, or null when the znode holds null (not the same as empty). */
    public byte[] data() { return data; }
    /** The ACL, or null when a snapshot referred to an ACL id it does not list. */
    public List<ZkAcl> acl() { return acl; }
    public long czxid() { return czxid; }
    public long mzxid() { return mzxid; }
    public long ctime() { return ctime; }
    public long mtime() { return mtime; }
    public int version() { return version; }
    public int cversion() { return cversion; }
    public int aversion() { return aversion; }
    public long ephemeralOwner() { return ephemeralOwner; }
    public long pzxid() { return pzxid; }

    /**
     * The cversion a client is answered ({@code DataNode.copyStat}: twice the persisted one minus
     * the number of children).
     */
    public int clientCversion() {
        return cversion * 2 - children.size();
    }

    /**
     * The ephemeralOwner a client is answered with ZooKeeper's default settings (extended types
     * off): 0 for a container node, else the stored owner.
     */
    public long clientEphemeralOwner() {
        return isContainer() ? 0 : ephemeralOwner;
    }

    /** The children's names, sorted. */
    public Set<String> children() {
        return new TreeSet<>(children);
    }

    public int numChildren() {
        return children.size();
    }

    public int dataLength() {
        return data == null ? 0 : data.length;
    }

    /** Container node ({@code ephemeralOwner} = Long.MIN_VALUE). */
    public boolean isContainer() {
        return ephemeralOwner == Long.MIN_VALUE;
    }

    /**
     * Possibly a TTL node: the high byte of {@code ephemeralOwner} is 0xff, which is a TTL only on
     * a server with extended types on; 3.3/3.4 session ids can look the same.
     */
    public boolean isTtl() {
        return ephemeralOwner != Long.MIN_VALUE && (ephemeralOwner & 0xff00000000000000L) == 0xff00000000000000L;
    }

    /** An ephemeral node (owned by a session, or a TTL node). */
    public boolean isEphemeral() {
        return ephemeralOwner != 0 && !isContainer();
    }

    /**
     * Owned by a session as ZooKeeper's default settings see it (extended types off): any owner
     * but 0 and the container marker. A TTL node is then listed under an id no session has, which
     * changes nothing.
     */
    static boolean sessionOwned(long owner) {
        return owner != 0 && owner != Long.MIN_VALUE;
    }
}
