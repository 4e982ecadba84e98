package io.segscope.format.compat;

import java.util.SortedMap;

/**
 * What one release knows of one {@link StateLog}: every record type with its value versions, and
 * what its loader does with a type it does not know or a value version above the highest it reads.
 *
 * @param loader the class that loads the log in that release, where the two outcomes come from
 * @param note   a fact about the log in that release a verdict needs beside the versions, or ""
 */
public record LogKnowledge(StateLog log, SortedMap<Integer, KnownRecord> records, LoadOutcome unknownType,
                           LoadOutcome unknownVersion, String loader, String note) {
    public LogKnowledge {
        records = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(records));
    }

    /** The record of a type, or null when the release does not know the type. */
    public KnownRecord record(int type) {
        return records.get(type);
    }

    /** Whether the release's readers accept this type at this value version. */
    public boolean reads(int type, int valueVersion) {
        KnownRecord r = records.get(type);
        return r != null && r.valueVersions().contains(valueVersion);
    }

    /**
     * What the loader does with a record of this type and value version: null when it reads it,
     * else {@link #unknownType} or {@link #unknownVersion}.
     */
    public LoadOutcome outcome(int type, int valueVersion) {
        KnownRecord r = records.get(type);
        if (r == null) {
            return unknownType;
        }
        return r.valueVersions().contains(valueVersion) ? null : unknownVersion;
    }
}
