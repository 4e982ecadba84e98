package io.segscope.format.zookeeper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Adler32;

/**
 * ZooKeeper's Jute binary encoding read from a stream (docs/format.md 5.3): big-endian ints and
 * longs, buffers and ustrings with an int length (-1 = null), vectors with an int count. It counts
 * the byte position of what it reads and keeps a running Adler32 of every byte consumed (the
 * checksum a snapshot's seals hold). A length read from damaged bytes never allocates more than
 * the data holds: a long buffer grows as its bytes arrive.
 */
public final class JuteInput {
    private static final int CHUNK = 64 * 1024;

    private final InputStream in;
    private final String name;
    private final Adler32 adler;
    private byte[] buf;
    private int pos;
    private int limit;
    private int checkedTo;
    private long base;
    private boolean eof;

    private JuteInput(InputStream in, byte[] buf, int pos, int limit, String name, long base, boolean checksum) {
        this.in = in;
        this.buf = buf;
        this.pos = pos;
        this.limit = limit;
        this.checkedTo = pos;
        this.name = name;
        this.base = base - pos;
        this.adler = checksum ? new Adler32() : null;
        this.eof = in == null;
    }

    /** Reads {@code in} from its start; with {@code checksum}, keeps the running Adler32. */
    public static JuteInput of(InputStream in, String name, boolean checksum) {
        return new JuteInput(in, new byte[CHUNK], 0, 0, name, 0, checksum);
    }

    /** Reads {@code length} bytes of {@code bytes} from {@code offset}; positions start at {@code position}. */
    public static JuteInput of(byte[] bytes, int offset, int length, String name, long position) {
        return new JuteInput(null, bytes, offset, offset + length, name, position, false);
    }

    public String name() {
        return name;
    }

    /** The position of the next byte to read. */
    public long position() {
        return base + pos;
    }

    /** The Adler32 of every byte read so far (0 when not kept). */
    public long checksum() {
        if (adler == null) {
            return 0;
        }
        flushChecksum();
        return adler.getValue();
    }

    private void flushChecksum() {
        if (adler != null && pos > checkedTo) {
            adler.update(buf, checkedTo, pos - checkedTo);
        }
        checkedTo = pos;
    }

    /** True when no byte is left. */
    public boolean atEnd() {
        return !fill(1);
    }

    /** How many bytes are left, counting at most {@code max} (reads ahead as needed). */
    public int available(int max) {
        fill(Math.min(max, CHUNK));
        return Math.min(max, limit - pos);
    }

    /** Makes {@code n <= CHUNK} bytes readable at {@code pos}; false when the data ends first. */
    private boolean fill(int n) {
        if (limit - pos >= n) {
            return true;
        }
        if (eof) {
            return false;
        }
        flushChecksum();
        int keep = limit - pos;
        if (buf.length < n) {
            buf = Arrays.copyOf(buf, Math.max(n, CHUNK));
        }
        System.arraycopy(buf, pos, buf, 0, keep);
        base += pos;
        pos = 0;
        checkedTo = 0;
        limit = keep;
        try {
            while (limit < n) {
                int r = in.read(buf, limit, buf.length - limit);
                if (r < 0) {
                    eof = true;
                    return false;
                }
                limit += r;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return true;
    }

    private void need(int n, String what) {
        if (!fill(n)) {
            throw new JuteException(JuteException.Reason.END, position(), name,
                    what + " needs " + n + " bytes, " + (limit - pos) + " left");
        }
    }

    public byte readByte() {
        need(1, "byte");
        return buf[pos++];
    }

    public boolean readBool() {
        return readByte() != 0;
    }

    public int readInt() {
        need(4, "int");
        int v = ((buf[pos] & 0xff) << 24) | ((buf[pos + 1] & 0xff) << 16) | ((buf[pos + 2] & 0xff) << 8) | (buf[pos + 3] & 0xff);
        pos += 4;
        return v;
    }

    public long readLong() {
        long hi = readInt() & 0xffffffffL;
        long lo = readInt() & 0xffffffffL;
        return (hi << 32) | lo;
    }

    /** A buffer: null for length -1; a length below -1 or above {@code maxLength} is damage. */
    public byte[] readBuffer(int maxLength) {
        long at = position();
        int len = readInt();
        if (len == -1) {
            return null;
        }
        if (len < 0 || len > maxLength) {
            throw new JuteException(JuteException.Reason.LENGTH, at, name, "Unreasonable length = " + len);
        }
        return readBytes(len);
    }

    /** {@code len} raw bytes, allocated as they arrive. */
    public byte[] readBytes(int len) {
        if (len <= CHUNK) {
            need(len, "buffer of " + len + " bytes");
            byte[] b = Arrays.copyOfRange(buf, pos, pos + len);
            pos += len;
            return b;
        }
        byte[] out = new byte[CHUNK];
        int have = 0;
        while (have < len) {
            int n = Math.min(CHUNK, len - have);
            if (!fill(n)) {
                throw new JuteException(JuteException.Reason.END, position(), name,
                        "buffer of " + len + " bytes ends after " + (have + limit - pos));
            }
            if (out.length < have + n) {
                out = Arrays.copyOf(out, (int) Math.min(len, Math.max((long) out.length * 2, have + n)));
            }
            System.arraycopy(buf, pos, out, have, n);
            pos += n;
            have += n;
        }
        return out;
    }

    public String readString(int maxLength) {
        byte[] b = readBuffer(maxLength);
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /** Skips {@code n} bytes. */
    public void skip(long n) {
        while (n > 0) {
            int step = (int) Math.min(n, CHUNK);
            need(step, "skip");
            pos += step;
            n -= step;
        }
    }

    /** Closes the stream read (nothing for bytes in memory). */
    public void close() {
        if (in != null) {
            try {
                in.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A damaged or cut Jute stream: where and why. */
    public static final class JuteException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** END: the data ends inside a value; LENGTH: an impossible length. */
        public enum Reason { END, LENGTH }

        private final Reason reason;
        private final long position;

        public JuteException(Reason reason, long position, String file, String message) {
            super(file + " position " + position + ": " + message);
            this.reason = reason;
            this.position = position;
        }

        public Reason reason() {
            return reason;
        }

        public long position() {
            return position;
        }

        /** The message without the file and position. */
        public String detail() {
            String m = getMessage();
            int i = m.indexOf(": ");
            return i < 0 ? m : m.substring(i + 2);
        }
    }
}
