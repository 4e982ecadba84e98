package io.segscope.format.coordinator;

import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.SimpleRecord;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * One of Kafka 4.4.0's DumpLogSegments message parsers (nested classes of
 * {@code org.apache.kafka.tools.DumpLogSegments}, reached by reflection): what the tool prints after
 * {@code payload: } for a record value.
 */
public final class DumpLogSegmentsParser {
    private final Object parser;
    private final Method parse;

    /** @param nestedClass e.g. {@code ClusterMetadataLogMessageParser} */
    public DumpLogSegmentsParser(String nestedClass) {
        try {
            Class<?> c = Class.forName("org.apache.kafka.tools.DumpLogSegments$" + nestedClass);
            Constructor<?> ctor = c.getDeclaredConstructor();
            ctor.setAccessible(true);
            parser = ctor.newInstance();
            parse = c.getMethod("parse", Record.class);
            parse.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The payload text the tool prints for a record with this value at {@code offset}, or null. */
    public String payload(byte[] value, long offset) {
        try {
            Record record = MemoryRecords.withRecords(offset, Compression.NONE, new SimpleRecord(0L, null, value))
                    .records().iterator().next();
            Object result = parse.invoke(parser, record);
            Method v = result.getClass().getDeclaredMethod("value");
            v.setAccessible(true);
            return (String) ((Optional<?>) v.invoke(result)).orElse(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
