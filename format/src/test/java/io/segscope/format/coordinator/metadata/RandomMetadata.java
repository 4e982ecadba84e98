package io.segscope.format.coordinator.metadata;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.coordinator.Field;
import io.segscope.format.coordinator.FieldType;
import io.segscope.format.coordinator.StructSchema;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Random;

/**
 * Random message contents as the JSON that Kafka's generated {@code JsonConverter.read} accepts,
 * driven by segscope's tables (pinned to Kafka's by {@code MetadataSchemaTablesTest}). Strings mix
 * ASCII, JSON-escaped characters, non-ASCII and surrogate pairs; numbers include edge values;
 * nullable fields are sometimes null and tagged fields sometimes absent.
 */
final class RandomMetadata {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final String[] PIECES = {"a", "b", "z", "0", "9", "-", "_", ".", " ", "\"", "\\", "/", "\n", "\t",
        "\u0001", "\u001f", "\u007f", "é", "ß", "组", "\u2028", "😀", "topic", "PLAINTEXT", "localhost", "metadata.version"};
    private static final double[] DOUBLES = {0.0, -0.0, 1.0, -1.0, 1e300, Double.MIN_VALUE, Double.MAX_VALUE, 1048576.0, 0.1, 1e-7};

    private final Random r;

    RandomMetadata(Random r) {
        this.r = r;
    }

    String json(StructSchema schema, short version) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            writeStruct(g, schema, version);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    private void writeStruct(JsonGenerator g, StructSchema schema, short version) throws IOException {
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
            writeField(g, f, version);
        }
        g.writeEndObject();
    }

    private void writeField(JsonGenerator g, Field f, short version) throws IOException {
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
            case FLOAT64: g.writeNumber(r.nextInt(3) == 0 ? DOUBLES[r.nextInt(DOUBLES.length)] : r.nextDouble() * Math.pow(10, r.nextInt(20) - 5)); return;
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

    private long pick(long[] edges, long random) {
        return r.nextInt(4) == 0 ? edges[r.nextInt(edges.length)] : random;
    }

    String string() {
        int n = r.nextInt(6);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(PIECES[r.nextInt(PIECES.length)]);
        }
        return sb.toString();
    }

    byte[] bytes(int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }
}
