package io.segscope.format.coordinator;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
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
public final class RandomMessages extends RandomJson {
    private static final String[] PIECES = {"a", "b", "z", "0", "9", "-", "_", ".", " ", "\"", "\\", "/", "\n", "\t",
        "\u0001", "\u001f", "\u007f", "é", "ß", "组", "\u2028", "😀", "orders", "group-1", "consumer"};

    /** Whether the GroupMetadataValue being written got protocolType {@code consumer} (it precedes members). */
    private boolean consumer;

    public RandomMessages(Random r) {
        super(r, PIECES);
    }

    /** Kafka's message for a random key of the cell's record type. */
    public Object key(KafkaRoundTripTest.Cell cell) {
        return KafkaOracle.readJson(KafkaOracle.generatedPackage(cell.topic()) + cell.schema().key().name(),
                json(cell.schema().key(), (short) 0), (short) 0);
    }

    /** Kafka's message for a random value of the cell's record type at its version. */
    public Object value(KafkaRoundTripTest.Cell cell) {
        return KafkaOracle.readJson(KafkaOracle.generatedPackage(cell.topic()) + cell.schema().value().name(),
                json(cell.schema().value(), cell.version()), cell.version());
    }

    @Override
    protected void writeFieldValue(JsonGenerator g, StructSchema schema, Field f, short version) throws IOException {
        if (!schema.name().equals("GroupMetadataValue")) {
            writeField(g, f, version);
        } else if (f.name().equals("protocolType")) {
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
}
