package io.segscope.format.compat;

import io.segscope.format.coordinator.Versions;

/**
 * One record type a release knows in one log: the type (the version prefix of a coordinator key, the
 * apiKey of a metadata record), the record's name in that release's schemas, the value versions its
 * readers accept, and the flexible ones among them ({@link Versions#NONE} when none is).
 */
public record KnownRecord(int type, String name, Versions valueVersions, Versions flexibleVersions) {
    /** The highest value version the release reads. */
    public int highestValueVersion() {
        return valueVersions.highest();
    }
}
