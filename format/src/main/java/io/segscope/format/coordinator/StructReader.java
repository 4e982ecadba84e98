package io.segscope.format.coordinator;

import io.segscope.format.io.KafkaUuid;
import io.segscope.format.io.Varints;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Reads any {@link StructSchema} at any version from a buffer window, the way Kafka's generated
 * {@code read(Readable, short)} methods do (docs/format.md 2.1 encodings, 2.7 tagged fields):
 * absent fields take their defaults, known tags are read by their type (the declared size is only
 * used to skip unknown tags, as in Kafka), unknown tags are skipped and counted. It applies the same limits as the generated readers (string length at most 32767,
 * collection size at most the bytes remaining and at most 1,000,000, at most 10,000 tagged
 * fields, varints at most 5 bytes) so that a value Kafka rejects is rejected here too.
 *
 * <p>Absolute reads only; one reader is not thread-safe but can be reused.
 */
public final class StructReader {
    /** The longest string Kafka's generated readers accept. */
    public static final int MAX_STRING_LENGTH = 32767;
    /** The most elements of an array Kafka's generated readers accept. */
    public static final int MAX_COLLECTION_SIZE = 1_000_000;
    /** The most tagged fields of one struct Kafka's generated readers accept. */
    public static final int MAX_TAGGED_FIELDS = 10_000;

    private static final byte[] NO_BYTES = new byte[0];

    private final boolean strictTags;
    private ByteBuffer buf;
    private int pos;
    private int limit;
    private byte[] scratch = NO_BYTES;
    private boolean checking;
    private TagSink tags;

    /** A reader that skips a known tag met at a version outside its tagged versions, as an unknown tag. */
    public StructReader() {
        this(false);
    }

    /**
     * @param strictTags whether a known tag met at a version outside its tagged versions fails the
     *     read ({@code "Tag N is not valid for version V"}), as Kafka's generated readers of
     *     flexible messages do
     */
    public StructReader(boolean strictTags) {
        this.strictTags = strictTags;
    }

    /**
     * Sets the sink that hears every tagged field this reader meets from now on (null: none).
     *
     * @return this reader
     */
    public StructReader tags(TagSink sink) {
        this.tags = sink;
        return this;
    }

    /**
     * Reads one struct from {@code buf[offset, offset+length)}.
     *
     * @param consumed if not null, {@code consumed[0]} receives the number of bytes read
     */
    public StructValue read(StructSchema schema, short version, boolean flexible, ByteBuffer buffer, int offset,
                            int length, int[] consumed) throws MalformedException {
        this.buf = buffer;
        this.pos = offset;
        this.limit = offset + length;
        StructValue v = readStruct(schema, version, flexible, schema.name());
        if (consumed != null) {
            consumed[0] = pos - offset;
        }
        this.buf = null;
        return v;
    }

    /**
     * Checks one struct in {@code buf[offset, offset+length)} as {@link #read} reads it, failing
     * exactly where and as it fails, without creating its values (strings and bytes are skipped).
     *
     * @param consumed if not null, {@code consumed[0]} receives the number of bytes read
     */
    public void check(StructSchema schema, short version, boolean flexible, ByteBuffer buffer, int offset,
                      int length, int[] consumed) throws MalformedException {
        this.buf = buffer;
        this.pos = offset;
        this.limit = offset + length;
        this.checking = true;
        try {
            readStruct(schema, version, flexible, schema.name());
        } finally {
            this.checking = false;
            this.buf = null;
        }
        if (consumed != null) {
            consumed[0] = pos - offset;
        }
    }

    /** Whether {@code n} bytes (or elements of at least a byte each) lie within the {@code remaining} bytes. */
    public static boolean fits(int n, int remaining) {
        return n >= 0 && n <= remaining;
    }

    /** Whether the generated readers accept this tagged-field count with {@code remaining} bytes left. */
    public static boolean acceptsTaggedFieldCount(int count, int remaining) {
        return fits(count, remaining) && count <= MAX_TAGGED_FIELDS;
    }

    /** Whether the generated readers accept this (non-null) string length with {@code remaining} bytes left. */
    public static boolean acceptsStringLength(int length, int remaining) {
        return fits(length, remaining) && length <= MAX_STRING_LENGTH;
    }

    private StructValue readStruct(StructSchema schema, short version, boolean flexible, String path) throws MalformedException {
        List<Field> fields = schema.fields();
        int n = fields.size();
        Object[] values = checking ? null : new Object[n];
        for (int i = 0; i < n; i++) {
            Field f = fields.get(i);
            if (f.inBody(version)) {
                Object o = readField(f, version, flexible, false, path);
                if (values != null) {
                    values[i] = o;
                }
            } else if (values != null) {
                values[i] = f.defaultValue();
            }
        }
        int unknown = 0;
        if (flexible) {
            int count = readUnsignedVarint(path, "._numTaggedFields");
            if (!acceptsTaggedFieldCount(count, limit - pos)) {
                throw malformed("tagged field count " + Integer.toUnsignedString(count) + " exceeds "
                        + (fits(count, limit - pos) ? MAX_TAGGED_FIELDS : "the " + (limit - pos) + " bytes remaining"), path);
            }
            for (int t = 0; t < count; t++) {
                int tag = readUnsignedVarint(path, "._tag");
                int size = readUnsignedVarint(path, "._tagSize");
                int index = taggedIndex(fields, tag, version);
                if (index < 0 && strictTags && declaresTag(fields, tag)) {
                    throw malformed("tag " + tag + " is not valid for version " + version, path);
                }
                if (index < 0) {
                    if (!fits(size, limit - pos)) {
                        throw malformed("tagged field " + Integer.toUnsignedString(tag) + " size " + Integer.toUnsignedString(size)
                                + " exceeds the " + (limit - pos) + " bytes remaining", path);
                    }
                    unknown++;
                    pos += size;
                    if (tags != null) {
                        tags.tag(schema, tag, null);
                    }
                } else {
                    // As Kafka's generated readers do: a known tag is read by its type and reading
                    // goes on where the field ends; the declared size is not used.
                    Object o = readField(fields.get(index), version, flexible, true, path);
                    if (values != null) {
                        values[index] = o;
                    }
                    if (tags != null) {
                        tags.tag(schema, tag, fields.get(index));
                    }
                }
            }
        }
        if (values == null) {
            return null;
        }
        return new StructValue(schema, version, values, unknown);
    }

    private static int taggedIndex(List<Field> fields, int tag, short version) {
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            if (f.tag() == tag && f.taggedVersions().contains(version)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean declaresTag(List<Field> fields, int tag) {
        for (Field f : fields) {
            if (f.isTagged() && f.tag() == tag) {
                return true;
            }
        }
        return false;
    }

    private Object readField(Field f, short version, boolean flexible, boolean tagged, String path) throws MalformedException {
        String fieldPath = f.pathUnder(path);
        boolean nullable = f.nullableVersions().contains(version);
        switch (f.type()) {
            case ARRAY: {
                int n = flexible ? readUnsignedVarint(fieldPath) - 1 : readInt32(fieldPath);
                if (n < 0) {
                    return nullOrFail(nullable, f, fieldPath);
                }
                if (!fits(n, limit - pos)) {
                    throw malformed("array of " + n + " elements exceeds the " + (limit - pos) + " bytes remaining", fieldPath);
                }
                if (n > MAX_COLLECTION_SIZE) {
                    throw malformed("array of " + n + " elements exceeds " + MAX_COLLECTION_SIZE, fieldPath);
                }
                if (n == 0) {
                    return Collections.emptyList();
                }
                if (checking) {
                    for (int i = 0; i < n; i++) {
                        if (f.elementType() == FieldType.STRUCT) {
                            readStruct(f.struct(), version, flexible, fieldPath);
                        } else {
                            readScalar(f.elementType(), false, flexible, f, fieldPath);
                        }
                    }
                    return Collections.emptyList();
                }
                List<Object> list = new ArrayList<>(Math.min(n, 1000));
                for (int i = 0; i < n; i++) {
                    if (f.elementType() == FieldType.STRUCT) {
                        list.add(readStruct(f.struct(), version, flexible, fieldPath));
                    } else {
                        list.add(readScalar(f.elementType(), false, flexible, f, fieldPath));
                    }
                }
                return Collections.unmodifiableList(list);
            }
            case STRUCT: {
                // Kafka's generator marks a nullable struct with an int8 (-1 = null) in the body, but
                // with an unsigned varint (0 = null, 1 = present) in the tagged section.
                if (nullable && (tagged ? readUnsignedVarint(fieldPath) <= 0 : readInt8(fieldPath) < 0)) {
                    return null;
                }
                return readStruct(f.struct(), version, flexible, fieldPath);
            }
            default:
                return readScalar(f.type(), nullable, flexible, f, fieldPath);
        }
    }

    private Object readScalar(FieldType type, boolean nullable, boolean flexible, Field f, String path) throws MalformedException {
        if (checking) {
            skipScalar(type, nullable, flexible, f, path);
            return null;
        }
        switch (type) {
            case BOOL: return readInt8(path) != 0;
            case INT8: return readInt8(path);
            case INT16: return (short) readInt16(path);
            case UINT16: return readInt16(path) & 0xffff;
            case INT32: return readInt32(path);
            case INT64: return readInt64(path);
            case FLOAT64: return Double.longBitsToDouble(readInt64(path));
            case UUID: {
                long msb = readInt64(path);
                long lsb = readInt64(path);
                return msb == 0 && lsb == 0 ? KafkaUuid.ZERO : new KafkaUuid(msb, lsb);
            }
            case STRING: {
                int len = flexible ? readUnsignedVarint(path) - 1 : (short) readInt16(path);
                if (len < 0) {
                    return nullOrFail(nullable, f, path);
                }
                if (len > MAX_STRING_LENGTH) {
                    throw malformed("string length " + len + " exceeds " + MAX_STRING_LENGTH, path);
                }
                need(len, path);
                String s = decodeUtf8(buf, pos, len);
                pos += len;
                return s;
            }
            case BYTES: {
                int len = flexible ? readUnsignedVarint(path) - 1 : readInt32(path);
                if (len < 0) {
                    return nullOrFail(nullable, f, path);
                }
                need(len, path);
                byte[] b = new byte[len];
                buf.get(pos, b, 0, len);
                pos += len;
                return new Bytes(b);
            }
            default:
                throw new IllegalStateException(type.name());
        }
    }

    /** As {@link #readScalar}, creating nothing: the same checks, in the same order. */
    private void skipScalar(FieldType type, boolean nullable, boolean flexible, Field f, String path) throws MalformedException {
        switch (type) {
            case BOOL:
            case INT8: readInt8(path); return;
            case INT16:
            case UINT16: readInt16(path); return;
            case INT32: readInt32(path); return;
            case INT64:
            case FLOAT64: readInt64(path); return;
            case UUID: readInt64(path); readInt64(path); return;
            case STRING: {
                int len = flexible ? readUnsignedVarint(path) - 1 : (short) readInt16(path);
                if (len < 0) {
                    nullOrFail(nullable, f, path);
                    return;
                }
                if (len > MAX_STRING_LENGTH) {
                    throw malformed("string length " + len + " exceeds " + MAX_STRING_LENGTH, path);
                }
                need(len, path);
                pos += len;
                return;
            }
            case BYTES: {
                int len = flexible ? readUnsignedVarint(path) - 1 : readInt32(path);
                if (len < 0) {
                    nullOrFail(nullable, f, path);
                    return;
                }
                need(len, path);
                pos += len;
                return;
            }
            default:
                throw new IllegalStateException(type.name());
        }
    }

    private Object nullOrFail(boolean nullable, Field f, String path) throws MalformedException {
        if (nullable) {
            return null;
        }
        throw malformed("non-nullable field " + f.jsonName() + " was serialized as null", path);
    }

    /** Decodes UTF-8 the way {@code new String(bytes, UTF_8)} does (malformed input becomes U+FFFD). */
    private String decodeUtf8(ByteBuffer b, int offset, int len) {
        if (b.hasArray()) {
            return new String(b.array(), b.arrayOffset() + offset, len, StandardCharsets.UTF_8);
        }
        // a buffer without an array (a mapped file): through one scratch array per reader
        if (scratch.length < len) {
            scratch = new byte[Math.max(len, Math.max(64, 2 * scratch.length))];
        }
        b.get(offset, scratch, 0, len);
        return new String(scratch, 0, len, StandardCharsets.UTF_8);
    }

    private void need(int n, String path) throws MalformedException {
        if (!fits(n, limit - pos)) {
            throw malformed("needs " + n + " bytes, " + (limit - pos) + " remain", path);
        }
    }

    private byte readInt8(String path) throws MalformedException {
        need(1, path);
        return buf.get(pos++);
    }

    private int readInt16(String path) throws MalformedException {
        need(2, path);
        int v = buf.getShort(pos);
        pos += 2;
        return v;
    }

    private int readInt32(String path) throws MalformedException {
        need(4, path);
        int v = buf.getInt(pos);
        pos += 4;
        return v;
    }

    private long readInt64(String path) throws MalformedException {
        need(8, path);
        long v = buf.getLong(pos);
        pos += 8;
        return v;
    }

    /** Kafka's unsigned varint: at most 5 bytes, the result may wrap to a negative int. */
    private int readUnsignedVarint(String path) throws MalformedException {
        return readUnsignedVarint(path, "");
    }

    /** As {@link #readUnsignedVarint(String)}, for the path {@code path + suffix} (built only on failure). */
    private int readUnsignedVarint(String path, String suffix) throws MalformedException {
        long packed = Varints.unsignedVarint(buf, pos, limit);
        if (packed < 0) {
            throw malformed("unsigned varint truncated or longer than 5 bytes", path + suffix);
        }
        pos += Varints.size(packed);
        return Varints.value(packed);
    }

    private MalformedException malformed(String message, String path) {
        return new MalformedException(message, pos, path);
    }
}
