package io.segscope.format.verify;

/** What a {@link Verifier} has read so far, and how many findings of each severity it made. */
public final class VerifyStats {
    long files;
    long batches;
    long records;
    long bytes;
    final long[] bySeverity = new long[Severity.values().length];

    public long files() { return files; }
    public long batches() { return batches; }
    public long records() { return records; }
    /** Bytes of .log files walked. */
    public long bytes() { return bytes; }

    public long findings(Severity severity) {
        return bySeverity[severity.ordinal()];
    }

    /** True when nothing worse than info was found. */
    public boolean isClean() {
        return findings(Severity.ERROR) == 0 && findings(Severity.WARNING) == 0;
    }

    @Override
    public String toString() {
        return files + " files, " + batches + " batches, " + records + " records; " + findings(Severity.ERROR)
                + " errors, " + findings(Severity.WARNING) + " warnings, " + findings(Severity.INFO) + " infos";
    }
}
