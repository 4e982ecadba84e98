package io.segscope.format.compat;

/**
 * What one release line's brokers and controllers accept of one KRaft feature ({@code metadata.version},
 * {@code kraft.version}, {@code transaction.version}, ...), read from that release's
 * {@code org.apache.kafka.server.common.MetadataVersion} and {@code Features} (3.9) or {@code Feature}
 * (4.0 and later) in its kafka-server-common jar.
 *
 * @param name the feature's name
 * @param production the highest level a node of the line supports by default ({@code latestProduction})
 * @param known the highest level it knows at all, reachable only with unstable feature versions
 *     enabled ({@code latestTesting}; equal to {@code production} before 3.7)
 */
public record FeatureSupport(String name, short production, short known) {
    /** Whether a node of the line supports this finalized level with its default configuration. */
    public boolean supports(int level) {
        return level <= production;
    }
}
