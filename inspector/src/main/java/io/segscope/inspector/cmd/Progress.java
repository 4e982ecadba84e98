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
    private final String counted;
    private final long start = System.nanoTime();
    private long lastPrint;
    private boolean printed;

    Progress(PrintWriter err, boolean enabled, long totalBytes) {
        this(err, enabled, totalBytes, "records");
    }

    /** @param counted what the count of {@link #update} counts (records, partitions) */
    Progress(PrintWriter err, boolean enabled, long totalBytes, String counted) {
        this.err = err;
        this.enabled = enabled;
        this.totalBytes = totalBytes;
        this.counted = counted;
    }

    /**
     * True when stderr is a terminal. stdout is usually a pipe or a file while progress matters,
     * so System.console() (which needs stdin and stdout to be terminals) is not the test: on Linux
     * the target of fd 2 says it; elsewhere fall back to System.console().
     */
    static boolean stderrIsTerminal() {
        if (System.getenv("SEGSCOPE_NO_PROGRESS") != null) {
            return false;
        }
        try {
            java.nio.file.Path fd2 = java.nio.file.Paths.get("/proc/self/fd/2");
            if (java.nio.file.Files.isSymbolicLink(fd2)) {
                String target = java.nio.file.Files.readSymbolicLink(fd2).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            }
        } catch (java.io.IOException | SecurityException e) {
            // fall through
        }
        return System.console() != null;
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
        err.printf("\r%,d / %,d bytes, %,d %s, %.1f MB/s, ETA %s   ", bytesDone, totalBytes, records, counted, rate / 1e6, eta);
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
