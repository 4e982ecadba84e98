package io.segscope.format.logdir;

/**
 * The transient suffix a segment file may carry after its normal suffix (docs/format.md 1.1),
 * e.g. {@code 00000000000000000000.log.deleted}.
 */
public enum FileStatus {
    /** No transient suffix: part of the log. */
    LIVE(""),
    /** Scheduled for asynchronous deletion; Kafka deletes it at load. */
    DELETED(".deleted"),
    /** Unfinished cleaner or split output; Kafka deletes it at load. */
    CLEANED(".cleaned"),
    /** Finished cleaner or split output about to replace older segments; Kafka completes the swap at load. */
    SWAP(".swap");

    private final String suffix;

    FileStatus(String suffix) {
        this.suffix = suffix;
    }

    public String suffix() {
        return suffix;
    }

    /** The status a file name's ending shows. */
    static FileStatus of(String fileName) {
        for (FileStatus s : values()) {
            if (s != LIVE && fileName.endsWith(s.suffix)) {
                return s;
            }
        }
        return LIVE;
    }
}
