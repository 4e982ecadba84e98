package io.segscope.format.verify;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

import java.util.Arrays;

/**
 * Passes findings to the sink and counts them; shared by the parts of a {@link Verifier}. While a
 * .log file is walked, at most {@link #CAP} findings of one kind about it reach the sink (a segment
 * damaged systematically would otherwise print one line per batch); the rest are counted in the
 * stats and summed up in one finding per kind at the end.
 */
final class Report {
    static final int CAP = 100;

    final FindingSink sink;
    final VerifyStats stats = new VerifyStats();
    ProgressListener progress;
    private String capFile;
    private final int[] perKind = new int[Violation.values().length];
    private final long[] suppressed = new long[Violation.values().length];
    private final Severity[] suppressedSeverity = new Severity[Violation.values().length];

    Report(FindingSink sink) {
        this.sink = sink;
    }

    /** Tells the listener, if any, how far the run is; {@code position} is within the .log being walked. */
    void progress(long position) {
        if (progress != null) {
            progress.update(stats.bytes + position, stats.batches, stats.records);
        }
    }

    /** Starts capping the findings about {@code file}. */
    void beginCap(String file) {
        capFile = file;
        Arrays.fill(perKind, 0);
        Arrays.fill(suppressed, 0);
        Arrays.fill(suppressedSeverity, null);
    }

    /** Stops capping and reports how many findings of each kind were not listed. */
    void endCap() {
        String file = capFile;
        capFile = null;
        for (Violation v : Violation.values()) {
            long n = suppressed[v.ordinal()];
            if (n > 0) {
                sink.accept(Finding.of(file, -1, v, suppressedSeverity[v.ordinal()], -1,
                        n + " more " + v.kind() + " findings in this file not listed (the first " + CAP + " are)"));
            }
        }
    }

    void add(Finding f) {
        stats.bySeverity[f.severity().ordinal()]++;
        if (capFile != null && capFile.equals(f.file())) {
            int k = f.violation().ordinal();
            if (++perKind[k] > CAP) {
                suppressed[k]++;
                Severity s = suppressedSeverity[k];
                suppressedSeverity[k] = s == null || f.severity().atLeast(s) ? f.severity() : s;
                return;
            }
        }
        sink.accept(f);
    }

    void add(String file, long position, Violation v, Severity severity, long baseOffset, String message) {
        add(Finding.of(file, position, v, severity, baseOffset, message));
    }

    void add(FormatException e, Severity severity) {
        add(Finding.of(e, severity));
    }

    /** A finding that is what a crash leaves ({@link Finding#crashArtefact()}) when {@code crash}. */
    void add(String file, long position, Violation v, Severity severity, long baseOffset, String message, boolean crash) {
        Finding f = Finding.of(file, position, v, severity, baseOffset, message);
        add(crash ? f.asCrashArtefact() : f);
    }
}
