package io.segscope.format.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.testkit.Tries;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link JsonOut} writes the bytes jackson-core's generator writes (through a UTF-8 writer, as the
 * dump wrote before): every character of the Basic Multilingual Plane and beyond in strings and
 * field names, lone surrogates, every kind of number, base64, nesting; and random documents of all
 * of them, with {@code mark}/{@code rewind} in between.
 */
class JsonOutTest {
    private static final JsonFactory FACTORY = new JsonFactory();

    /** The same calls on both writers. */
    private interface Doc {
        void write(JsonOut o, JsonGenerator g) throws IOException;
    }

    private static void same(Doc doc) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (Writer w = new OutputStreamWriter(bytes, StandardCharsets.UTF_8); JsonGenerator g = FACTORY.createGenerator(w)) {
            g.setRootValueSeparator(null);
            doc.write(null, g);
        }
        JsonOut o = new JsonOut(16);
        doc.write(o, null);
        assertThat(new String(java.util.Arrays.copyOf(o.array(), o.size()), StandardCharsets.ISO_8859_1))
                .isEqualTo(new String(bytes.toByteArray(), StandardCharsets.ISO_8859_1));
    }

    @Test
    void everyCharacterInStringsAndNames() throws IOException {
        for (int start = 0; start < 0x10000; start += 0x400) {
            StringBuilder sb = new StringBuilder();
            for (int c = start; c < start + 0x400; c++) {
                sb.append((char) c); // lone surrogates included
            }
            String s = sb.toString();
            same((o, g) -> {
                if (o != null) {
                    o.writeStartObject().writeFieldName(s).writeString(s).writeFieldName(JsonOut.name(s)).writeString(s).writeEndObject();
                } else {
                    g.writeStartObject();
                    g.writeStringField(s, s);
                    g.writeFieldName(s);
                    g.writeString(s);
                    g.writeEndObject();
                }
            });
        }
        String astral = new StringBuilder().appendCodePoint(0x1F600).appendCodePoint(0x10FFFF).append("\uD83D").toString();
        same((o, g) -> {
            if (o != null) {
                o.writeString(astral);
            } else {
                g.writeString(astral);
            }
        });
    }

    @Test
    void encodedTextsAndBufferStringsAsStrings() {
        java.util.Random r = new java.util.Random(3);
        for (int i = 0; i < 2000; i++) {
            byte[] bytes = new byte[r.nextInt(20)];
            for (int j = 0; j < bytes.length; j++) {
                bytes[j] = (byte) (r.nextInt(8) == 0 ? r.nextInt(256) : 0x20 + r.nextInt(0x5f));
            }
            String s = new String(bytes, StandardCharsets.UTF_8);
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocateDirect(bytes.length + 4).put(2, bytes);
            JsonOut expected = new JsonOut(8).writeStartArray().writeString(s).writeString(s).writeEndArray();
            JsonOut text = new JsonOut(8).writeStartArray().writeString(JsonOut.text(s)).writeString(JsonOut.text(s)).writeEndArray();
            assertThat(text.toString()).isEqualTo(expected.toString());
            JsonOut ascii = new JsonOut(8).writeStartArray();
            for (int k = 0; k < 2; k++) {
                long mark = ascii.mark();
                if (!ascii.writeAsciiString(buffer, 2, bytes.length)) {
                    assertThat(ascii.mark()).isEqualTo(mark);
                    ascii.writeString(s);
                }
            }
            assertThat(ascii.writeEndArray().toString()).isEqualTo(expected.toString());
        }
    }

    @Test
    void numbersAtEveryDigitCount() {
        java.util.List<Long> values = new java.util.ArrayList<>(java.util.List.of(0L, Long.MAX_VALUE, Long.MIN_VALUE,
                (long) Integer.MAX_VALUE, (long) Integer.MAX_VALUE + 1, (long) Integer.MIN_VALUE));
        for (long p = 1; p > 0 && p <= Long.MAX_VALUE / 10; p *= 10) {
            values.addAll(java.util.List.of(p - 1, p, p + 1, 10 * p - 1, -p, -(p - 1), -(10 * p - 1)));
        }
        for (long v : values) {
            JsonOut o = new JsonOut(4);
            o.raw(v);
            assertThat(o.toString()).isEqualTo(Long.toString(v));
        }
    }

    @Test
    void escapedAsciiIsEscapedForEveryByte() {
        byte[] all = new byte[128];
        for (int i = 0; i < 128; i++) {
            all[i] = (byte) i;
        }
        JsonOut a = new JsonOut();
        a.escapedAscii(all, 0, all.length);
        JsonOut b = new JsonOut();
        b.escaped(new String(all, StandardCharsets.US_ASCII));
        assertThat(a.toString()).isEqualTo(b.toString());
    }

    @TestFactory
    Stream<DynamicTest> randomDocuments() {
        return Tries.of(7, 500, gen -> {
            Random r = gen.random();
            long seed = r.nextLong();
            same((o, g) -> write(o, g, new Random(seed), 0));
        });
    }

    private static String text(Random r) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(12);
        for (int i = 0; i < n; i++) {
            switch (r.nextInt(5)) {
                case 0 -> sb.append((char) r.nextInt(0x20));
                case 1 -> sb.append("\"\\/'\u007f");
                case 2 -> sb.append((char) (0x80 + r.nextInt(0x800)));
                case 3 -> sb.appendCodePoint(0x10000 + r.nextInt(0x100000));
                default -> sb.append((char) ('a' + r.nextInt(26)));
            }
        }
        return sb.toString();
    }

    /** One random value at the root or in an array; objects and arrays nest. */
    private static void write(JsonOut o, JsonGenerator g, Random r, int depth) throws IOException {
        int kind = r.nextInt(depth > 4 ? 9 : 11);
        switch (kind) {
            case 0 -> { long v = r.nextLong(); if (o != null) o.writeNumber(v); else g.writeNumber(v); }
            case 1 -> { long v = r.nextInt(2000) - 1000; if (o != null) o.writeNumber(v); else g.writeNumber(v); }
            case 2 -> {
                double v = switch (r.nextInt(4)) {
                    case 0 -> Double.NaN;
                    case 1 -> Double.NEGATIVE_INFINITY;
                    case 2 -> -0.0;
                    default -> r.nextDouble() * Math.pow(10, r.nextInt(40) - 20);
                };
                if (o != null) o.writeNumber(v); else g.writeNumber(v);
            }
            case 3 -> { String s = text(r); if (o != null) o.writeString(s); else g.writeString(s); }
            case 4 -> { boolean v = r.nextBoolean(); if (o != null) o.writeBoolean(v); else g.writeBoolean(v); }
            case 5 -> { if (o != null) o.writeNull(); else g.writeNull(); }
            case 6 -> {
                byte[] b = new byte[r.nextInt(20)];
                r.nextBytes(b);
                if (o != null) o.writeBinary(b); else g.writeBinary(b);
            }
            case 7 -> { BigInteger v = new BigInteger(100, r).negate(); if (o != null) o.writeNumber(v); else g.writeNumber(v); }
            case 8 -> { BigDecimal v = new BigDecimal(new BigInteger(60, r), r.nextInt(20) - 10); if (o != null) o.writeNumber(v); else g.writeNumber(v); }
            case 9 -> {
                if (o != null) o.writeStartArray(); else g.writeStartArray();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    write(o, g, r, depth + 1);
                }
                if (o != null) o.writeEndArray(); else g.writeEndArray();
            }
            default -> {
                if (o != null) o.writeStartObject(); else g.writeStartObject();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    String name = text(r);
                    boolean drop = r.nextBoolean();
                    boolean encoded = r.nextBoolean();
                    if (o != null) {
                        long mark = o.mark();
                        if (drop) {
                            // something written, then taken back: the output is as if it never was
                            o.writeFieldName("dropped").writeStartObject().writeNumberField(JsonOut.name("x"), 1);
                            o.rewind(mark);
                        }
                        if (!encoded) {
                            o.writeFieldName(name);
                        } else {
                            o.writeFieldName(JsonOut.name(name));
                        }
                    } else {
                        g.writeFieldName(name);
                    }
                    write(o, g, r, depth + 1);
                }
                if (o != null) o.writeEndObject(); else g.writeEndObject();
            }
        }
    }
}
