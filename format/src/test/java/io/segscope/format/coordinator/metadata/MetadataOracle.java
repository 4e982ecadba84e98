package io.segscope.format.coordinator.metadata;

import io.segscope.format.coordinator.DumpLogSegmentsParser;
import io.segscope.format.coordinator.KafkaOracle;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.metadata.MetadataRecordSerde;
import org.apache.kafka.server.common.ApiMessageAndVersion;

/**
 * Kafka 4.4.0's own classes as the oracle: generated JsonConverters build messages from JSON text,
 * {@code MetadataRecordSerde} frames them, and DumpLogSegments' own code prints them (its
 * {@code ClusterMetadataLogMessageParser} and its {@code printControlRecord}, reached by reflection).
 */
public final class MetadataOracle {
    static final String METADATA_PACKAGE = "org.apache.kafka.common.metadata.";
    public static final String MESSAGE_PACKAGE = "org.apache.kafka.common.message.";

    private static final DumpLogSegmentsParser PARSER = new DumpLogSegmentsParser("ClusterMetadataLogMessageParser");
    private static final Method PRINT_CONTROL;

    static {
        try {
            PRINT_CONTROL = Class.forName("org.apache.kafka.tools.DumpLogSegments").getDeclaredMethod("printControlRecord", Record.class);
            PRINT_CONTROL.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private MetadataOracle() {
    }

    /** {@code <className>JsonConverter.read(json, version)}. */
    public static Object readJson(String className, String json, short version) {
        return KafkaOracle.readJson(className, json, version);
    }

    /** A metadata record value as the controller writes it: {@code MetadataRecordSerde} framing. */
    public static byte[] frame(Object message, short version) {
        ApiMessageAndVersion amv = new ApiMessageAndVersion((ApiMessage) message, version);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = MetadataRecordSerde.INSTANCE.recordSize(amv, cache);
        ByteBuffer buf = ByteBuffer.allocate(size);
        MetadataRecordSerde.INSTANCE.write(amv, cache, new ByteBufferAccessor(buf));
        return buf.array();
    }

    /** A bare message at a version, as control record values are written. */
    public static byte[] bare(Object message, short version) {
        Message m = (Message) message;
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buf = ByteBuffer.allocate(m.size(cache, version));
        m.write(new ByteBufferAccessor(buf), cache, version);
        return buf.array();
    }

    /** What DumpLogSegments' {@code --cluster-metadata-decoder} prints after {@code payload: } for this value at offset 0. */
    public static String dumpPayload(byte[] value) {
        return PARSER.payload(value, 0L);
    }

    /**
     * What DumpLogSegments' {@code printControlRecord} prints for a control record with this type
     * and value, or null when it throws (the tool stops there).
     */
    public static String controlText(short type, byte[] value) {
        ByteBuffer key = ByteBuffer.allocate(4).putShort((short) 0).putShort(type);
        Record record = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(0L, key.array(), value)).records().iterator().next();
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            PRINT_CONTROL.invoke(null, record);
        } catch (InvocationTargetException e) {
            return null;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        } finally {
            System.setOut(out);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
