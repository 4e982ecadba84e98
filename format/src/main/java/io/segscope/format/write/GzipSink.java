package io.segscope.format.write;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * {@code java.util.zip.GZIPOutputStream} with an 8 KiB buffer at the default level (Kafka's
 * {@code GzipCompression}), with one {@link Deflater} reused from batch to batch. The 10-byte header
 * is the running JDK's own (taken from a {@code GZIPOutputStream} once), as the OS byte differs
 * between JDK releases.
 */
final class GzipSink extends OutputStream {
    private static final byte[] HEADER = jdkHeader();
    private static final int TRAILER_SIZE = 8;

    private final Deflater def = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    private final CRC32 crc = new CRC32();
    private final byte[] buf = new byte[8192];
    private OutputStream out;

    private static byte[] jdkHeader() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            new GZIPOutputStream(bytes, 8192).close();
            return Arrays.copyOf(bytes.toByteArray(), 10);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    GzipSink begin(OutputStream out) throws IOException {
        this.out = out;
        def.reset();
        crc.reset();
        out.write(HEADER, 0, HEADER.length);
        return this;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return;
        }
        def.setInput(b, off, len);
        while (!def.needsInput()) {
            int n = def.deflate(buf, 0, buf.length);
            if (n > 0) {
                out.write(buf, 0, n);
            }
        }
        crc.update(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** {@code GZIPOutputStream.finish()}: the rest of the deflate stream, then CRC-32 and size. */
    @Override
    public void close() throws IOException {
        def.finish();
        while (!def.finished()) {
            int len = def.deflate(buf, 0, buf.length);
            if (def.finished() && len <= buf.length - TRAILER_SIZE) {
                trailer(buf, len);
                out.write(buf, 0, len + TRAILER_SIZE);
                out = null;
                return;
            }
            if (len > 0) {
                out.write(buf, 0, len);
            }
        }
        byte[] t = new byte[TRAILER_SIZE];
        trailer(t, 0);
        out.write(t, 0, TRAILER_SIZE);
        out = null;
    }

    private void trailer(byte[] b, int at) {
        putIntLE(b, at, (int) crc.getValue());
        putIntLE(b, at + 4, def.getTotalIn());
    }

    private static void putIntLE(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
        b[at + 2] = (byte) (v >>> 16);
        b[at + 3] = (byte) (v >>> 24);
    }
}
