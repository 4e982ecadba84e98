package io.segscope.inspector.output;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The byte stream behind a command's output writer, for the writers that produce UTF-8 bytes
 * themselves ({@code dump}): segscope's own standard output when the writer is the one
 * {@code main} made (the writer is flushed first, so what it printed comes before), else an
 * adapter that decodes the bytes into the writer (tests and embedding callers, which give a
 * {@link PrintWriter} of their own). Callers write whole lines, so a character is never split
 * between two writes.
 */
public final class OutputBytes {
    private static volatile PrintWriter stdoutWriter;
    private static volatile OutputStream stdoutBytes;

    private OutputBytes() {
    }

    /** Declares {@code bytes} to be the stream {@code writer} encodes into (called by {@code main}). */
    public static void register(PrintWriter writer, OutputStream bytes) {
        stdoutBytes = bytes;
        stdoutWriter = writer;
    }

    /** The byte stream of {@code out}. */
    public static OutputStream of(PrintWriter out) {
        if (out == stdoutWriter && stdoutBytes != null) {
            out.flush();
            OutputStream bytes = stdoutBytes;
            return new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    bytes.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    bytes.write(b, off, len);
                }

                @Override
                public void flush() throws IOException {
                    bytes.flush();
                }
            };
        }
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[]{(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(new String(b, off, len, StandardCharsets.UTF_8));
                if (out.checkError()) {
                    throw new IOException("the output writer failed");
                }
            }

            @Override
            public void flush() throws IOException {
                out.flush();
                if (out.checkError()) {
                    throw new IOException("the output writer failed");
                }
            }
        };
    }
}
