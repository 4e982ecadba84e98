package io.segscope.format.zookeeper;

import io.segscope.format.logdir.FileEntry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The snapshots and transaction logs of ZooKeeper servers found under a path (a dir or an
 * archive, through {@link FileEntry}): dirs holding {@code snapshot.*} or {@code log.*} files
 * (normally {@code version-2}) down to 4 levels. A dir holding logs only is joined to the
 * snapshot dir that shares the longest path with it ({@code dataDir} + {@code dataLogDir}).
 * File names are parsed as {@code Util.getZxidFromName} parses them and sorted numerically.
 */
public final class ZkDataDir {
    static final int DEPTH = 4;

    /** One server's files: snapshots newest first, logs oldest first. */
    public record Server(String snapshotDir, String logDir, List<FileEntry> snapshots, List<FileEntry> logs) {
        /** The dir shown for this server: the snapshot dir, else the log dir. */
        public String name() {
            return snapshotDir != null ? snapshotDir : logDir;
        }
    }

    private ZkDataDir() {
    }

    /** The servers found under {@code roots}; empty when none holds a ZooKeeper file. */
    public static List<Server> find(List<FileEntry> roots) {
        List<FileEntry> snapDirs = new ArrayList<>();
        List<FileEntry> logDirs = new ArrayList<>();
        for (FileEntry root : roots) {
            visit(root, 0, snapDirs, logDirs);
        }
        List<Server> out = new ArrayList<>();
        List<List<FileEntry>> extraLogs = new ArrayList<>();
        for (FileEntry d : snapDirs) {
            extraLogs.add(new ArrayList<>());
        }
        List<String> joined = new ArrayList<>();
        for (FileEntry d : logDirs) {
            if (files(d, "snapshot").isEmpty()) {
                int best = -1;
                int bestLen = -1;
                for (int i = 0; i < snapDirs.size(); i++) {
                    int common = commonPrefix(snapDirs.get(i).path(), d.path());
                    if (common > bestLen) {
                        best = i;
                        bestLen = common;
                    }
                }
                if (best >= 0) {
                    extraLogs.get(best).addAll(files(d, "log"));
                    joined.add(snapDirs.get(best).path() + "\u0000" + d.path());
                } else {
                    out.add(new Server(null, d.path(), List.of(), sortAsc(files(d, "log"))));
                }
            }
        }
        for (int i = 0; i < snapDirs.size(); i++) {
            FileEntry d = snapDirs.get(i);
            List<FileEntry> logs = new ArrayList<>(files(d, "log"));
            logs.addAll(extraLogs.get(i));
            String logDir = d.path();
            for (String j : joined) {
                if (j.startsWith(d.path() + "\u0000")) {
                    logDir = j.substring(d.path().length() + 1);
                }
            }
            List<FileEntry> snaps = sortAsc(files(d, "snapshot"));
            java.util.Collections.reverse(snaps);
            out.add(new Server(d.path(), logDir, snaps, sortAsc(logs)));
        }
        return out;
    }

    private static int commonPrefix(String a, String b) {
        int n = Math.min(a.length(), b.length());
        int i = 0;
        while (i < n && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        return i;
    }

    private static void visit(FileEntry e, int depth, List<FileEntry> snapDirs, List<FileEntry> logDirs) {
        if (!e.isDirectory()) {
            return;
        }
        boolean snaps = !files(e, "snapshot").isEmpty();
        boolean logs = !files(e, "log").isEmpty();
        if (snaps) {
            snapDirs.add(e);
        }
        if (logs) {
            logDirs.add(e);
        }
        if (snaps || logs || depth >= DEPTH) {
            return;
        }
        List<FileEntry> kids = new ArrayList<>(e.children());
        kids.sort(Comparator.comparing(FileEntry::name));
        for (FileEntry c : kids) {
            visit(c, depth + 1, snapDirs, logDirs);
        }
    }

    static List<FileEntry> files(FileEntry dir, String prefix) {
        List<FileEntry> out = new ArrayList<>();
        for (FileEntry c : dir.children()) {
            if (!c.isDirectory() && ZkSnapshot.zxidFromName(c.name(), prefix) != -1) {
                out.add(c);
            }
        }
        return out;
    }

    private static List<FileEntry> sortAsc(List<FileEntry> files) {
        List<FileEntry> out = new ArrayList<>(files);
        out.sort(Comparator.comparingLong((FileEntry f) -> {
            String n = f.name();
            return ZkSnapshot.zxidFromName(n, n.startsWith("log") ? "log" : "snapshot");
        }).thenComparing(FileEntry::name));
        return out;
    }
}
