package io.segscope.format.walk.spi;

import java.nio.ByteBuffer;

/**
 * A decoder for the keys and values of user topics, segscope's counterpart of DumpLogSegments'
 * {@code --key-decoder-class}/{@code --value-decoder-class}: found with {@link java.util.ServiceLoader}
 * (a {@code META-INF/services/io.segscope.format.walk.spi.RecordDecoder} file naming the class) on
 * the classpath or in the jars of {@code segscope dump --decoder-path}, and asked before the plain
 * text/base64 rendering for the records of every topic it {@link #handles}. Coordinator topics, the
 * metadata log and {@code __remote_log_metadata} keep their own decoders.
 *
 * <p>Results are JSON-ish: a {@link java.util.Map} with String keys (an object, printed in its
 * iteration order), a {@link java.util.List}, a {@link String}, a {@link Number}, a {@link Boolean} or
 * null. {@code dump --format text} prints them as compact JSON, {@code jsonl} embeds them as JSON
 * values, {@code --format kafka} prints {@code String.valueOf} of strings and the JSON of the
 * rest. An exception is reported on the record's line and the record is shown raw.
 *
 * <p>Implementations need a public no-argument constructor, must be thread-safe and must not keep
 * the buffers: they are views of the segment, valid during the call only (read them with absolute
 * gets or a {@link ByteBuffer#duplicate()}).
 */
public interface RecordDecoder {
    /** A short name, printed with the decoded record ({@code decoder} in jsonl). */
    String name();

    /** Whether this decoder reads the records of {@code topic}. */
    boolean handles(String topic);

    /**
     * Decodes a key.
     *
     * @param key the key's bytes, {@code position()} to {@code limit()} (read-only)
     */
    Object decodeKey(String topic, ByteBuffer key);

    /**
     * Decodes a value (tombstones are not passed: their value stays null).
     *
     * @param value the value's bytes, {@code position()} to {@code limit()} (read-only)
     */
    Object decodeValue(String topic, ByteBuffer value);
}
