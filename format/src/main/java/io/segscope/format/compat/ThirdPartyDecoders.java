package io.segscope.format.compat;

import java.util.ArrayList;
import java.util.List;

/**
 * Third-party decoders of {@code __consumer_offsets} that failed on a record version Kafka
 * started writing, as their own issue trackers report it (read in the projects' public GitHub
 * issues and pull requests; nothing here was run). {@code segscope compat} names them only when the
 * logs hold the record version they failed on.
 */
public final class ThirdPartyDecoders {
    /**
     * One report.
     *
     * @param project  the project (owner/name on GitHub)
     * @param reference the issue or pull request, e.g. {@code #470}
     * @param url      its address
     * @param log      the state log
     * @param type     the record type (for {@link StateLog#CONSUMER_OFFSETS}: 0/1 offset commits, 2 group metadata)
     * @param version  the value version it failed on, or -1 for every version of the type
     * @param failure  what the report says went wrong, and with which Kafka release
     * @param fixedIn  how it was fixed, as the tracker says, or "" when the report says nothing of a fix
     */
    public record Report(String project, String reference, String url, StateLog log, int type, int version, String failure,
                         String fixedIn) {
        /** Whether the report is about records of this type and value version. */
        public boolean concerns(StateLog l, int t, int v) {
            return log == l && type == t && (version < 0 || version == v);
        }
    }

    private static final List<Report> REPORTS = List.of(
            new Report("linkedin/Burrow", "#470", "https://github.com/linkedin/Burrow/issues/470", StateLog.CONSUMER_OFFSETS, 1, 3,
                    "offset commits of Kafka 2.1.0 not decoded (\"value version\" 3)",
                    "support for v3 added in Burrow commit 10d4dc39 (as #496 says); PR #472 proposed it too"),
            new Report("linkedin/Burrow", "#505", "https://github.com/linkedin/Burrow/issues/505", StateLog.CONSUMER_OFFSETS, 2, 2,
                    "group metadata of Kafka 2.1 not decoded (\"value version\" 2): no owner or client id", ""),
            new Report("linkedin/Burrow", "#560", "https://github.com/linkedin/Burrow/issues/560", StateLog.CONSUMER_OFFSETS, 2, 3,
                    "group metadata of Kafka 2.3.0 not decoded (\"value version\" 3)", ""),
            new Report("linkedin/Burrow", "PR #851", "https://github.com/linkedin/Burrow/pull/851", StateLog.CONSUMER_OFFSETS, 1, 4,
                    "offset commits of Kafka 4.1.0 not decoded (v4's compact metadata string read as an int16 length)",
                    "PR #851 (merged 2025-09-30) adds v4"),
            new Report("redpanda-data/kminion", "#314", "https://github.com/redpanda-data/kminion/issues/314", StateLog.CONSUMER_OFFSETS,
                    1, 4, "no consumer group offsets or lag with Kafka 4.1.0 (\"failed to decode offset commit value\", through franz-go)",
                    "franz-go PR #1109 reads v4; the kminion issue was open when read"),
            new Report("twmb/franz-go", "#1105", "https://github.com/twmb/franz-go/issues/1105", StateLog.CONSUMER_OFFSETS, 1, 4,
                    "OffsetCommitValue.ReadFrom fails on Kafka 4.1.0's v4 (\"response did not contain enough data to be valid\")",
                    "PR #1109 (merged) adopts v4"),
            new Report("Yelp/kafka-utils", "PR #236", "https://github.com/YelpArchive/kafka-utils/pull/236", StateLog.CONSUMER_OFFSETS,
                    1, 3, "groups and offsets not retrieved from Kafka 2.4.0 without v3 (fixes kafka-utils#214)",
                    "PR #236 (merged), announced for kafka-utils 3.3.0"),
            new Report("quantifind/KafkaOffsetMonitor", "#106", "https://github.com/quantifind/KafkaOffsetMonitor/issues/106",
                    StateLog.CONSUMER_OFFSETS, 2, -1, "\"Unknown offset schema version 2\": the group metadata records (key version 2)"
                    + " are skipped as bad messages", ""));

    private ThirdPartyDecoders() {
    }

    public static List<Report> all() {
        return REPORTS;
    }

    /** The reports about record versions these topics hold, in the order above. */
    public static List<Report> concerning(java.util.Map<String, Compatibility.TopicFormats> topics) {
        List<Report> out = new ArrayList<>();
        for (Report r : REPORTS) {
            Compatibility.TopicFormats t = topics.get(r.log().topic);
            if (t == null) {
                continue;
            }
            for (FormatInventory.RecordVersion v : t.recordVersions().values()) {
                if (v.version() >= 0 && r.concerns(r.log(), v.type(), v.version())) {
                    out.add(r);
                    break;
                }
            }
        }
        return out;
    }
}
