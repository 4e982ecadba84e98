package io.segscope.format.coordinator.metadata;

import io.segscope.format.coordinator.Bytes;
import io.segscope.format.coordinator.MalformedException;
import io.segscope.format.coordinator.StructReader;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.io.Varints;
import io.segscope.format.record.LogRecord;
import java.nio.ByteBuffer;
import java.util.function.IntFunction;

/**
 * Decodes the value of one KRaft metadata record, as found in {@code __cluster_metadata-0}
 * segments and in metadata snapshots ({@code <offset>-<epoch>.checkpoint},
 * {@code bootstrap.checkpoint}), with the rules of Kafka 4.4.0's {@code MetadataRecordSerde}:
 *
 * <pre>
 * value = unsigned varint frame version (must be 1)
 *         unsigned varint apiKey
 *         unsigned varint version
 *         the record's struct at that version (every 4.4.0 version is flexible)
 * </pre>
 *
 * Each header varint must be at most 32767 (one that wraps to a negative int is taken as its low
 * 16 bits, as Kafka does); a version outside the type's valid versions is read with the field
 * layout of the nearest valid one ({@link MetadataRecordSchema#layoutVersion}), except that one
 * above the highest fails as soon as a nested struct (an element of a struct array) is present,
 * since the generated classes of nested structs refuse such versions; a known tag at a
 * version outside its tagged versions fails; bytes after the struct fail. Record keys are not
 * used (metadata records have none).
 *
 * <p>Every outcome is a value: {@link MetadataDecoded} or {@link MetadataUnknown}; no bytes inside
 * the given slice make it throw. Stateless and thread-safe.
 */
public final class MetadataRecordDecoder {
    /** The header varints, as Kafka's messages name them. */
    private static final String[] HEADER_NAMES = {"frame version", "type", "version"};

    private MetadataRecordDecoder() {
    }

    /** Decodes {@code buf[off, off+len)}; a null buffer or a negative length is a null value. */
    public static MetadataResult decode(ByteBuffer buf, int off, int len) {
        return decode(buf, off, len, MetadataSchemas::forApiKey);
    }

    /**
     * Decodes {@code buf[off, off+len)} with another table of record types framed the same way
     * (Kafka's {@code AbstractApiMessageSerde}): the records of {@code __remote_log_metadata}.
     *
     * @param schemas the schema of an apiKey, or null when the table defines none
     */
    public static MetadataResult decode(ByteBuffer buf, int off, int len, IntFunction<MetadataRecordSchema> schemas) {
        return decode(buf, off, len, schemas, null);
    }

    /**
     * As {@link #decode(ByteBuffer, int, int, IntFunction)}, telling {@code tags} (when not null)
     * every tagged field of the record as it is read; a record that does not decode may have told
     * some before failing.
     */
    public static MetadataResult decode(ByteBuffer buf, int off, int len, IntFunction<MetadataRecordSchema> schemas,
                                        io.segscope.format.coordinator.TagSink tags) {
        if (buf == null || len < 0) {
            return new MetadataUnknown(MetadataUnknownReason.NULL_VALUE, (short) -1, (short) -1, (short) -1,
                    "Error while reading frame version", "the record has a null value", null, -1, null);
        }
        int limit = off + len;
        int pos = off;
        short[] header = {-1, -1, -1};
        String[] names = HEADER_NAMES;
        for (int i = 0; i < 3; i++) {
            long packed = Varints.unsignedVarint(buf, pos, limit);
            if (packed < 0) {
                return unknown(MetadataUnknownReason.MALFORMED_HEADER, header, "Error while reading " + names[i],
                        names[i] + ": unsigned varint truncated or longer than 5 bytes", names[i], pos - off, buf, off, len);
            }
            int value = Varints.value(packed);
            if (value > Short.MAX_VALUE) {
                return unknown(MetadataUnknownReason.MALFORMED_HEADER, header, "Value for " + names[i] + " was too large.",
                        names[i] + " " + value + " exceeds 32767", names[i], pos - off, buf, off, len);
            }
            header[i] = (short) value;
            if (i == 0 && header[0] != 1) {
                String message = header[0] == 0
                        ? "Could not deserialize metadata record with frame version 0. Note that upgrades from the preview"
                                + " release of KRaft in 2.8 to newer versions are not supported."
                        : "Could not deserialize metadata record due to unknown frame version " + header[0]
                                + "(only frame version 1 is supported)";
                return unknown(MetadataUnknownReason.UNSUPPORTED_FRAME_VERSION, header, message,
                        "frame version " + header[0] + " is not 1", names[0], pos - off, buf, off, len);
            }
            pos += Varints.size(packed);
        }
        short apiKey = header[1];
        short version = header[2];
        MetadataRecordSchema schema = schemas.apply(apiKey);
        if (schema == null) {
            return unknown(MetadataUnknownReason.UNKNOWN_RECORD_TYPE, header,
                    "org.apache.kafka.common.errors.UnsupportedVersionException: Unknown metadata id " + apiKey,
                    "apiKey " + apiKey + " is not a Kafka 4.4.0 metadata record type", null, 0, buf, off, len);
        }
        short layout = schema.layoutVersion(version);
        int[] consumed = new int[1];
        StructValue value;
        try {
            value = new StructReader(true).tags(tags).read(schema.value(), layout, schema.flexibleVersions().contains(layout), buf,
                    pos, limit - pos, consumed);
        } catch (MalformedException e) {
            return unknown(MetadataUnknownReason.MALFORMED_VALUE, header, "Failed to deserialize record with type " + apiKey,
                    e.getMessage(), e.field(), e.position() - off, buf, off, len);
        }
        if (version > schema.validVersions().highest() && holdsNestedStruct(value)) {
            // the generated classes of nested structs refuse versions above the highest
            return unknown(MetadataUnknownReason.MALFORMED_VALUE, header, "Failed to deserialize record with type " + apiKey,
                    "Can't read version " + version + " of a struct nested in " + schema.name(), schema.name(), -1, buf, off, len);
        }
        int trailing = limit - pos - consumed[0];
        if (trailing > 0) {
            return unknown(MetadataUnknownReason.TRAILING_BYTES, header,
                    "Found " + trailing + " byte(s) of garbage after " + apiKey,
                    trailing + " bytes follow the " + schema.name() + " struct", schema.name(), len - trailing, buf, off, len);
        }
        return new MetadataDecoded(schema, version, value);
    }

    private static boolean holdsNestedStruct(StructValue v) {
        for (int i = 0; i < v.schema().fields().size(); i++) {
            Object o = v.get(i);
            if (o instanceof StructValue) {
                return true;
            }
            if (o instanceof java.util.List && !((java.util.List<?>) o).isEmpty() && ((java.util.List<?>) o).get(0) instanceof StructValue) {
                return true;
            }
        }
        return false;
    }

    /** Decodes the value of a record of a {@code __cluster_metadata} segment or snapshot (a data batch's record). */
    public static MetadataResult decode(LogRecord record) {
        return decode(record.buffer(), record.valueOffset(), record.valueLength());
    }

    /** Decodes a byte array (null is a null value). */
    public static MetadataResult decode(byte[] value) {
        return value == null ? decode(null, 0, -1) : decode(ByteBuffer.wrap(value), 0, value.length);
    }

    private static MetadataUnknown unknown(MetadataUnknownReason reason, short[] header, String kafkaMessage, String detail,
                                           String field, int position, ByteBuffer buf, int off, int len) {
        byte[] raw = new byte[len];
        buf.get(off, raw, 0, len);
        return new MetadataUnknown(reason, header[0], header[1], header[2], kafkaMessage, detail, field, position, new Bytes(raw));
    }
}
