package io.segscope.format.json;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.Field;
import io.segscope.format.coordinator.FieldType;
import io.segscope.format.coordinator.KeyFields;
import io.segscope.format.coordinator.RecordSchema;
import io.segscope.format.coordinator.StructReader;
import io.segscope.format.coordinator.StructSchema;
import io.segscope.format.io.Varints;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The dump's fast path for coordinator records: the key and value JSON of {@link CoordinatorJson}
 * written straight from the record's bytes, with no {@code StructValue}, string or box made. It
 * takes only the common case, and says no (having written nothing that stays) for anything else,
 * so that the caller decodes the record ({@link CoordinatorRecordDecoder}) and writes it from
 * there: a key or value that does not parse, or would not parse in Kafka's generated readers
 * (every check {@link StructReader} makes is made here, in the same order); tagged fields present;
 * record types whose values the decoder refines (classic group metadata); fields with value names,
 * float64 fields; strings that are not ASCII are decoded and escaped as {@link JsonOut} does.
 * {@code CoordinatorStreamTest} holds it to the decoder's output on the corpus and on random and
 * mutated records. One instance per thread.
 */
public final class CoordinatorStream {
    private static final byte[] BASE64_URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
            .getBytes(StandardCharsets.US_ASCII);

    /** Signals "not the common case" inside the recursive writer. */
    private static final class Bail extends Exception {
        Bail() {
            super(null, null, false, false);
        }
    }

    private static final Bail BAIL = new Bail();

    private CoordinatorRecordDecoder decoder;
    private ByteBuffer buf;
    private int pos;
    private int limit;
    private byte[] scratch = new byte[256];

    // the record opened
    private RecordSchema schema;
    private ByteBuffer keyBuf;
    private int keyOffset;
    private int keyLength;
    private ByteBuffer valueBuf;
    private int valueOffset;
    private int valueLength;
    private short valueVersion;

    /**
     * Opens a record: true when its type and value version are known and it is a case this class
     * writes (it may still say no while writing). A null {@code valueBuf} or negative
     * {@code valueLength} is a tombstone.
     */
    public boolean open(CoordinatorRecordDecoder decoder, ByteBuffer keyBuf, int keyOffset, int keyLength,
                        ByteBuffer valueBuf, int valueOffset, int valueLength) {
        this.decoder = decoder;
        if (keyBuf == null || keyLength < 2) {
            return false;
        }
        RecordSchema s = decoder.schemas().forType(keyBuf.getShort(keyOffset));
        if (s == null || decoder.schemas().refines(s)) {
            return false;
        }
        this.schema = s;
        this.keyBuf = keyBuf;
        this.keyOffset = keyOffset;
        this.keyLength = keyLength;
        if (valueBuf == null || valueLength < 0) {
            this.valueBuf = null;
            this.valueVersion = -1;
            return true;
        }
        if (valueLength < 2) {
            return false;
        }
        short version = valueBuf.getShort(valueOffset);
        if (!s.valueVersions().contains(version)) {
            return false;
        }
        this.valueBuf = valueBuf;
        this.valueOffset = valueOffset;
        this.valueLength = valueLength;
        this.valueVersion = version;
        return true;
    }

    public RecordSchema schema() {
        return schema;
    }

    public boolean isTombstone() {
        return valueBuf == null;
    }

    /** The value version, or -1 for a tombstone. */
    public short valueVersion() {
        return valueVersion;
    }

    /** Writes the key's data object; false (output left as it was) when the key is not the common case. */
    public boolean writeKeyData(JsonOut o) {
        return write(o, schema.key(), (short) 0, false, keyBuf, keyOffset + 2, keyLength - 2);
    }

    /** Writes the value's data object; false (output left as it was) when the value is not the common case. */
    public boolean writeValueData(JsonOut o) {
        short v = valueVersion;
        return write(o, schema.value(), v, schema.flexibleVersions().contains(v), valueBuf, valueOffset + 2,
                valueLength - 2);
    }

    /**
     * Writes jsonl's {@code owner}, {@code ownerKind}, {@code keyTopic}, {@code keyTopicId} and
     * {@code keyPartition} fields from the key, as the decoded key gives them; false (output left
     * as it was) when the key is not the common case.
     */
    public boolean writeKeyFacts(JsonOut o, JsonOut.Name owner, JsonOut.Name ownerKind, JsonOut.Text kind, JsonOut.Name topic,
                                 JsonOut.Name topicId, JsonOut.Name partition) {
        long mark = o.mark();
        StructSchema key = schema.key();
        KeyFields roles = key.keyFields();
        List<Field> fields = key.fields();
        // where each role's value starts: read the key once, as the reader does
        int ownerAt = -1;
        int topicAt = -1;
        int topicIdAt = -1;
        int partitionAt = -1;
        buf = keyBuf;
        pos = keyOffset + 2;
        limit = keyOffset + keyLength;
        try {
            for (int i = 0; i < fields.size(); i++) {
                Field f = fields.get(i);
                if (!f.inBody(0)) {
                    if (f.versions().contains(0) || f.taggedVersions().contains(0)) {
                        throw BAIL;
                    }
                    if (i == roles.owner() || i == roles.topic() || i == roles.topicId() || i == roles.partition()) {
                        throw BAIL; // a default value: the decoder's path says it
                    }
                    continue;
                }
                if (i == roles.owner()) {
                    ownerAt = pos;
                } else if (i == roles.topic()) {
                    topicAt = pos;
                } else if (i == roles.topicId()) {
                    topicIdAt = pos;
                } else if (i == roles.partition()) {
                    partitionAt = pos;
                }
                skipField(f, (short) 0, false);
            }
            writeStringRole(o, owner, ownerAt, roles.owner(), fields);
            if (ownerAt < 0 || isNullString(ownerAt)) {
                o.writeNullField(ownerKind);
            } else {
                o.writeStringField(ownerKind, kind);
            }
            writeStringRole(o, topic, topicAt, roles.topic(), fields);
            o.writeFieldName(topicId);
            if (topicIdAt < 0) {
                o.writeNull();
            } else {
                if (fields.get(roles.topicId()).type() != FieldType.UUID) {
                    throw BAIL;
                }
                writeUuid(o, keyBuf.getLong(topicIdAt), keyBuf.getLong(topicIdAt + 8));
            }
            o.writeFieldName(partition);
            if (partitionAt < 0) {
                o.writeNull();
            } else {
                FieldType t = fields.get(roles.partition()).type();
                long p = t == FieldType.INT32 ? keyBuf.getInt(partitionAt) : t == FieldType.INT16 ? keyBuf.getShort(partitionAt) : -1;
                if (t != FieldType.INT32 && t != FieldType.INT16) {
                    throw BAIL;
                }
                if (p < 0) {
                    o.writeNull();
                } else {
                    o.writeNumber(p);
                }
            }
            return true;
        } catch (Bail b) {
            o.rewind(mark);
            return false;
        } finally {
            buf = null;
        }
    }

    private boolean isNullString(int at) {
        return keyBuf.getShort(at) < 0;
    }

    /** A key string role (non-flexible int16-length string) as a JSON string or null. */
    private void writeStringRole(JsonOut o, JsonOut.Name name, int at, int index, List<Field> fields) throws Bail {
        o.writeFieldName(name);
        if (at < 0) {
            o.writeNull();
            return;
        }
        if (fields.get(index).type() != FieldType.STRING) {
            throw BAIL;
        }
        int len = keyBuf.getShort(at);
        if (len < 0) {
            o.writeNull();
            return;
        }
        if (o.writeAsciiString(keyBuf, at + 2, len)) {
            return;
        }
        o.writeString0();
        ByteBuffer saved = buf;
        buf = keyBuf;
        stringBody(o, at + 2, len);
        buf = saved;
        o.raw('"');
    }

    // ------------------------------------------------------------------ struct writer

    private boolean write(JsonOut o, StructSchema s, short version, boolean flexible, ByteBuffer b, int offset, int length) {
        long mark = o.mark();
        this.buf = b;
        this.pos = offset;
        this.limit = offset + length;
        try {
            struct(o, s, version, flexible);
            return true;
        } catch (Bail e) {
            o.rewind(mark);
            return false;
        } finally {
            this.buf = null;
        }
    }

    private void struct(JsonOut o, StructSchema s, short version, boolean flexible) throws Bail {
        o.writeStartObject();
        List<Field> fields = s.fields();
        JsonOut.Name[] names = this.names.computeIfAbsent(s, CoordinatorStream::namesOf);
        int lastBody = -1;
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            if (!f.inBody(version)) {
                continue; // absent at this version, or tagged (at its default unless its tag follows)
            }
            if (f.hasValueNames()) {
                throw BAIL;
            }
            o.writeFieldName(names[i]);
            field(o, f, version, flexible);
            lastBody = i;
        }
        if (flexible) {
            int count = unsignedVarint();
            if (count != 0) {
                taggedSection(o, fields, count, lastBody, version);
            }
        }
        o.writeEndObject();
    }

    /**
     * Known scalar tags declared after every body field, read as the reader reads them (each tag
     * by its type; a later copy of a tag wins) and written in schema order when they differ from
     * their default, as {@link StructJson} writes them; anything else bails.
     */
    private void taggedSection(JsonOut o, List<Field> fields, int count, int lastBody, short version) throws Bail {
        if (!StructReader.acceptsTaggedFieldCount(count, limit - pos)) {
            throw BAIL;
        }
        int n = fields.size();
        if (tagAt.length < n) {
            tagAt = new int[n];
        }
        java.util.Arrays.fill(tagAt, 0, n, -1);
        for (int t = 0; t < count; t++) {
            int tag = unsignedVarint();
            unsignedVarint(); // the declared size: a known tag is read by its type
            int index = -1;
            for (int i = 0; i < n; i++) {
                Field f = fields.get(i);
                if (f.tag() == tag && f.taggedVersions().contains(version)) {
                    index = i;
                    break;
                }
            }
            if (index < 0 || index < lastBody) {
                throw BAIL; // an unknown tag (counted in jsonl), or one printed among the body fields
            }
            Field f = fields.get(index);
            tagAt[index] = pos;
            switch (f.type()) {
                case BOOL, INT8 -> int8();
                case INT16, UINT16 -> int16();
                case INT32 -> int32();
                case INT64 -> int64();
                case UUID -> {
                    int64();
                    int64();
                }
                default -> throw BAIL;
            }
        }
        int end = pos;
        for (int i = lastBody + 1; i < n; i++) {
            if (tagAt[i] < 0) {
                continue;
            }
            Field f = fields.get(i);
            if (f.hasValueNames()) {
                throw BAIL;
            }
            int at = tagAt[i];
            Object dflt = f.defaultValue();
            switch (f.type()) {
                case UUID -> {
                    long msb = buf.getLong(at);
                    long lsb = buf.getLong(at + 8);
                    if (dflt instanceof io.segscope.format.io.KafkaUuid u && u.mostSignificantBits() == msb && u.leastSignificantBits() == lsb) {
                        continue;
                    }
                    o.writeFieldName(StructJson.name(f));
                    writeUuid(o, msb, lsb);
                }
                case BOOL -> {
                    boolean v = buf.get(at) != 0;
                    if (dflt instanceof Boolean d && d == v) {
                        continue;
                    }
                    o.writeFieldName(StructJson.name(f));
                    o.writeBoolean(v);
                }
                default -> {
                    long v = switch (f.type()) {
                        case INT8 -> buf.get(at);
                        case INT16 -> buf.getShort(at);
                        case UINT16 -> buf.getShort(at) & 0xffff;
                        case INT32 -> buf.getInt(at);
                        default -> buf.getLong(at);
                    };
                    if (dflt instanceof Number d && d.longValue() == v) {
                        continue;
                    }
                    o.writeFieldName(StructJson.name(f));
                    o.writeNumber(v);
                }
            }
        }
        pos = end;
    }

    private int[] tagAt = new int[16];
    /** Each struct schema's field names, encoded: looked up once per struct, not per field (this thread's). */
    private final java.util.IdentityHashMap<StructSchema, JsonOut.Name[]> names = new java.util.IdentityHashMap<>();

    private static JsonOut.Name[] namesOf(StructSchema s) {
        JsonOut.Name[] n = new JsonOut.Name[s.fields().size()];
        for (int i = 0; i < n.length; i++) {
            n[i] = StructJson.name(s.fields().get(i));
        }
        return n;
    }

    private void field(JsonOut o, Field f, short version, boolean flexible) throws Bail {
        boolean nullable = f.nullableVersions().contains(version);
        switch (f.type()) {
            case ARRAY -> {
                int n = flexible ? unsignedVarint() - 1 : int32();
                if (n < 0) {
                    if (!nullable) {
                        throw BAIL;
                    }
                    o.writeNull();
                    return;
                }
                if (!StructReader.fits(n, limit - pos) || n > StructReader.MAX_COLLECTION_SIZE) {
                    throw BAIL;
                }
                o.writeStartArray();
                for (int i = 0; i < n; i++) {
                    if (f.elementType() == FieldType.STRUCT) {
                        struct(o, f.struct(), version, flexible);
                    } else {
                        scalar(o, f.elementType(), false, flexible);
                    }
                }
                o.writeEndArray();
            }
            case STRUCT -> {
                if (nullable && int8() < 0) {
                    o.writeNull();
                    return;
                }
                struct(o, f.struct(), version, flexible);
            }
            default -> scalar(o, f.type(), nullable, flexible);
        }
    }

    private void scalar(JsonOut o, FieldType type, boolean nullable, boolean flexible) throws Bail {
        switch (type) {
            case BOOL -> o.writeBoolean(int8() != 0);
            case INT8 -> o.writeNumber(int8());
            case INT16 -> o.writeNumber((short) int16());
            case UINT16 -> o.writeNumber(int16() & 0xffff);
            case INT32 -> o.writeNumber(int32());
            case INT64 -> o.writeNumber(int64());
            case UUID -> {
                long msb = int64();
                long lsb = int64();
                writeUuid(o, msb, lsb);
            }
            case STRING -> {
                int len = flexible ? unsignedVarint() - 1 : (short) int16();
                if (len < 0) {
                    if (!nullable) {
                        throw BAIL;
                    }
                    o.writeNull();
                    return;
                }
                if (len > StructReader.MAX_STRING_LENGTH) {
                    throw BAIL;
                }
                need(len);
                if (!o.writeAsciiString(buf, pos, len)) {
                    o.writeString0();
                    stringBody(o, pos, len);
                    o.raw('"');
                }
                pos += len;
            }
            case BYTES -> {
                int len = flexible ? unsignedVarint() - 1 : int32();
                if (len < 0) {
                    if (!nullable) {
                        throw BAIL;
                    }
                    o.writeNull();
                    return;
                }
                need(len);
                byte[] a = scratch(len);
                buf.get(pos, a, 0, len);
                pos += len;
                o.writeString0();
                o.base64(a, 0, len);
                o.raw('"');
            }
            default -> throw BAIL; // float64: the decoder's path prints it
        }
    }

    private static void writeUuid(JsonOut o, long msb, long lsb) {
        o.writeString0();
        base64Url(o, msb, lsb);
        o.raw('"');
    }

    /** Kafka's uuid text: the 16 bytes (big-endian) in URL-safe base64 without padding (22 characters). */
    private static void base64Url(JsonOut o, long msb, long lsb) {
        // 128 bits = 21 groups of 6 and 2 bits left over: 64 of msb, then lsb
        for (int shift = 58; shift >= 4; shift -= 6) {
            o.raw((char) BASE64_URL[(int) (msb >>> shift) & 0x3F]);
        }
        // bits 3..0 of msb and 63..62 of lsb
        o.raw((char) BASE64_URL[(int) ((msb & 0xF) << 2 | lsb >>> 62)]);
        for (int shift = 56; shift >= 2; shift -= 6) {
            o.raw((char) BASE64_URL[(int) (lsb >>> shift) & 0x3F]);
        }
        // bits 1..0 of lsb, padded with four zero bits
        o.raw((char) BASE64_URL[(int) (lsb & 0x3) << 4]);
    }

    /** The string's characters, escaped: ASCII straight from the buffer, anything else decoded as the reader does. */
    private void stringBody(JsonOut o, int at, int len) {
        byte[] a = scratch(len);
        buf.get(at, a, 0, len);
        for (int i = 0; i < len; i++) {
            if (a[i] < 0) {
                o.escaped(new String(a, 0, len, StandardCharsets.UTF_8));
                return;
            }
        }
        o.escapedAscii(a, 0, len);
    }

    private byte[] scratch(int len) {
        if (scratch.length < len) {
            scratch = new byte[Math.max(len, scratch.length * 2)];
        }
        return scratch;
    }

    // ------------------------------------------------------------------ reads, as StructReader checks them

    private void need(int n) throws Bail {
        if (!StructReader.fits(n, limit - pos)) {
            throw BAIL;
        }
    }

    private byte int8() throws Bail {
        need(1);
        return buf.get(pos++);
    }

    private int int16() throws Bail {
        need(2);
        int v = buf.getShort(pos);
        pos += 2;
        return v;
    }

    private int int32() throws Bail {
        need(4);
        int v = buf.getInt(pos);
        pos += 4;
        return v;
    }

    private long int64() throws Bail {
        need(8);
        long v = buf.getLong(pos);
        pos += 8;
        return v;
    }

    private int unsignedVarint() throws Bail {
        long packed = Varints.unsignedVarint(buf, pos, limit);
        if (packed < 0) {
            throw BAIL;
        }
        pos += Varints.size(packed);
        return Varints.value(packed);
    }

    /** Steps over one field as {@link #field} reads it, writing into a scratch output. */
    private void skipField(Field f, short version, boolean flexible) throws Bail {
        skipSink.reset();
        field(skipSink, f, version, flexible);
    }

    private final JsonOut skipSink = new JsonOut(256);
}
