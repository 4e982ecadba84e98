package io.segscope.inspector.output;

import io.segscope.format.json.JsonOut;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;

/**
 * A {@link DumpWriter} that writes its lines as UTF-8 bytes into one {@link JsonOut} and hands
 * them to the output stream in blocks of about 64 KiB, whole lines only. After a write fails (the
 * reader has gone, the disk is full) nothing more is written and {@link #isOpen()} is false; the
 * stream itself remembers why ({@link CheckedOutput}).
 *
 * <p>For {@link ParallelDump}, a writer without a stream formats one stretch of batches
 * ("piece") into its buffer on a worker thread: {@link #beginPiece()} forgets what the writer
 * carries from one batch to the next, {@link #endPiece()} returns what the stretch changed of it,
 * and the writer that owns the stream writes the piece's bytes ({@link #writeBytes}) and takes
 * that change in ({@link #applyPiece}), in log order, so that the output is the one a single
 * writer gives.
 */
public abstract class ByteDumpWriter implements DumpWriter {
    /** Set by a writer whose side file did not parse (printed on stderr). */
    protected boolean sideFileDamaged;

    @Override
    public boolean sideFileDamaged() {
        return sideFileDamaged;
    }

    static final int BLOCK = 1 << 16;

    protected JsonOut o = new JsonOut(BLOCK * 2);
    private final OutputStream out;
    private final PrintWriter err;
    private boolean failed;

    ByteDumpWriter(OutputStream out, PrintWriter err) {
        this.out = out;
        this.err = err;
    }

    /** Call after each whole line: hands a full block to the stream. */
    protected final void lineDone() {
        if (out != null && o.size() >= BLOCK) {
            drain();
        }
    }

    private void drain() {
        if (failed) {
            o.reset();
            return;
        }
        try {
            o.drainTo(out);
        } catch (IOException e) {
            failed = true;
            o.reset();
        }
    }

    @Override
    public boolean isOpen() {
        return !failed;
    }

    @Override
    public PrintWriter err() {
        return err;
    }

    @Override
    public void flush() {
        if (out == null) {
            return;
        }
        drain();
        if (!failed) {
            try {
                out.flush();
            } catch (IOException e) {
                failed = true;
            }
        }
        err.flush();
    }

    /** The writer's buffer, replaced by {@code next} (a worker hands a piece's bytes over this way). */
    final JsonOut swapBuffer(JsonOut next) {
        JsonOut b = o;
        o = next;
        return b;
    }

    /** Writes bytes a worker formatted, after what this writer has buffered. */
    final void writeBytes(byte[] bytes, int offset, int length) {
        if (length == 0) {
            return;
        }
        drain();
        if (failed) {
            return;
        }
        try {
            out.write(bytes, offset, length);
        } catch (IOException e) {
            failed = true;
        }
    }

    /** A worker's writer starts a piece: what it carries across batches is unknown from here. */
    void beginPiece() {
    }

    /** What the piece since {@link #beginPiece()} changed of the carried state (null: nothing). */
    Object endPiece() {
        return null;
    }

    /** Takes in a piece's change ({@link #endPiece()} of a worker's writer), in log order. */
    void applyPiece(Object change) {
    }

    /** Opens {@code c} in {@code stream} when it has not been decoded yet ({@link io.segscope.format.json.CoordinatorStream#open}). */
    static boolean openFast(io.segscope.format.json.CoordinatorStream stream, io.segscope.format.walk.RecordContent.Coordinator c) {
        return c.decoder() != null && stream.open(c.decoder(), c.keyBuffer(), c.keyOffset(), c.keyLength(), c.valueBuffer(),
                c.valueOffset(), c.valueLength());
    }

    /** A writer of the same settings that formats pieces for this one on a worker thread. */
    abstract ByteDumpWriter pieceWriter();

    /** Whether pieces formatted in parallel give exactly this writer's output. */
    public boolean parallelizable() {
        return true;
    }
}
