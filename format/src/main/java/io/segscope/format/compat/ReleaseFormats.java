package io.segscope.format.compat;

import io.segscope.format.record.CompressionType;

import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * What the brokers of one Kafka release line read, as far as the bytes on disk go.
 *
 * @param line          the release line, "0.10.0" .. "4.4"
 * @param release       the release the facts were read from (the line's last patch release)
 * @param schemas       the folder under {@code testdata/schemas} holding that release's schemas
 *                      (the folder of an earlier line when this line's are the same)
 * @param maxMagic      the highest message format magic it reads and writes
 * @param codecs        the codecs it reads (always {@link CompressionType#NONE} too)
 * @param deleteHorizon whether it reads a batch's delete horizon (attributes bit 6, KIP-534); a
 *                      release without it reads such a batch's base timestamp as a plain timestamp
 * @param controlTypes  the control record types it knows, by id (the ids moved in 3.0: 2.7 and 2.8
 *                      numbered LEADER_CHANGE 3)
 * @param logs          what it knows of each {@link StateLog}; a log the release does not have is absent
 * @param features      the KRaft features it knows, by name, with the highest level it supports (empty
 *                      before 3.3, which has no {@code metadata.version})
 */
public record ReleaseFormats(String line, String release, String schemas, int maxMagic, Set<CompressionType> codecs,
                             boolean deleteHorizon, SortedMap<Integer, String> controlTypes,
                             Map<StateLog, LogKnowledge> logs, SortedMap<String, FeatureSupport> features) {

    /** What it knows of a KRaft feature, or null when it does not know the feature. */
    public FeatureSupport feature(String name) {
        return features.get(name);
    }

    /** What the release knows of a log, or null when it has no such log. */
    public LogKnowledge log(StateLog log) {
        return logs.get(log);
    }

    /** Whether it reads batches of this codec. */
    public boolean reads(CompressionType codec) {
        return codecs.contains(codec);
    }
}
