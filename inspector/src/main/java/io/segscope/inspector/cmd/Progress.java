package io.segscope.inspector.cmd;

import java.io.PrintWriter;

/**
 * Progress on stderr (bytes and records done, rate, ETA), only when stderr is a terminal and the
 * run has lasted a couple of seconds; silent otherwise, so pipes and tests see nothing.
 */
final class Progress {
    private static final long DELAY_NS = 2_000_000_000L;
    private static final long EVERY_NS = 500_000_000L;

    private final PrintWriter err;
    private final boolean enabled;
    private final long totalBytes;
    private final long start = System.nanoTime();
    private long lastPrint;
    private boolean printed;

    Progress(PrintWriter err, boolean enabled, long totalBytes) {
        this.err = err;
        this.enabled = enabled;
        this.totalBytes = totalBytes;
    }

    static boolean stderrIsTerminal() {
        return System.console() != null && System.getenv("SEGSCOPE_NO_PROGRESS") == null;
    }

    void update(long bytesDone, long records) {
        if (!enabled) {
            return;
        }
        long now = System.nanoTime();
        if (now - start < DELAY_NS || now - lastPrint < EVERY_NS) {
            return;
        }
        lastPrint = now;
        double secs = (now - start) / 1e9;
        double rate = bytesDone / secs;
        String eta = totalBytes > 0 && rate > 0 ? String.format("%.0fs", (totalBytes - bytesDone) / rate) : "?";
        err.printf("\r%,d / %,d bytes, %,d records, %.1f MB/s, ETA %s   ", bytesDone, totalBytes, records, rate / 1e6, eta);
        err.flush();
        printed = true;
    }

    void done() {
        if (printed) {
            err.print("\r" + " ".repeat(79) + "\r");
            err.flush();
        }
    }
}
