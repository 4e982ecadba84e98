package io.segscope.format.verify;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

/** Passes findings to the sink and counts them; shared by the parts of a {@link Verifier}. */
final class Report {
    final FindingSink sink;
    final VerifyStats stats = new VerifyStats();
    ProgressListener progress;

    Report(FindingSink sink) {
        this.sink = sink;
    }

    /** Tells the listener, if any, how far the run is; {@code position} is within the .log being walked. */
    void progress(long position) {
        if (progress != null) {
            progress.update(stats.bytes + position, stats.batches, stats.records);
        }
    }

    void add(Finding f) {
        stats.bySeverity[f.severity().ordinal()]++;
        sink.accept(f);
    }

    void add(String file, long position, Violation v, Severity severity, long baseOffset, String message) {
        add(new Finding(file, position, v, severity, baseOffset, message));
    }

    void add(FormatException e, Severity severity) {
        add(Finding.of(e, severity));
    }
}
