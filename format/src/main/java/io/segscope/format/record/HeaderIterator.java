package io.segscope.format.record;

import io.segscope.format.io.Cursor;

import java.nio.ByteBuffer;

/**
 * Walks the headers of one v2 record in place (docs/format.md 1.3):
 * {@code while (h.next()) use(h.buffer(), h.keyOffset(), h.keyLength(), ...)}. The record has
 * validated the header bytes already, so walking them cannot fail.
 */
public final class HeaderIterator {
    private final Cursor cursor = new Cursor();
    private int remaining;
    private int keyOffset;
    private int keyLength;
    private int valueOffset;
    private int valueLength;

    HeaderIterator reset(ByteBuffer buf, int index, int limit, int count) {
        cursor.wrap(buf, index, limit);
        this.remaining = count;
        return this;
    }

    public boolean next() {
        if (remaining <= 0) {
            return false;
        }
        remaining--;
        keyLength = cursor.varint("headerKeyLength");
        keyOffset = cursor.index();
        cursor.index(keyOffset + keyLength);
        valueLength = cursor.varint("headerValueLength");
        valueOffset = cursor.index();
        cursor.index(valueOffset + Math.max(valueLength, 0));
        return true;
    }

    public ByteBuffer buffer() { return cursor.buffer(); }
    public int keyOffset() { return keyOffset; }
    public int keyLength() { return keyLength; }
    public int valueOffset() { return valueOffset; }
    /** -1 for a null header value. */
    public int valueLength() { return valueLength; }
}
