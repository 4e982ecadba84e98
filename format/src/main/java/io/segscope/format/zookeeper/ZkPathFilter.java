package io.segscope.format.zookeeper;

import java.util.ArrayList;
import java.util.List;

/**
 * Which znodes a restore keeps: chosen subtrees, plus their ancestors (with all of their
 * children's names, so that every kept node's stat stays exact). Nodes outside are read and
 * dropped, so memory grows with the kept paths only.
 */
public final class ZkPathFilter {
    /** Keeps every node. */
    public static final ZkPathFilter ALL = new ZkPathFilter(List.of("/"));

    private final List<String> roots;
    private final boolean all;

    private ZkPathFilter(List<String> roots) {
        this.roots = List.copyOf(roots);
        this.all = roots.contains("/");
    }

    /** Keeps the subtrees at {@code roots} (absolute paths; "/" keeps everything). */
    public static ZkPathFilter subtrees(List<String> roots) {
        List<String> norm = new ArrayList<>();
        for (String r : roots) {
            String n = r.length() > 1 && r.endsWith("/") ? r.substring(0, r.length() - 1) : r;
            if (!n.startsWith("/")) {
                throw new IllegalArgumentException("not an absolute znode path: " + r);
            }
            norm.add(n);
        }
        return new ZkPathFilter(norm);
    }

    public List<String> roots() {
        return roots;
    }

    public boolean keepsAll() {
        return all;
    }

    /** True when {@code path} ("/" or "/a/b") is in a kept subtree or an ancestor of one. */
    public boolean keeps(String path) {
        if (all || path.equals("/")) {
            return true;
        }
        for (String r : roots) {
            if (path.startsWith(r) && (path.length() == r.length() || path.charAt(r.length()) == '/')) {
                return true;
            }
            if (r.startsWith(path) && r.length() > path.length() && r.charAt(path.length()) == '/') {
                return true;
            }
        }
        return false;
    }
}
