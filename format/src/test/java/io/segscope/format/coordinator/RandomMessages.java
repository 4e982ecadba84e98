package io.segscope.format.coordinator;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Random;

/**
 * Random message contents as the JSON that Kafka's generated {@code JsonConverter.read} accepts,
 * driven by segscope's schema tables (which {@code SchemaTablesTest} pins to Kafka's). Strings mix
 * ASCII, JSON-escaped characters, non-ASCII and surrogate pairs; numbers include edge values;
 * nullable fields are sometimes null and tagged fields sometimes absent. A classic group with
 * protocolType {@code consumer} gets members whose subscription and assignment are real consumer
 * protocol bytes written by Kafka's classes (sometimes at a newer version with extra bytes,
 * sometimes garbage).
 */
final class RandomMessages {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final String[] PIECES = {"a", "b", "z", "0", "9", "-", "_", ".", " ", "\"", "\\", "/", "\n", "\t",
        "\u0001", "\u001f", "\u007f", "é", "ß", "组", "\u2028", "😀", "orders", "group-1", "consumer"};

    private final Random r;

    RandomMessages(Random r) {
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
        boolean consumer = false;
        for (Field f : schema.fields()) {
            boolean tagged = f.taggedVersions().contains(version);
            if (!tagged && !f.versions().contains(version)) {
                continue;
            }
            if (tagged && r.nextInt(3) == 0) {
                continue;
            }
            g.writeFieldName(f.jsonName());
            if (schema.name().equals("GroupMetadataValue") && f.name().equals("protocolType")) {
                consumer = r.nextBoolean();
                g.writeString(consumer ? "consumer" : string());
            } else if (consumer && f.name().equals("members")) {
                g.writeStartArray();
                int n = r.nextInt(3);
                for (int i = 0; i < n; i++) {
                    writeMember(g, f.struct(), version);
                }
                g.writeEndArray();
            } else {
                writeField(g, f, version);
            }
        }
        g.writeEndObject();
    }

    private void writeMember(JsonGenerator g, StructSchema member, short version) throws IOException {
        g.writeStartObject();
        for (Field f : member.fields()) {
            if (!f.versions().contains(version)) {
                continue;
            }
            g.writeFieldName(f.jsonName());
            if (f.name().equals("subscription")) {
                g.writeString(Base64.getEncoder().encodeToString(embedded("org.apache.kafka.common.message.ConsumerProtocolSubscription",
                        io.segscope.format.coordinator.group.ConsumerProtocol.SUBSCRIPTION)));
            } else if (f.name().equals("assignment")) {
                g.writeString(Base64.getEncoder().encodeToString(embedded("org.apache.kafka.common.message.ConsumerProtocolAssignment",
                        io.segscope.format.coordinator.group.ConsumerProtocol.ASSIGNMENT)));
            } else {
                writeField(g, f, version);
            }
        }
        g.writeEndObject();
    }

    /** Consumer protocol bytes: valid at 0-3, valid v3 relabelled 4-9 with trailing bytes, or garbage. */
    private byte[] embedded(String kafkaClass, StructSchema schema) {
        int kind = r.nextInt(6);
        if (kind == 0) {
            return bytes(r.nextInt(8));
        }
        short version = (short) (kind == 1 ? 3 : r.nextInt(4));
        Object msg = KafkaOracle.readJson(kafkaClass, json(schema, version), version);
        byte[] b = KafkaOracle.valueBytes(version, msg);
        if (kind == 1) {
            byte[] longer = java.util.Arrays.copyOf(b, b.length + r.nextInt(5));
            ByteBuffer.wrap(longer).putShort(0, (short) (4 + r.nextInt(6)));
            return longer;
        }
        return b;
    }

    private void writeField(JsonGenerator g, Field f, short version) throws IOException {
        boolean nullable = f.nullableVersions().contains(version);
        if (nullable && r.nextInt(4) == 0) {
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
            case FLOAT64: g.writeNumber(r.nextDouble()); return;
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
