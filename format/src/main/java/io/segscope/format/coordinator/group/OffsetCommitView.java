package io.segscope.format.coordinator.group;

import io.segscope.format.coordinator.StructReader;
import io.segscope.format.coordinator.Utf8Slice;
import io.segscope.format.io.Varints;
import java.nio.ByteBuffer;

/**
 * Allocation-free view of an offset commit record of {@code __consumer_offsets}
 * (docs/format.md 2.2): key types 0 (LegacyOffsetCommit) and 1 (OffsetCommit), value versions
 * 0-4 (type 0: version 0 only). Strings stay in the buffer as {@link Utf8Slice}s. Reuse one view:
 * {@link #wrap} resets it.
 *
 * <pre>
 * key    int16 type | int16 len, group | int16 len, topic | int32 partition
 * value  int16 version, then by version:
 *   v0, v2  int64 offset | string metadata | int64 commitTimestamp
 *   v1      int64 offset | string metadata | int64 commitTimestamp | int64 expireTimestamp
 *   v3      int64 offset | int32 leaderEpoch | string metadata | int64 commitTimestamp
 *   v4      v3 with a compact metadata string, then tagged fields (tag 0 = uuid topicId)
 * </pre>
 *
 * {@link #wrap} accepts exactly the records that {@link io.segscope.format.coordinator.CoordinatorRecordDecoder}
 * decodes as types 0/1; for anything else it returns false and the caller asks the decoder for
 * the {@link io.segscope.format.coordinator.Unknown} result. It applies {@link StructReader}'s limits.
 */
public final class OffsetCommitView {
    private final Utf8Slice group = new Utf8Slice();
    private final Utf8Slice topic = new Utf8Slice();
    private final Utf8Slice metadata = new Utf8Slice();

    private short recordType;
    private int partition;
    private boolean tombstone;
    private short valueVersion;
    private long offset;
    private int leaderEpoch;
    private long commitTimestamp;
    private long expireTimestamp;
    private long topicIdMsb;
    private long topicIdLsb;
    private int unknownTaggedFields;

    /**
     * Whether the key starts with type 0 or 1, without reading further: a cheap test before
     * {@link #wrap}.
     */
    public static boolean isOffsetCommitKey(ByteBuffer keyBuf, int keyOff, int keyLen) {
        if (keyBuf == null || keyLen < 2) {
            return false;
        }
        short type = keyBuf.getShort(keyOff);
        return type == 0 || type == 1;
    }

    /**
     * Reads an offset commit key and value (value null or length -1 = tombstone).
     *
     * @return false when this is not a well-formed offset commit record
     */
    public boolean wrap(ByteBuffer keyBuf, int keyOff, int keyLen, ByteBuffer valueBuf, int valueOff, int valueLen) {
        return wrapKey(keyBuf, keyOff, keyLen) && wrapValue(valueBuf, valueOff, valueLen);
    }

    /** Reads the key only; false when it is not a well-formed type 0/1 key. */
    public boolean wrapKey(ByteBuffer buf, int off, int len) {
        if (!isOffsetCommitKey(buf, off, len)) {
            return false;
        }
        int end = off + len;
        int p = off + 2;
        recordType = buf.getShort(off);
        p = string16(buf, p, end, group);
        if (p < 0) {
            return false;
        }
        p = string16(buf, p, end, topic);
        if (p < 0 || end - p < 4) {
            return false;
        }
        partition = buf.getInt(p);
        return true;
    }

    /** Reads the value of the key last wrapped; false when it does not parse or its version is not defined. */
    public boolean wrapValue(ByteBuffer buf, int off, int len) {
        unknownTaggedFields = 0;
        topicIdMsb = 0;
        topicIdLsb = 0;
        leaderEpoch = -1;
        expireTimestamp = -1;
        if (buf == null || len < 0) {
            tombstone = true;
            valueVersion = -1;
            return true;
        }
        tombstone = false;
        if (len < 2) {
            return false;
        }
        int end = off + len;
        valueVersion = buf.getShort(off);
        int maxVersion = recordType == 0 ? 0 : 4;
        if (valueVersion < 0 || valueVersion > maxVersion) {
            return false;
        }
        int p = off + 2;
        if (end - p < 8) {
            return false;
        }
        offset = buf.getLong(p);
        p += 8;
        if (valueVersion >= 3) {
            if (end - p < 4) {
                return false;
            }
            leaderEpoch = buf.getInt(p);
            p += 4;
        }
        p = valueVersion >= 4 ? compactString(buf, p, end, metadata) : string16(buf, p, end, metadata);
        if (p < 0 || end - p < 8) {
            return false;
        }
        commitTimestamp = buf.getLong(p);
        p += 8;
        if (valueVersion == 1) {
            if (end - p < 8) {
                return false;
            }
            expireTimestamp = buf.getLong(p);
            p += 8;
        }
        return valueVersion < 4 || taggedFields(buf, p, end);
    }

    private boolean taggedFields(ByteBuffer buf, int p, int end) {
        long packed = Varints.unsignedVarint(buf, p, end);
        if (packed < 0) {
            return false;
        }
        p += Varints.size(packed);
        int count = Varints.value(packed);
        if (!StructReader.acceptsTaggedFieldCount(count, end - p)) {
            return false;
        }
        for (int i = 0; i < count; i++) {
            packed = Varints.unsignedVarint(buf, p, end);
            if (packed < 0) {
                return false;
            }
            p += Varints.size(packed);
            int tag = Varints.value(packed);
            packed = Varints.unsignedVarint(buf, p, end);
            if (packed < 0) {
                return false;
            }
            p += Varints.size(packed);
            int size = Varints.value(packed);
            if (tag == 0) {
                // read by type, as Kafka does: the declared size is not used for a known tag
                if (end - p < 16) {
                    return false;
                }
                topicIdMsb = buf.getLong(p);
                topicIdLsb = buf.getLong(p + 8);
                p += 16;
            } else {
                if (!StructReader.fits(size, end - p)) {
                    return false;
                }
                unknownTaggedFields++;
                p += size;
            }
        }
        return true;
    }

    /** int16 length + bytes, non-nullable; returns the position after it or -1. */
    private static int string16(ByteBuffer buf, int p, int end, Utf8Slice into) {
        if (end - p < 2) {
            return -1;
        }
        int n = buf.getShort(p);
        p += 2;
        if (!StructReader.fits(n, end - p)) {
            return -1;
        }
        into.wrap(buf, p, n);
        return p + n;
    }

    /** uvarint (length+1) + bytes, non-nullable; returns the position after it or -1. */
    private static int compactString(ByteBuffer buf, int p, int end, Utf8Slice into) {
        long packed = Varints.unsignedVarint(buf, p, end);
        if (packed < 0) {
            return -1;
        }
        p += Varints.size(packed);
        int n = Varints.value(packed) - 1;
        if (!StructReader.acceptsStringLength(n, end - p)) {
            return -1;
        }
        into.wrap(buf, p, n);
        return p + n;
    }

    /** 0 (LegacyOffsetCommit) or 1 (OffsetCommit). */
    public short recordType() { return recordType; }
    public Utf8Slice group() { return group; }
    public Utf8Slice topic() { return topic; }
    public int partition() { return partition; }

    public boolean isTombstone() { return tombstone; }
    /** The value version, -1 for a tombstone. */
    public short valueVersion() { return valueVersion; }
    public long offset() { return offset; }
    /** The leader epoch (v3+), else -1. */
    public int leaderEpoch() { return leaderEpoch; }
    public Utf8Slice metadata() { return metadata; }
    public long commitTimestamp() { return commitTimestamp; }
    /** The expire timestamp (v1 only), else -1. */
    public long expireTimestamp() { return expireTimestamp; }
    /** Whether a non-zero topic id was stored (v4 tag 0). */
    public boolean hasTopicId() { return topicIdMsb != 0 || topicIdLsb != 0; }
    public long topicIdMostSignificantBits() { return topicIdMsb; }
    public long topicIdLeastSignificantBits() { return topicIdLsb; }
    /** Tagged fields with unknown tags skipped in the value. */
    public int unknownTaggedFields() { return unknownTaggedFields; }
}
