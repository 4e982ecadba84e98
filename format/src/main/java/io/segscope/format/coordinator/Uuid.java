package io.segscope.format.coordinator;

import java.util.Base64;

/** A Kafka uuid: 16 bytes, printed as Kafka prints it (URL-safe base64 without padding, 22 characters). */
public record Uuid(long mostSignificantBits, long leastSignificantBits) {
    public static final Uuid ZERO = new Uuid(0L, 0L);

    public boolean isZero() {
        return mostSignificantBits == 0L && leastSignificantBits == 0L;
    }

    @Override
    public String toString() {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (mostSignificantBits >>> (56 - 8 * i));
            b[8 + i] = (byte) (leastSignificantBits >>> (56 - 8 * i));
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
