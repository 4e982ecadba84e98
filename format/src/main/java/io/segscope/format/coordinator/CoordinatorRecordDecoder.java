package io.segscope.format.coordinator;

import io.segscope.format.coordinator.group.GroupCoordinatorSchemas;
import io.segscope.format.coordinator.share.ShareCoordinatorSchemas;
import io.segscope.format.coordinator.txn.TransactionLogSchemas;
import java.nio.ByteBuffer;

/**
 * Decodes one record of {@code __consumer_offsets}, {@code __transaction_state} or
 * {@code __share_group_state} from its key and value slices (docs/format.md 2.1):
 *
 * <pre>
 * key   = int16 record type, then the key struct (version 0, never flexible)
 * value = int16 value version, then the value struct at that version; a null value is a tombstone
 * </pre>
 *
 * Every outcome is a value: {@link Decoded}, or {@link Unknown} for a missing or malformed key, an
 * unknown type, an unknown value version or a value that does not parse. No exception escapes for
 * any bytes inside the given slices (the slices themselves must lie inside their buffers). Stateless and thread-safe. For the offset-commit hot path use
 * {@link io.segscope.format.coordinator.group.OffsetCommitView}, which allocates nothing.
 */
public final class CoordinatorRecordDecoder {
    private static final CoordinatorRecordDecoder CONSUMER_OFFSETS = new CoordinatorRecordDecoder(GroupCoordinatorSchemas.SCHEMAS);
    private static final CoordinatorRecordDecoder TRANSACTION_STATE = new CoordinatorRecordDecoder(TransactionLogSchemas.SCHEMAS);
    private static final CoordinatorRecordDecoder SHARE_GROUP_STATE = new CoordinatorRecordDecoder(ShareCoordinatorSchemas.SCHEMAS);

    private final SchemaSet schemas;
    private final boolean refine;

    public CoordinatorRecordDecoder(SchemaSet schemas) {
        this(schemas, true);
    }

    private CoordinatorRecordDecoder(SchemaSet schemas, boolean refine) {
        this.schemas = schemas;
        this.refine = refine;
    }

    /**
     * This decoder without {@link #refine}: for a reader that keeps few of the values it decodes
     * and refines those when it reads them.
     */
    public CoordinatorRecordDecoder unrefined() {
        return refine ? new CoordinatorRecordDecoder(schemas, false) : this;
    }

    /**
     * What {@link #decode} does to a value of {@code schema} once read (the group topic decodes
     * classic members' consumer protocol bytes where they parse); never fails.
     */
    public StructValue refine(RecordSchema schema, StructValue value) {
        return schemas.refine(schema, value);
    }

    public static CoordinatorRecordDecoder consumerOffsets() {
        return CONSUMER_OFFSETS;
    }

    public static CoordinatorRecordDecoder transactionState() {
        return TRANSACTION_STATE;
    }

    public static CoordinatorRecordDecoder shareGroupState() {
        return SHARE_GROUP_STATE;
    }

    public static CoordinatorRecordDecoder forTopic(CoordinatorTopic topic) {
        switch (topic) {
            case CONSUMER_OFFSETS: return CONSUMER_OFFSETS;
            case TRANSACTION_STATE: return TRANSACTION_STATE;
            default: return SHARE_GROUP_STATE;
        }
    }

    public SchemaSet schemas() {
        return schemas;
    }

    /**
     * Decodes a record.
     *
     * @param keyBuf the buffer holding the key, or null when the record has no key
     * @param keyLen the key length, or -1 when the record has no key
     * @param valueBuf the buffer holding the value, or null for a tombstone
     * @param valueLen the value length, or -1 for a tombstone
     */
    public CoordinatorResult decode(ByteBuffer keyBuf, int keyOff, int keyLen, ByteBuffer valueBuf, int valueOff, int valueLen) {
        return decode(keyBuf, keyOff, keyLen, valueBuf, valueOff, valueLen, false, false, null);
    }

    /** As {@link #decode(ByteBuffer, int, int, ByteBuffer, int, int)}, telling {@code tags} (when not null) every tagged field of the value. */
    public CoordinatorResult decode(ByteBuffer keyBuf, int keyOff, int keyLen, ByteBuffer valueBuf, int valueOff, int valueLen,
                                    TagSink tags) {
        return decode(keyBuf, keyOff, keyLen, valueBuf, valueOff, valueLen, false, false, tags);
    }

    /**
     * As {@link #decode(ByteBuffer, int, int, ByteBuffer, int, int)}, with the same results for a
     * record that does not decode, but a value only checked ({@link StructReader#check}), not
     * read: a {@link Decoded} holds no value ({@link Decoded#value()} null), and is a tombstone
     * only when its value version is -1.
     */
    public CoordinatorResult decodeKeyCheckValue(ByteBuffer keyBuf, int keyOff, int keyLen, ByteBuffer valueBuf,
                                                 int valueOff, int valueLen) {
        return decode(keyBuf, keyOff, keyLen, valueBuf, valueOff, valueLen, false, true, null);
    }

    /**
     * Checks a record against its schemas as {@link #decode} reads it, building neither its key nor
     * its value: the same results for a record that does not decode (with no key struct in an
     * {@link Unknown}); a {@link Decoded} with neither key nor value ({@link Decoded#key()} and
     * {@link Decoded#value()} null), a tombstone when its value version is -1. Tells {@code tags}
     * (when not null) every tagged field of the value as it is checked; a record that does not
     * decode may have told some before failing. The format inventory's path.
     */
    public CoordinatorResult check(ByteBuffer keyBuf, int keyOff, int keyLen, ByteBuffer valueBuf, int valueOff,
                                   int valueLen, TagSink tags) {
        return decode(keyBuf, keyOff, keyLen, valueBuf, valueOff, valueLen, true, true, tags);
    }

    private CoordinatorResult decode(ByteBuffer keyBuf, int keyOff, int keyLen, ByteBuffer valueBuf, int valueOff,
                                     int valueLen, boolean checkKey, boolean checkValue, TagSink tags) {
        CoordinatorTopic topic = schemas.topic();
        boolean tombstone = valueBuf == null || valueLen < 0;
        if (keyBuf == null || keyLen < 0) {
            return new Unknown(topic, UnknownReason.MISSING_KEY, (short) -1, (short) -1, null,
                    tombstone ? null : copy(valueBuf, valueOff, valueLen), null, "the record has no key", null, -1);
        }
        if (keyLen < 2) {
            return unknown(UnknownReason.MALFORMED_KEY, (short) -1, (short) -1, keyBuf, keyOff, keyLen, valueBuf, valueOff,
                    valueLen, null, "key of " + keyLen + " bytes has no int16 record type", null, 0);
        }
        short type = keyBuf.getShort(keyOff);
        RecordSchema schema = schemas.forType(type);
        if (schema == null) {
            return unknown(UnknownReason.UNKNOWN_RECORD_TYPE, type, (short) -1, keyBuf, keyOff, keyLen, valueBuf, valueOff,
                    valueLen, null, "unknown record type " + type, null, 0);
        }
        StructReader reader = new StructReader();
        int[] consumed = new int[1];
        StructValue key = null;
        try {
            if (checkKey) {
                reader.check(schema.key(), (short) 0, false, keyBuf, keyOff + 2, keyLen - 2, consumed);
            } else {
                key = reader.read(schema.key(), (short) 0, false, keyBuf, keyOff + 2, keyLen - 2, consumed);
            }
        } catch (MalformedException e) {
            return unknown(UnknownReason.MALFORMED_KEY, type, (short) -1, keyBuf, keyOff, keyLen, valueBuf, valueOff,
                    valueLen, null, e.getMessage(), e.field(), e.position() - keyOff);
        }
        int keyTrailing = keyLen - 2 - consumed[0];
        if (tombstone) {
            return new Decoded(topic, schema, key, (short) -1, null, keyTrailing, 0);
        }
        if (valueLen < 2) {
            return unknown(UnknownReason.MALFORMED_VALUE, type, (short) -1, keyBuf, keyOff, keyLen, valueBuf, valueOff,
                    valueLen, key, "value of " + valueLen + " bytes has no int16 version", null, 0);
        }
        short version = valueBuf.getShort(valueOff);
        if (!schema.valueVersions().contains(version)) {
            return unknown(UnknownReason.UNKNOWN_VALUE_VERSION, type, version, keyBuf, keyOff, keyLen, valueBuf, valueOff,
                    valueLen, key, "value version " + version + " is not in " + schema.valueVersions() + " for "
                            + schema.name(), null, 0);
        }
        StructValue value;
        reader.tags(tags);
        try {
            if (checkValue) {
                reader.check(schema.value(), version, schema.flexibleVersions().contains(version), valueBuf,
                        valueOff + 2, valueLen - 2, consumed);
                return new Decoded(topic, schema, key, version, null, keyTrailing, valueLen - 2 - consumed[0]);
            }
            value = reader.read(schema.value(), version, schema.flexibleVersions().contains(version), valueBuf,
                    valueOff + 2, valueLen - 2, consumed);
        } catch (MalformedException e) {
            return unknown(UnknownReason.MALFORMED_VALUE, type, version, keyBuf, keyOff, keyLen, valueBuf, valueOff,
                    valueLen, key, e.getMessage(), e.field(), e.position() - valueOff);
        }
        return new Decoded(topic, schema, key, version, refine ? schemas.refine(schema, value) : value, keyTrailing,
                valueLen - 2 - consumed[0]);
    }

    /** Decodes from two byte arrays (either may be null). */
    public CoordinatorResult decode(byte[] key, byte[] value) {
        return decode(key == null ? null : ByteBuffer.wrap(key), 0, key == null ? -1 : key.length,
                value == null ? null : ByteBuffer.wrap(value), 0, value == null ? -1 : value.length);
    }

    private Unknown unknown(UnknownReason reason, short type, short version, ByteBuffer keyBuf, int keyOff, int keyLen,
                            ByteBuffer valueBuf, int valueOff, int valueLen, StructValue key, String detail, String field,
                            int position) {
        Bytes value = valueBuf == null || valueLen < 0 ? null : copy(valueBuf, valueOff, valueLen);
        return new Unknown(schemas.topic(), reason, type, version, copy(keyBuf, keyOff, keyLen), value, key, detail, field, position);
    }

    private static Bytes copy(ByteBuffer b, int off, int len) {
        byte[] a = new byte[len];
        b.get(off, a, 0, len);
        return new Bytes(a);
    }
}
