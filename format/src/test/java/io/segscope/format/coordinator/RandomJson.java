package io.segscope.format.coordinator;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Random;

/**
 * Random message contents as the JSON that Kafka's generated {@code JsonConverter.read} accepts,
 * driven by segscope's schema tables (pinned to Kafka's by {@code SchemaTablesTest} and
 * {@code MetadataSchemaTablesTest}). Strings are made of the given pieces (ASCII, JSON-escaped
 * characters, non-ASCII, surrogate pairs, ...); numbers include edge values; nullable fields are
 * sometimes null and tagged fields sometimes absent. A subclass may write some fields itself
 * ({@link #writeFieldValue}) and choose its doubles ({@link #float64}).
 */
public abstract class RandomJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    /** The source of every choice. */
    protected final Random r;
    private final String[] pieces;

    protected RandomJson(Random r, String[] pieces) {
        this.r = r;
        this.pieces = pieces;
    }

    /** A random {@code schema} struct at {@code version}, as compact JSON. */
    public String json(StructSchema schema, short version) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            writeStruct(g, schema, version);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    protected final void writeStruct(JsonGenerator g, StructSchema schema, short version) throws IOException {
        g.writeStartObject();
        for (Field f : schema.fields()) {
            boolean tagged = f.taggedVersions().contains(version);
            if (!tagged && !f.versions().contains(version)) {
                continue;
            }
            if (tagged && r.nextInt(3) == 0) {
                continue;
            }
            g.writeFieldName(f.jsonName());
            writeFieldValue(g, schema, f, version);
        }
        g.writeEndObject();
    }

    /** Writes the value of field {@code f} of a {@code schema} struct: by default {@link #writeField}. */
    protected void writeFieldValue(JsonGenerator g, StructSchema schema, Field f, short version) throws IOException {
        writeField(g, f, version);
    }

    /** A random value of {@code f}'s type (null sometimes, where the version allows it). */
    protected final void writeField(JsonGenerator g, Field f, short version) throws IOException {
        if (f.nullableVersions().contains(version) && r.nextInt(4) == 0) {
            g.writeNull();
            return;
        }
        switch (f.type()) {
            case ARRAY: {
                g.writeStartArray();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    if (f.elementType() == FieldType.STRUCT) {
                        writeStruct(g, f.struct(), version);
                    } else {
                        writeScalar(g, f.elementType());
                    }
                }
                g.writeEndArray();
                return;
            }
            case STRUCT:
                writeStruct(g, f.struct(), version);
                return;
            default:
                writeScalar(g, f.type());
        }
    }

    private void writeScalar(JsonGenerator g, FieldType t) throws IOException {
        switch (t) {
            case BOOL: g.writeBoolean(r.nextBoolean()); return;
            case INT8: g.writeNumber(pick(new long[] {0, -1, 1, Byte.MIN_VALUE, Byte.MAX_VALUE}, r.nextInt(256) - 128)); return;
            case INT16: g.writeNumber(pick(new long[] {0, -1, 1, Short.MIN_VALUE, Short.MAX_VALUE}, r.nextInt(65536) - 32768)); return;
            case UINT16: g.writeNumber(pick(new long[] {0, 1, 65535, 9092}, r.nextInt(65536))); return;
            case INT32: g.writeNumber(pick(new long[] {0, -1, 1, Integer.MIN_VALUE, Integer.MAX_VALUE}, r.nextInt())); return;
            case INT64: g.writeNumber(pick(new long[] {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE}, r.nextLong())); return;
            case FLOAT64: g.writeNumber(float64()); return;
            case UUID: {
                byte[] b = r.nextInt(5) == 0 ? new byte[16] : bytes(16);
                g.writeString(Base64.getUrlEncoder().withoutPadding().encodeToString(b));
                return;
            }
            case STRING: g.writeString(string()); return;
            case BYTES: g.writeString(Base64.getEncoder().encodeToString(bytes(r.nextInt(12)))); return;
            default: throw new IllegalStateException(t.name());
        }
    }

    /** A float64 field's value: by default uniform in [0, 1). */
    protected double float64() {
        return r.nextDouble();
    }

    private long pick(long[] edges, long random) {
        return r.nextInt(4) == 0 ? edges[r.nextInt(edges.length)] : random;
    }

    /** Up to five random pieces. */
    public String string() {
        int n = r.nextInt(6);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(pieces[r.nextInt(pieces.length)]);
        }
        return sb.toString();
    }

    public byte[] bytes(int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }
}
