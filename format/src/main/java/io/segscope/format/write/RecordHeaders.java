package io.segscope.format.write;

/**
 * A reusable list of record headers as byte slices (keys are UTF-8 bytes, never null; a value of
 * length -1 is null). Holds references to the caller's arrays until {@link #clear()}; grows only
 * when more headers are added than ever before.
 */
public final class RecordHeaders {
    /** No headers. */
    public static final RecordHeaders NONE = new RecordHeaders();

    byte[][] keys = new byte[4][];
    int[] keyOffsets = new int[4];
    int[] keyLengths = new int[4];
    byte[][] values = new byte[4][];
    int[] valueOffsets = new int[4];
    int[] valueLengths = new int[4];
    int count;

    public RecordHeaders clear() {
        if (this == NONE) {
            return this;
        }
        for (int i = 0; i < count; i++) {
            keys[i] = null;
            values[i] = null;
        }
        count = 0;
        return this;
    }

    /** Adds a header; {@code valueLength} -1 (and {@code value} null) for a null value. */
    public RecordHeaders add(byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset, int valueLength) {
        if (this == NONE) {
            throw new UnsupportedOperationException("RecordHeaders.NONE is empty for good");
        }
        if (key == null || keyLength < 0) {
            throw new IllegalArgumentException("a header key cannot be null");
        }
        if (valueLength < -1 || (valueLength >= 0 && value == null)) {
            throw new IllegalArgumentException("header value length " + valueLength + " without bytes");
        }
        if (count == keys.length) {
            int n = count * 2;
            keys = java.util.Arrays.copyOf(keys, n);
            keyOffsets = java.util.Arrays.copyOf(keyOffsets, n);
            keyLengths = java.util.Arrays.copyOf(keyLengths, n);
            values = java.util.Arrays.copyOf(values, n);
            valueOffsets = java.util.Arrays.copyOf(valueOffsets, n);
            valueLengths = java.util.Arrays.copyOf(valueLengths, n);
        }
        keys[count] = key;
        keyOffsets[count] = keyOffset;
        keyLengths[count] = keyLength;
        values[count] = valueLength < 0 ? null : value;
        valueOffsets[count] = valueOffset;
        valueLengths[count] = valueLength;
        count++;
        return this;
    }

    /** Adds a header with whole arrays ({@code value} null for a null value). */
    public RecordHeaders add(byte[] key, byte[] value) {
        return add(key, 0, key.length, value, 0, value == null ? -1 : value.length);
    }

    public int size() {
        return count;
    }
}
