package io.segscope.inspector.cmd;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.verify.Finding;
import io.segscope.format.verify.Severity;
import io.segscope.format.zookeeper.ZkPathFilter;
import io.segscope.format.zookeeper.ZkRestore;
import io.segscope.inspector.input.ArchiveTree;
import io.segscope.inspector.input.PathArgument;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The ZooKeeper data dirs of {@code zk-offsets} and {@code zk-tree}: the as-of options, opening the
 * PATHs (dirs or archives) and restoring them ({@link ZkRestore}), findings reported on stderr.
 * A picocli mixin.
 */
public final class ZkSource {
    @Option(names = "--as-of-zxid", paramLabel = "ZXID",
            description = "The tree as of this zxid (hex with 0x, or decimal): later transactions are not applied.")
    String asOfZxid;

    @Option(names = "--as-of-time", paramLabel = "TIME", converter = TimeConverter.class,
            description = "The tree as of this time (epoch ms or ISO-8601; the leader's clock in each transaction).")
    Long asOfTime;

    @Option(names = "--no-checksums",
            description = "Use snapshots and log entries whose Adler32 fails (with a warning) instead of falling back or stopping.")
    boolean noChecksums;

    /** What was restored, with whether an error was found. */
    record Restored(ZkRestore.Result result, boolean errors) {
    }

    /** Parses {@code 0x1a2b} or {@code 6699}. */
    static long zxid(CommandLine cl, String option, String value) {
        try {
            String v = value.trim();
            long z = v.startsWith("0x") || v.startsWith("0X") ? Long.parseUnsignedLong(v.substring(2), 16) : Long.parseLong(v);
            if (z < 0) {
                throw new NumberFormatException();
            }
            return z;
        } catch (NumberFormatException e) {
            throw new CommandLine.ParameterException(cl, option + " takes a zxid, hex with 0x (0x1a2b) or decimal, not '" + value + "'");
        }
    }

    /**
     * Restores the server found under {@code paths}, keeping {@code filter}; prints the findings.
     *
     * @return null after an I/O error (printed)
     */
    Restored restore(CommandLine cl, String command, List<Path> paths, ZkPathFilter filter, PrintWriter err) {
        long z = asOfZxid == null ? -1 : zxid(cl, "--as-of-zxid", asOfZxid);
        ZkRestore.Options options = new ZkRestore.Options(filter, z, asOfTime == null ? Long.MIN_VALUE : asOfTime, !noChecksums);
        List<PathArgument> opened = new ArrayList<>();
        try {
            List<FileEntry> roots = new ArrayList<>();
            for (Path p : paths) {
                if (!PathArgument.exists(p)) {
                    err.print(command + ": " + p + ": no such file or directory\n");
                    return null;
                }
                PathArgument a = PathArgument.open(p);
                opened.add(a);
                roots.add(a.entry() != null ? a.entry() : FileEntry.of(p));
            }
            ZkRestore.Result r = ZkRestore.restore(roots, options);
            boolean errors = false;
            for (PathArgument a : opened) {
                if (a.tree() != null && a.tree().truncation().isPresent()) {
                    // what the complete entries hold is restored; the cut is damage (the newest files may be what was cut)
                    ArchiveTree.Truncation t = a.tree().truncation().get();
                    err.print(command + ": " + FormatException.at(Violation.ARCHIVE_TRUNCATED, t.file(), t.position())
                            .note(t.message()).build().getMessage() + "\n");
                    errors = true;
                }
            }
            for (Finding f : r.findings()) {
                errors |= f.severity() == Severity.ERROR;
                err.print(command + ": " + f.severity().name().toLowerCase(java.util.Locale.ROOT) + ": " + f.problem().message()
                        + (f.consequence() == null ? "" : f.consequence()) + "\n");
            }
            return new Restored(r, errors);
        } catch (ZkRestore.Unanswerable e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        } catch (FormatException e) {
            err.print(command + ": " + e.getMessage() + "\n");
            return null;
        } finally {
            for (PathArgument a : opened) {
                a.close();
            }
        }
    }
}
