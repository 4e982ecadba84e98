package io.segscope.format.io;

import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * Kafka's {@code Uuid}: 16 bytes (two big-endian longs), printed and written in side files as
 * Kafka prints it, URL-safe Base64 without padding (22 characters), not the dashed hex form
 * (docs/format.md 1.1). Coordinator and metadata records hold it as a {@code uuid} field.
 */
public record KafkaUuid(long mostSignificantBits, long leastSignificantBits) {
    /** The all-zero id, which {@code partition.metadata} must not hold. */
    public static final KafkaUuid ZERO = new KafkaUuid(0L, 0L);

    /**
     * Parses Kafka's text form: at most 24 characters of URL-safe Base64 that decode to exactly 16
     * bytes (Kafka's {@code Uuid.fromString} rules).
     *
     * @throws IllegalArgumentException when the text is not such an id
     */
    public static KafkaUuid parse(String text) {
        if (text.length() > 24) {
            throw new IllegalArgumentException("longer than 24 characters");
        }
        byte[] bytes = Base64.getUrlDecoder().decode(text);
        if (bytes.length != 16) {
            throw new IllegalArgumentException("decodes to " + bytes.length + " bytes, not 16");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return new KafkaUuid(b.getLong(), b.getLong());
    }

    public boolean isZero() {
        return mostSignificantBits == 0L && leastSignificantBits == 0L;
    }

    /** Kafka's text form (22 characters of URL-safe Base64). */
    @Override
    public String toString() {
        ByteBuffer b = ByteBuffer.allocate(16).putLong(mostSignificantBits).putLong(leastSignificantBits);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
    }
}
