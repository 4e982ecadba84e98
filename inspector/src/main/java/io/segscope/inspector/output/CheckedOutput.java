package io.segscope.inspector.output;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Standard output that remembers why a write failed. {@link java.io.PrintWriter} swallows write
 * errors; a full disk during an export must fail the run (exit 3) while a reader that has gone
 * ({@code | head}) only stops it. After the first failure nothing more is written.
 */
public final class CheckedOutput extends FilterOutputStream {
    private IOException failure;

    public CheckedOutput(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[]{(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (failure != null) {
            throw failure;
        }
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public void flush() throws IOException {
        if (failure != null) {
            throw failure;
        }
        try {
            out.flush();
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    /** The first write error, or null. */
    public IOException failure() {
        return failure;
    }

    /** True when the write failed because the reader closed the pipe: not an error of the run. */
    public boolean readerHasGone() {
        return failure != null && failure.getMessage() != null && failure.getMessage().contains("Broken pipe");
    }
}
