package io.segscope.format.logdir;

import java.util.EnumSet;
import java.util.Set;

/**
 * What discovery includes beyond the live log. By default only live partition directories and
 * live segment files are listed, which is what Kafka keeps after loading; each of these adds one
 * kind that Kafka would delete, complete or ignore.
 */
public enum Include {
    DELETED_FILES,
    CLEANED_FILES,
    SWAP_FILES,
    DELETE_DIRS,
    FUTURE_DIRS,
    STRAY_DIRS;

    /** Live directories and files only. */
    public static Set<Include> none() {
        return EnumSet.noneOf(Include.class);
    }

    /** Everything that is on disk. */
    public static Set<Include> all() {
        return EnumSet.allOf(Include.class);
    }

    static boolean includes(Set<Include> options, FileStatus status) {
        switch (status) {
            case DELETED: return options.contains(DELETED_FILES);
            case CLEANED: return options.contains(CLEANED_FILES);
            case SWAP: return options.contains(SWAP_FILES);
            default: return true;
        }
    }

    static boolean includes(Set<Include> options, DirStatus status) {
        switch (status) {
            case DELETE: return options.contains(DELETE_DIRS);
            case FUTURE: return options.contains(FUTURE_DIRS);
            case STRAY: return options.contains(STRAY_DIRS);
            default: return true;
        }
    }
}
