package io.segscope.format.coordinator.metadata;

import io.segscope.format.coordinator.RandomJson;
import java.util.Random;

/**
 * Random message contents as the JSON that Kafka's generated {@code JsonConverter.read} accepts,
 * driven by segscope's tables (pinned to Kafka's by {@code MetadataSchemaTablesTest}). Strings mix
 * ASCII, JSON-escaped characters, non-ASCII and surrogate pairs; numbers include edge values;
 * nullable fields are sometimes null and tagged fields sometimes absent.
 */
public final class RandomMetadata extends RandomJson {
    private static final String[] PIECES = {"a", "b", "z", "0", "9", "-", "_", ".", " ", "\"", "\\", "/", "\n", "\t",
        "\u0001", "\u001f", "\u007f", "é", "ß", "组", "\u2028", "😀", "topic", "PLAINTEXT", "localhost", "metadata.version"};
    private static final double[] DOUBLES = {0.0, -0.0, 1.0, -1.0, 1e300, Double.MIN_VALUE, Double.MAX_VALUE, 1048576.0, 0.1, 1e-7};

    public RandomMetadata(Random r) {
        super(r, PIECES);
    }

    /** An edge value a third of the time, else uniform in [0, 10^k) for k from -5 to 14. */
    @Override
    protected double float64() {
        return r.nextInt(3) == 0 ? DOUBLES[r.nextInt(DOUBLES.length)] : r.nextDouble() * Math.pow(10, r.nextInt(20) - 5);
    }
}
