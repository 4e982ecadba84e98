package io.segscope.format.coordinator;

import java.util.Arrays;
import java.util.Base64;

/** A copied {@code bytes} field value with value equality (cold path: non-offset records). */
public final class Bytes {
    public static final Bytes EMPTY = new Bytes(new byte[0]);

    private final byte[] data;

    public Bytes(byte[] data) {
        this.data = data;
    }

    /** The bytes; do not modify. */
    public byte[] array() {
        return data;
    }

    public int length() {
        return data.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Bytes && Arrays.equals(data, ((Bytes) o).data);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(data);
    }

    /** Standard base64 with padding, as Kafka's JSON rendering prints bytes. */
    @Override
    public String toString() {
        return Base64.getEncoder().encodeToString(data);
    }
}
