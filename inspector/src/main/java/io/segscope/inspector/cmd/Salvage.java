package io.segscope.inspector.cmd;

import io.segscope.format.error.FormatException;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.salvage.Loss;
import io.segscope.format.salvage.SalvageOutput;
import io.segscope.format.salvage.SalvagedPartition;
import io.segscope.format.salvage.Salvager;
import io.segscope.format.verify.Severity;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code verify --salvage}: the damaged partitions a verify run notes, salvaged into one
 * {@link SalvageOutput} once each PATH has been verified (an archive read in one pass is not
 * interrupted), and told on stderr.
 */
final class Salvage implements AutoCloseable {
    /** Losses told per partition on stderr; the report lists them all. */
    private static final int SHOWN_LOSSES = 20;

    private final SalvageOutput output;
    private final Salvager salvager;
    private final Severity min;
    private final List<PartitionDir> noted = new ArrayList<>();
    private final List<SalvagedPartition> done = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    Salvage(SalvageOutput output, ReaderOptions options, Severity min) {
        this.output = output;
        this.salvager = new Salvager(options);
        this.min = min;
    }

    /** A partition verified: salvaged later when it holds a finding at least as severe as asked (and at least a warning). */
    void noteDamage(PartitionDir partition, long errors, long warnings) {
        boolean counts = errors > 0 || (warnings > 0 && min != Severity.ERROR);
        if (counts) {
            noted.add(partition);
        }
    }

    /** Salvages the partitions noted since the last call. */
    void salvageNoted() {
        for (PartitionDir p : noted) {
            try {
                SalvagedPartition r = output.salvage(salvager, p, p.dir().parent());
                if (r != null) {
                    done.add(r);
                }
            } catch (IOException | FormatException | IllegalArgumentException e) {
                failures.add(p.dir().path() + ": not salvaged (writing under " + output.outDir() + "): " + e.getMessage());
            }
        }
        noted.clear();
    }

    /**
     * Renames the output into place and tells what was salvaged.
     *
     * @return false when a partition could not be salvaged or the output not written
     */
    boolean finish(PrintWriter err) {
        List<Path> dirs;
        try {
            dirs = output.finish();
        } catch (IOException e) {
            err.println("verify: the salvage output " + output.outDir() + " could not be written: " + e.getMessage());
            return false;
        }
        for (int i = 0; i < done.size(); i++) {
            SalvagedPartition p = done.get(i);
            long lostOffsets = p.losses().stream().filter(l -> l.firstOffset() >= 0 && l.lastOffset() >= l.firstOffset())
                    .mapToLong(l -> l.lastOffset() - l.firstOffset() + 1).sum();
            err.println("salvage: " + p.name() + ": kept " + p.keptBatches() + " batches (" + p.keptBytes() + " bytes"
                    + (p.firstOffset() >= 0 ? ", offsets " + p.firstOffset() + ".." + (p.logEndOffset() - 1) : "") + ") in "
                    + p.segments().size() + (p.segments().size() == 1 ? " segment" : " segments") + "; lost "
                    + p.losses().size() + (p.losses().size() == 1 ? " range" : " ranges") + " (" + p.lostBytes() + " bytes, "
                    + lostOffsets + " offsets known) -> " + dirs.get(i));
            int shown = 0;
            for (Loss l : p.losses()) {
                if (shown++ == SHOWN_LOSSES) {
                    err.println("salvage:   ... " + (p.losses().size() - SHOWN_LOSSES) + " more in " + SalvageOutput.REPORT);
                    break;
                }
                err.println("salvage:   " + l.file() + " [" + l.fromByte() + ", " + l.toByte() + ") offsets "
                        + (l.firstOffset() < 0 ? "none known" : l.firstOffset() + ".." + (l.lastOffset() < 0 ? "?" : l.lastOffset()))
                        + ": " + l.kind() + ": " + l.reason());
            }
        }
        for (String f : failures) {
            err.println("salvage: " + f);
        }
        err.println("salvage: " + done.size() + (done.size() == 1 ? " partition" : " partitions") + " written to "
                + output.outDir() + " (report: " + output.outDir().resolve(SalvageOutput.REPORT) + ")");
        return failures.isEmpty();
    }

    @Override
    public void close() {
        try {
            output.close();
        } catch (IOException e) {
            // a temporary directory left behind beside the output
        }
    }
}
