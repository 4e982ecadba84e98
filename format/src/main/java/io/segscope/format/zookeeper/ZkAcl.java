package io.segscope.format.zookeeper;

import java.util.List;

/**
 * One ZooKeeper ACL entry: permission bits (READ 1, WRITE 2, CREATE 4, DELETE 8, ADMIN 16) for an
 * id of a scheme ({@code world:anyone}, {@code digest:user:hash}, {@code ip:10.0.0.1}, ...).
 */
public record ZkAcl(int perms, String scheme, String id) {
    /** {@code world:anyone} with every permission: what ACL id -1 of a snapshot stands for. */
    public static final List<ZkAcl> OPEN = List.of(new ZkAcl(31, "world", "anyone"));
    /** {@code world:anyone} read only: {@code /zookeeper/config}'s ACL. */
    public static final List<ZkAcl> READ = List.of(new ZkAcl(1, "world", "anyone"));

    static List<ZkAcl> read(JuteInput in, int max) {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        List<ZkAcl> out = new java.util.ArrayList<>(Math.min(n, 16));
        for (int i = 0; i < n; i++) {
            int perms = in.readInt();
            out.add(new ZkAcl(perms, in.readString(max), in.readString(max)));
        }
        return List.copyOf(out);
    }

    /** {@code scheme:id:perms} with perms as ZooKeeper's letters {@code cdrwa}. */
    @Override
    public String toString() {
        StringBuilder p = new StringBuilder();
        if ((perms & 4) != 0) p.append('c');
        if ((perms & 8) != 0) p.append('d');
        if ((perms & 1) != 0) p.append('r');
        if ((perms & 2) != 0) p.append('w');
        if ((perms & 16) != 0) p.append('a');
        return scheme + ":" + id + ":" + p;
    }
}
