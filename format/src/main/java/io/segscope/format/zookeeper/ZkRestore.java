package io.segscope.format.zookeeper;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Problem;
import io.segscope.format.error.Violation;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.verify.Finding;
import io.segscope.format.verify.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * ZooKeeper's {@code FileTxnSnapLog.restore}, offline (docs/format.md 5.2, 5.6): the newest
 * snapshot that is valid and whose seals check (falling back to older ones, as ZooKeeper does,
 * and saying so), then every logged transaction after it, in zxid order. With no snapshot the
 * logs are replayed from ZooKeeper 3.9's empty tree. An as-of zxid or time starts from the newest
 * snapshot whose nodes hold nothing past that point and stops the replay there.
 */
public final class ZkRestore {
    /** ZooKeeper tries at most this many snapshots ({@code findNValidSnapshots(100)}). */
    static final int MAX_SNAPSHOTS = 100;

    /**
     * @param filter the nodes kept
     * @param asOfZxid the last zxid applied, or -1 for all
     * @param asOfTime the last transaction time (ms) applied, or Long.MIN_VALUE for all
     * @param checksums false to use snapshots and entries whose Adler32 fails (with a warning)
     */
    public record Options(ZkPathFilter filter, long asOfZxid, long asOfTime, boolean checksums) {
        public static Options all() {
            return new Options(ZkPathFilter.ALL, -1, Long.MIN_VALUE, true);
        }

        boolean asOf() {
            return asOfZxid >= 0 || asOfTime != Long.MIN_VALUE;
        }

        boolean past(long zxid, long time) {
            return (asOfZxid >= 0 && zxid > asOfZxid) || (asOfTime != Long.MIN_VALUE && time > asOfTime);
        }
    }

    /**
     * A restored server.
     *
     * @param snapshot the snapshot used, or null (replayed from the empty tree)
     * @param firstZxid the first zxid applied from a log, or -1
     * @param applied transactions applied from the logs
     * @param complete false when damage stopped the replay before the end of the logs
     */
    public record Result(ZkDataDir.Server server, ZkTree tree, ZkSnapshot.Info snapshot, List<Finding> findings,
                         long firstZxid, long applied, boolean complete) {
        public long lastZxid() {
            return tree.lastProcessedZxid();
        }

        public boolean hasErrors() {
            return findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
        }
    }

    /** An as-of point that this data dir cannot answer (older than everything it kept). */
    public static final class Unanswerable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Unanswerable(String message) {
            super(message);
        }
    }

    private ZkRestore() {
    }

    /** Restores one server. */
    public static Result restore(ZkDataDir.Server server, Options options) {
        List<Finding> findings = new ArrayList<>();
        ZkTree tree = null;
        ZkSnapshot.Info info = null;
        int tried = 0;
        boolean hadSnapshots = false;
        for (FileEntry snap : server.snapshots()) {
            long nameZxid = ZkSnapshot.zxidFromName(snap.name(), "snapshot");
            if (options.asOfZxid() >= 0 && nameZxid > options.asOfZxid()) {
                continue;
            }
            if (tried++ >= MAX_SNAPSHOTS) {
                break;
            }
            hadSnapshots = true;
            String invalid;
            try {
                invalid = ZkSnapshot.invalidReason(snap);
            } catch (FormatException e) {
                findings.add(Finding.of(e, Severity.ERROR));
                continue;
            }
            if (invalid != null) {
                findings.add(Finding.of(snap.path(), -1, Violation.ZK_HEADER, Severity.WARNING, -1,
                        "not a valid snapshot (" + invalid + "): ZooKeeper skips it"));
                continue;
            }
            ZkSnapshot.Info[] got = new ZkSnapshot.Info[1];
            try {
                List<Problem> ignoredSeals = new ArrayList<>();
                ZkTree t = ZkSnapshot.read(snap, options.filter(), options.checksums(), got, ignoredSeals);
                for (Problem p : ignoredSeals) {
                    findings.add(new Finding(p, null, Severity.WARNING, -1, -1, -1, -1));
                }
                if (options.asOf() && options.past(t.snapshotMaxZxid, t.snapshotMaxTime)) {
                    findings.add(Finding.of(snap.path(), -1, Violation.ZK_HEADER, Severity.INFO, -1,
                            "holds changes after the as-of point (a fuzzy snapshot): an older snapshot is used"));
                    continue;
                }
                tree = t;
                info = got[0];
                break;
            } catch (FormatException e) {
                findings.add(new Finding(e.problem(), "; ZooKeeper falls back to an older snapshot", Severity.ERROR, -1, -1, -1, -1));
            }
        }
        List<FileEntry> logs = server.logs();
        long start;
        if (tree == null) {
            tree = ZkTree.empty(options.filter());
            start = 0;
            long firstLog = logs.isEmpty() ? -1 : ZkSnapshot.zxidFromName(logs.get(0).name(), "log");
            if (options.asOf() && !server.snapshots().isEmpty() && firstLog > 1) {
                throw new Unanswerable("the as-of point is older than the oldest snapshot of " + server.name()
                        + " and its logs start at zxid 0x" + Long.toHexString(firstLog) + ": that history was purged");
            }
            if (hadSnapshots) {
                findings.add(Finding.of(server.name(), -1, Violation.ZK_INVALID_TREE, Severity.ERROR, -1,
                        "no usable snapshot: the logs are replayed from an empty tree (ZooKeeper refuses to start)"));
            }
        } else {
            start = tree.lastProcessedZxid;
        }
        long logZxid = 0;
        for (FileEntry log : logs) {
            long z = ZkSnapshot.zxidFromName(log.name(), "log");
            if (z > start) {
                break;
            }
            logZxid = Math.max(logZxid, z);
        }
        long previous = start;
        long first = -1;
        long applied = 0;
        boolean complete = true;
        outer:
        for (int i = 0; i < logs.size(); i++) {
            FileEntry log = logs.get(i);
            if (ZkSnapshot.zxidFromName(log.name(), "log") < logZxid) {
                continue;
            }
            boolean last = i == logs.size() - 1;
            ZkTxnLog reader;
            try {
                reader = ZkTxnLog.open(log, options.checksums());
            } catch (FormatException e) {
                findings.add(new Finding(e.problem(), "; ZooKeeper's restore fails here: the tree is as of zxid 0x"
                        + Long.toHexString(tree.lastProcessedZxid), Severity.ERROR, -1, -1, -1, -1));
                complete = false;
                break;
            }
            try (reader) {
                if (log.size() == 0) {
                    findings.add(Finding.of(log.path(), -1, Violation.ZK_TRUNCATED, Severity.INFO, -1,
                            "an empty (0-byte) log: skipped, as ZooKeeper deletes it"));
                }
                ZkTxn txn;
                while ((txn = reader.next()) != null) {
                    Problem ignored = reader.takeIgnoredChecksum();
                    if (ignored != null) {
                        findings.add(new Finding(ignored, null, Severity.WARNING, -1, -1, -1, -1));
                    }
                    if (txn.zxid() <= start) {
                        continue;
                    }
                    if (options.past(txn.zxid(), txn.time())) {
                        break outer;
                    }
                    gap(previous, txn, findings);
                    previous = Math.max(previous, txn.zxid());
                    String stopped = tree.apply(txn, ZkTxnLog.MAX_ENTRY);
                    if (stopped != null) {
                        findings.add(Finding.of(log.path(), txn.position(), Violation.ZK_INVALID_RECORD, Severity.WARNING, -1,
                                stopped + " (zxid 0x" + Long.toHexString(txn.zxid()) + ")"));
                    }
                    if (first < 0) {
                        first = txn.zxid();
                    }
                    applied++;
                }
                ZkTxnLog.End end = reader.end();
                if (end.problem() != null) {
                    if (end.kind() == ZkTxnLog.EndKind.DAMAGE) {
                        findings.add(new Finding(end.problem(), "; ZooKeeper's restore fails here: the tree is as of zxid 0x"
                                + Long.toHexString(tree.lastProcessedZxid), Severity.ERROR, -1, -1, -1, -1));
                        complete = false;
                        break;
                    }
                    findings.add(new Finding(end.problem(), last ? "; the replay ends here (a write torn at a crash)"
                            : "; ZooKeeper goes on with the next log", last ? Severity.WARNING : Severity.ERROR, -1, -1, -1, -1));
                }
            }
        }
        return new Result(server, tree, info, findings, first, applied, complete);
    }

    private static void gap(long previous, ZkTxn txn, List<Finding> findings) {
        long z = txn.zxid();
        if (z <= previous) {
            if (previous != 0) {
                findings.add(Finding.of(txn.file(), txn.position(), Violation.ZK_INVALID_RECORD, Severity.WARNING, -1,
                        "zxid 0x" + Long.toHexString(z) + " after 0x" + Long.toHexString(previous) + ": not increasing"));
            }
            return;
        }
        long epoch = z >>> 32;
        long counter = z & 0xffffffffL;
        boolean sameEpoch = epoch == previous >>> 32;
        long expected = sameEpoch ? previous + 1 : (epoch << 32) | 1;
        if (previous == 0 && epoch == 0 && counter == 1) {
            return;
        }
        if (z != expected && !(previous == 0 && !sameEpoch && counter == 1)) {
            findings.add(Finding.of(txn.file(), txn.position(), Violation.ZK_INVALID_RECORD, Severity.WARNING, -1,
                    "zxids 0x" + Long.toHexString(expected) + " to 0x" + Long.toHexString(z - 1) + " are missing"));
        }
    }

    /**
     * Restores every server found under {@code roots} and answers with the one that got furthest
     * (the highest zxid); the others are named in an info finding with how far behind they are.
     *
     * @throws FormatException {@code io-error} when no ZooKeeper file is found
     */
    public static Result restore(List<FileEntry> roots, Options options) {
        List<ZkDataDir.Server> servers = ZkDataDir.find(roots);
        if (servers.isEmpty()) {
            String name = roots.isEmpty() ? "" : roots.get(0).path();
            throw FormatException.at(Violation.IO_ERROR, name, FormatException.UNKNOWN)
                    .note("no ZooKeeper snapshot.* or log.* file found (looked in version-2 dirs down to " + ZkDataDir.DEPTH + " levels)")
                    .build();
        }
        Result best = null;
        List<Result> all = new ArrayList<>();
        for (ZkDataDir.Server s : servers) {
            Result r = restore(s, options);
            all.add(r);
            if (best == null || r.lastZxid() > best.lastZxid()) {
                best = r;
            }
        }
        for (Result r : all) {
            if (r != best) {
                best.findings().add(Finding.of(r.server().name(), -1, Violation.ZK_HEADER, Severity.INFO, -1,
                        "another server's data dir, at zxid 0x" + Long.toHexString(r.lastZxid()) + " ("
                                + (best.lastZxid() - r.lastZxid()) + " behind " + best.server().name() + "): not used"));
            }
        }
        return best;
    }
}
