package io.segscope.format.json;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * UTF-8 text and compact JSON written straight into a growable byte array: the output buffer of
 * every dump format. The JSON it writes is byte for byte what jackson-core's generator writes with
 * its defaults (commas and colons without spaces; {@code "}, {@code \} and control characters
 * escaped, {@code \b \t \n \f \r} in short form, the others as backslash-u-00XX with upper-case hex;
 * nothing else escaped; binary as standard base64 with padding; non-finite doubles quoted), which
 * {@code JsonOutTest} checks against jackson-core itself; plain text lines ({@link #raw}) go into
 * the same buffer. A lone surrogate in a Java string is written as {@code ?}, as Java's UTF-8
 * encoder replaces it.
 *
 * <p>No object is created per value: field names and values are encoded character by character
 * into the buffer, which is drained with {@link #drainTo} or read with {@link #array()} /
 * {@link #size()}. Not thread-safe; one per thread.
 */
public final class JsonOut {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    /** 0: written as is; 'u': backslash-u-00XX; other: the letter after the backslash. ASCII only. */
    private static final byte[] ESCAPES = new byte[128];
    private static final byte[] DIGIT_PAIRS = new byte[200];
    private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
            .getBytes(StandardCharsets.US_ASCII);

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_PAIRS[2 * i] = (byte) ('0' + i / 10);
            DIGIT_PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
        for (int i = 0; i < 0x20; i++) {
            ESCAPES[i] = 'u';
        }
        ESCAPES['"'] = '"';
        ESCAPES['\\'] = '\\';
        ESCAPES['\b'] = 'b';
        ESCAPES['\t'] = 't';
        ESCAPES['\f'] = 'f';
        ESCAPES['\n'] = 'n';
        ESCAPES['\r'] = 'r';
    }

    private byte[] buf;
    private int len;
    private char[] chars = new char[256];
    /** Per open object/array level: whether a value has been written at it (a comma comes next). */
    private boolean[] written = new boolean[16];
    /** Open levels; 0 at the root, where values are not separated. */
    private int depth;
    /** A field name was just written: its value takes no comma. */
    private boolean afterName;

    public JsonOut() {
        this(8192);
    }

    public JsonOut(int capacity) {
        this.buf = new byte[Math.max(16, capacity)];
    }

    // ---------------------------------------------------------------- buffer

    /** The bytes written so far are {@code array()[0, size())}. */
    public byte[] array() {
        return buf;
    }

    public int size() {
        return len;
    }

    /** Forgets the bytes written (and any open JSON level). */
    public void reset() {
        len = 0;
        depth = 0;
        afterName = false;
    }

    /** Cuts the output back to {@code size} bytes (a size read earlier); JSON levels are not restored. */
    public void truncate(int size) {
        len = size;
    }

    /** Writes the bytes to {@code out} and empties the buffer. */
    public void drainTo(OutputStream out) throws IOException {
        out.write(buf, 0, len);
        len = 0;
    }

    /** The text written, decoded. */
    @Override
    public String toString() {
        return new String(buf, 0, len, StandardCharsets.UTF_8);
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            grow(more);
        }
    }

    private void grow(int more) {
        long want = Math.max((long) buf.length * 2, (long) len + more);
        if (want > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("output buffer over 2 GiB");
        }
        buf = Arrays.copyOf(buf, (int) want);
    }

    // ---------------------------------------------------------------- plain text

    /** Appends one ASCII character. */
    public JsonOut raw(char c) {
        ensure(1);
        buf[len++] = (byte) c;
        return this;
    }

    /** Appends a string as UTF-8, unescaped. */
    public JsonOut raw(String s) {
        int n = s.length();
        ensure(n * 3);
        int p = len;
        byte[] b = buf;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                b[p++] = (byte) c;
            } else {
                len = p;
                i = utf8(s, i, c);
                p = len;
            }
        }
        len = p;
        return this;
    }

    /** Appends a decimal number. */
    public JsonOut raw(long v) {
        if (v == Long.MIN_VALUE) {
            ensure(MIN_LONG.length);
            System.arraycopy(MIN_LONG, 0, buf, len, MIN_LONG.length);
            len += MIN_LONG.length;
            return this;
        }
        ensure(20);
        byte[] b = buf;
        int p = len;
        if (v < 0) {
            b[p++] = '-';
            v = -v;
        }
        if (v < 10) {
            b[p++] = (byte) ('0' + v);
            len = p;
            return this;
        }
        int end = p + digits(v);
        int q = end;
        while (v >= Integer.MAX_VALUE) {
            long d = v / 100;
            int r = (int) (v - d * 100);
            b[--q] = DIGIT_PAIRS[2 * r + 1];
            b[--q] = DIGIT_PAIRS[2 * r];
            v = d;
        }
        int i = (int) v;
        while (i >= 100) {
            int d = i / 100;
            int r = i - d * 100;
            b[--q] = DIGIT_PAIRS[2 * r + 1];
            b[--q] = DIGIT_PAIRS[2 * r];
            i = d;
        }
        if (i >= 10) {
            b[--q] = DIGIT_PAIRS[2 * i + 1];
            b[--q] = DIGIT_PAIRS[2 * i];
        } else {
            b[--q] = (byte) ('0' + i);
        }
        len = end;
        return this;
    }

    /** Appends {@code true} or {@code false}. */
    public JsonOut raw(boolean v) {
        return raw(v ? "true" : "false");
    }

    /** The UTF-8 bytes of a piece of text, for {@link #raw(byte[])}. */
    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Appends bytes as they are (a piece of text encoded once: {@link #utf8}). */
    public JsonOut raw(byte[] bytes) {
        return raw(bytes, 0, bytes.length);
    }

    /** Appends bytes as they are. */
    public JsonOut raw(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buf, len, length);
        len += length;
        return this;
    }

    /** Appends bytes of a buffer as they are (absolute positions; the buffer's position is not moved). */
    public JsonOut raw(ByteBuffer bytes, int offset, int length) {
        ensure(length);
        bytes.get(offset, buf, len, length);
        len += length;
        return this;
    }

    /** Appends {@code v} as exactly {@code width} decimal digits (zero-padded; {@code v} fits). */
    public JsonOut digits(int v, int width) {
        ensure(width);
        for (int p = len + width - 1; p >= len; p--) {
            buf[p] = (byte) ('0' + v % 10);
            v /= 10;
        }
        len += width;
        return this;
    }

    private static int digits(long v) {
        if (v < 100_000L) {
            return v < 100 ? (v < 10 ? 1 : 2) : v < 1000 ? 3 : v < 10_000 ? 4 : 5;
        }
        long p = 1_000_000L;
        for (int d = 6; d < 19; d++) {
            if (v < p) {
                return d;
            }
            p *= 10;
        }
        return 19;
    }

    /** Encodes the character at {@code i} (not ASCII) as UTF-8; returns the index of its last char. */
    private int utf8(String s, int i, char c) {
        ensure(4);
        if (c < 0x800) {
            buf[len++] = (byte) (0xC0 | (c >> 6));
            buf[len++] = (byte) (0x80 | (c & 0x3F));
            return i;
        }
        if (Character.isSurrogate(c)) {
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(i + 1));
                buf[len++] = (byte) (0xF0 | (cp >> 18));
                buf[len++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                buf[len++] = (byte) (0x80 | (cp & 0x3F));
                return i + 1;
            }
            buf[len++] = '?';
            return i;
        }
        buf[len++] = (byte) (0xE0 | (c >> 12));
        buf[len++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        buf[len++] = (byte) (0x80 | (c & 0x3F));
        return i;
    }

    /** Appends {@code s} JSON-escaped, without quotes. */
    public JsonOut escaped(String s) {
        int n = s.length();
        ensure(n * 6);
        char[] cs = chars;
        if (cs.length < n) {
            cs = chars = new char[Math.max(n, cs.length * 2)];
        }
        s.getChars(0, n, cs, 0);
        int p = len;
        byte[] b = buf;
        for (int i = 0; i < n; i++) {
            char c = cs[i];
            if (c < 0x80) {
                p = ascii(b, p, c);
            } else {
                len = p;
                i = utf8(s, i, c);
                p = len;
            }
        }
        len = p;
        return this;
    }

    /** Appends ASCII bytes (all below 0x80) JSON-escaped, without quotes: what {@link #escaped} makes of them as a string. */
    public JsonOut escapedAscii(byte[] ascii, int offset, int length) {
        ensure(length * 6);
        int p = len;
        byte[] b = buf;
        for (int i = offset, end = offset + length; i < end; i++) {
            p = ascii(b, p, ascii[i]);
        }
        len = p;
        return this;
    }

    /** One ASCII character at {@code b[p]}, JSON-escaped (room checked by the caller); returns the next position. */
    private static int ascii(byte[] b, int p, int c) {
        byte e = ESCAPES[c];
        if (e == 0) {
            b[p++] = (byte) c;
        } else if (e == 'u') {
            b[p++] = '\\';
            b[p++] = 'u';
            b[p++] = '0';
            b[p++] = '0';
            b[p++] = HEX[c >> 4];
            b[p++] = HEX[c & 0xF];
        } else {
            b[p++] = '\\';
            b[p++] = e;
        }
        return p;
    }

    /** Appends {@code s} JSON-quoted and escaped (no JSON level bookkeeping: for text lines). */
    public JsonOut quoted(String s) {
        raw('"');
        escaped(s);
        return raw('"');
    }

    // ---------------------------------------------------------------- JSON

    /**
     * Where the output is now, for {@link #rewind}: its size and the JSON level's state. Levels
     * opened after the mark are forgotten by the rewind.
     */
    public long mark() {
        return (long) len << 32 | (long) depth << 2 | (written[depth] ? 2 : 0) | (afterName ? 1 : 0);
    }

    /** Back to a {@link #mark()}: what was written since is dropped. */
    public void rewind(long mark) {
        len = (int) (mark >>> 32);
        depth = (int) (mark & 0xFFFFFFFFL) >>> 2;
        written[depth] = (mark & 2) != 0;
        afterName = (mark & 1) != 0;
    }

    /** Starts a string value: the separator if one is due, and the opening quote; the caller writes the rest and the closing quote. */
    public JsonOut writeString0() {
        value();
        return raw('"');
    }

    private void value() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (depth > 0) {
            if (written[depth]) {
                ensure(1);
                buf[len++] = ',';
            } else {
                written[depth] = true;
            }
        }
    }

    private void open(char c) {
        value();
        if (++depth == written.length) {
            written = Arrays.copyOf(written, depth * 2);
        }
        written[depth] = false;
        raw(c);
    }

    private void close(char c) {
        if (depth == 0) {
            throw new IllegalStateException("no open JSON level to close with " + c);
        }
        depth--;
        raw(c);
    }

    public JsonOut writeStartObject() {
        open('{');
        return this;
    }

    public JsonOut writeEndObject() {
        close('}');
        return this;
    }

    public JsonOut writeStartArray() {
        open('[');
        return this;
    }

    public JsonOut writeEndArray() {
        close(']');
        return this;
    }

    /** A field name encoded once: {@code "name":}. */
    public static final class Name {
        private final byte[] bytes;
        private final String name;

        private Name(String name) {
            this.name = name;
            JsonOut o = new JsonOut(name.length() * 6 + 3);
            o.raw('"').escaped(name).raw('"').raw(':');
            this.bytes = Arrays.copyOf(o.buf, o.len);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** A string value encoded once: {@code "text"}, quotes and escapes included. */
    public static final class Text {
        private final byte[] bytes;

        private Text(String text) {
            JsonOut o = new JsonOut(text.length() * 6 + 2);
            o.raw('"').escaped(text).raw('"');
            this.bytes = Arrays.copyOf(o.buf, o.len);
        }
    }

    /** Encodes a string value once, for {@link #writeString(Text)}. */
    public static Text text(String text) {
        return new Text(text);
    }

    /** A string value encoded once. */
    public JsonOut writeString(Text text) {
        value();
        byte[] b = text.bytes;
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
        return this;
    }

    public JsonOut writeStringField(Name name, Text value) {
        writeFieldName(name);
        return writeString(value);
    }

    /**
     * A JSON string of the UTF-8 bytes {@code buffer[offset, offset+length)}, copied straight into
     * the output when they are ASCII that needs no escape (the common case); false, with nothing
     * written, otherwise (the caller decodes and escapes them).
     */
    public boolean writeAsciiString(java.nio.ByteBuffer buffer, int offset, int length) {
        ensure(length + 3); // a comma, the quotes: no growth below, so b stays the buffer
        int start = len;
        buffer.get(offset, buf, start + 1, length);
        byte[] b = buf;
        for (int i = start + 1, end = start + 1 + length; i < end; i++) {
            byte c = b[i];
            if (c < 0x20 || c == '"' || c == '\\') { // also every byte >= 0x80 (negative)
                return false;
            }
        }
        value();
        if (len != start) { // a comma came first: move the string one byte on
            System.arraycopy(b, start + 1, b, len + 1, length);
        }
        b[len] = '"';
        b[len + 1 + length] = '"';
        len += length + 2;
        return true;
    }

    /** Encodes a field name once, for {@link #writeFieldName(Name)}. */
    public static Name name(String name) {
        return new Name(name);
    }

    public JsonOut writeFieldName(Name name) {
        if (depth > 0 && written[depth]) {
            raw(',');
        } else {
            written[depth] = true;
        }
        byte[] b = name.bytes;
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
        afterName = true;
        return this;
    }

    public JsonOut writeStringField(Name name, String value) {
        writeFieldName(name);
        return writeString(value);
    }

    public JsonOut writeNumberField(Name name, long value) {
        writeFieldName(name);
        return writeNumber(value);
    }

    public JsonOut writeBooleanField(Name name, boolean value) {
        writeFieldName(name);
        return writeBoolean(value);
    }

    public JsonOut writeNullField(Name name) {
        writeFieldName(name);
        return writeNull();
    }

    public JsonOut writeObjectFieldStart(Name name) {
        writeFieldName(name);
        return writeStartObject();
    }

    public JsonOut writeArrayFieldStart(Name name) {
        writeFieldName(name);
        return writeStartArray();
    }

    public JsonOut writeFieldName(String name) {
        if (depth > 0 && written[depth]) {
            raw(',');
        } else {
            written[depth] = true;
        }
        raw('"');
        escaped(name);
        ensure(2);
        buf[len++] = '"';
        buf[len++] = ':';
        afterName = true;
        return this;
    }

    public JsonOut writeString(String s) {
        value();
        raw('"');
        escaped(s);
        return raw('"');
    }

    /** A JSON string of UTF-8 bytes taken as they are (the caller guarantees they are valid UTF-8 needing no escape). */
    public JsonOut writeUtf8String(byte[] utf8) {
        value();
        raw('"');
        raw(utf8, 0, utf8.length);
        return raw('"');
    }

    public JsonOut writeNumber(long v) {
        value();
        return raw(v);
    }

    public JsonOut writeNumber(double v) {
        if (!Double.isFinite(v)) {
            return writeString(Double.toString(v));
        }
        value();
        return raw(Double.toString(v));
    }

    public JsonOut writeNumber(BigInteger v) {
        value();
        return raw(v.toString());
    }

    public JsonOut writeNumber(BigDecimal v) {
        value();
        return raw(v.toString());
    }

    public JsonOut writeBoolean(boolean v) {
        value();
        return raw(v);
    }

    public JsonOut writeNull() {
        value();
        return raw("null");
    }

    /** Standard base64 with padding, quoted. */
    public JsonOut writeBinary(byte[] data) {
        value();
        raw('"');
        base64(data, 0, data.length);
        return raw('"');
    }

    /** Appends standard base64 with padding of {@code data[offset, offset+length)}, unquoted. */
    public JsonOut base64(byte[] data, int offset, int length) {
        ensure((length + 2) / 3 * 4);
        int end = offset + length;
        int i = offset;
        byte[] b = buf;
        int p = len;
        for (; i + 2 < end; i += 3) {
            int v = (data[i] & 0xFF) << 16 | (data[i + 1] & 0xFF) << 8 | data[i + 2] & 0xFF;
            b[p++] = BASE64[v >>> 18];
            b[p++] = BASE64[(v >>> 12) & 0x3F];
            b[p++] = BASE64[(v >>> 6) & 0x3F];
            b[p++] = BASE64[v & 0x3F];
        }
        int rest = end - i;
        if (rest > 0) {
            int v = (data[i] & 0xFF) << 16 | (rest == 2 ? (data[i + 1] & 0xFF) << 8 : 0);
            b[p++] = BASE64[v >>> 18];
            b[p++] = BASE64[(v >>> 12) & 0x3F];
            b[p++] = rest == 2 ? BASE64[(v >>> 6) & 0x3F] : (byte) '=';
            b[p++] = '=';
        }
        len = p;
        return this;
    }

}
