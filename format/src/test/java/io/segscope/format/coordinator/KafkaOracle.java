package io.segscope.format.coordinator;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.Optional;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.SimpleRecord;

/**
 * Kafka 4.4.0's own classes, driven by reflection so that tests can reach every generated record
 * class by name: JsonConverter.read builds a message from JSON text, MessageUtil serializes it as
 * the coordinators do, and DumpLogSegments' own parsers print it.
 */
public final class KafkaOracle {
    private static final Object MAPPER;
    private static final Method READ_TREE;
    private static final Class<?> JSON_NODE;

    static {
        try {
            Class<?> om = Class.forName("com.fasterxml.jackson.databind.ObjectMapper");
            MAPPER = om.getConstructor().newInstance();
            READ_TREE = om.getMethod("readTree", String.class);
            JSON_NODE = Class.forName("com.fasterxml.jackson.databind.JsonNode");
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private KafkaOracle() {
    }

    static String generatedPackage(CoordinatorTopic topic) {
        switch (topic) {
            case CONSUMER_OFFSETS: return "org.apache.kafka.coordinator.group.generated.";
            case TRANSACTION_STATE: return "org.apache.kafka.coordinator.transaction.generated.";
            default: return "org.apache.kafka.coordinator.share.generated.";
        }
    }

    /** {@code <Name>JsonConverter.read(json, version)}. */
    public static Object readJson(String className, String json, short version) {
        try {
            Object node = READ_TREE.invoke(MAPPER, json);
            Class<?> conv = Class.forName(className + "JsonConverter");
            return conv.getMethod("read", JSON_NODE, short.class).invoke(null, node, version);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new IllegalStateException("Kafka rejected " + json, e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The compression of a codec name ({@code none}, {@code gzip}, {@code snappy}, {@code lz4}, {@code zstd}) at its default level. */
    public static Compression compression(String codec) {
        switch (codec) {
            case "lz4": return Compression.lz4().build();
            case "zstd": return Compression.zstd().build();
            case "gzip": return Compression.gzip().build();
            case "snappy": return Compression.snappy().build();
            default: return Compression.NONE;
        }
    }

    public static byte[] keyBytes(Object key) {
        return MessageUtil.toCoordinatorTypePrefixedBytes((ApiMessage) key);
    }

    public static byte[] valueBytes(short version, Object value) {
        return MessageUtil.toVersionPrefixedBytes(version, (ApiMessage) value);
    }

    /** DumpLogSegments' key and payload text for one record (null where it prints none). */
    public static String[] dump(CoordinatorTopic topic, byte[] key, byte[] value) {
        try {
            String name;
            switch (topic) {
                case CONSUMER_OFFSETS: name = "OffsetsMessageParser"; break;
                case TRANSACTION_STATE: name = "TransactionLogMessageParser"; break;
                default: name = "ShareGroupStateMessageParser"; break;
            }
            Class<?> c = Class.forName("org.apache.kafka.tools.DumpLogSegments$" + name);
            Constructor<?> ctor = c.getDeclaredConstructor();
            ctor.setAccessible(true);
            Object parser = ctor.newInstance();
            Record record = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(0L, key, value))
                    .records().iterator().next();
            Method parse = c.getMethod("parse", Record.class);
            parse.setAccessible(true);
            Object result = parse.invoke(parser, record);
            Method k = result.getClass().getDeclaredMethod("key");
            Method v = result.getClass().getDeclaredMethod("value");
            k.setAccessible(true);
            v.setAccessible(true);
            return new String[] {(String) ((Optional<?>) k.invoke(result)).orElse(null),
                    (String) ((Optional<?>) v.invoke(result)).orElse(null)};
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
