package io.segscope.format.verify;

import java.util.Locale;

/** How bad a {@link Finding} is. Ordered from worst to mildest. */
public enum Severity {
    /** Data is damaged or unreadable, or Kafka would lose or refuse it. */
    ERROR,
    /** Kafka copes, but something is off and worth a look (a torn tail, an untrimmed index). */
    WARNING,
    /** Normal for the state the files are in (preallocated indexes at a crash, compaction gaps). */
    INFO;

    /** The lower-case name used in output. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True when this is at least as severe as {@code other}. */
    public boolean atLeast(Severity other) {
        return ordinal() <= other.ordinal();
    }

    public static Severity parse(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }
}
