package io.segscope.format.record;

/** Kafka's compression codec ids (docs/format.md 1.5); the names are Kafka's {@code CompressionType.name}. */
public enum CompressionType {
    NONE(0, "none"),
    GZIP(1, "gzip"),
    SNAPPY(2, "snappy"),
    LZ4(3, "lz4"),
    ZSTD(4, "zstd");

    private static final CompressionType[] BY_ID = values();

    public final int id;
    public final String kafkaName;

    CompressionType(int id, String kafkaName) {
        this.id = id;
        this.kafkaName = kafkaName;
    }

    /** The codec for the low three attribute bits, or null for 5..7 (undefined). */
    public static CompressionType forId(int id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }
}
