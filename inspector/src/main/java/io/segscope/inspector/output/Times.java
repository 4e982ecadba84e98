package io.segscope.inspector.output;

import java.time.Instant;

/** Times as people read them: ISO-8601 UTC, or "-" for Kafka's "no timestamp" (-1). */
public final class Times {
    private Times() {
    }

    public static String iso(long epochMs) {
        if (epochMs < 0) {
            return "-";
        }
        return Instant.ofEpochMilli(epochMs).toString();
    }
}
