package io.segscope.format.verify;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

/**
 * One thing {@link Verifier} found.
 *
 * @param file the file it is about (the source name)
 * @param position byte position in the file, or -1 when it is about the whole file
 * @param violation what it is; {@link Violation#kind()} is the stable name
 * @param severity how bad
 * @param baseOffset the base offset of the batch or segment concerned, or -1
 * @param message what was found and what it means, without file and position
 * @param skippedFrom first byte skipped by a resynchronisation or a torn tail, or -1
 * @param skippedTo end (exclusive) of the skipped bytes, or -1
 * @param lostFrom first offset lost with the skipped bytes, or -1 when none is known to be lost
 * @param lostTo last offset lost, or -1 when unknown (a torn tail whose header is gone)
 */
public record Finding(String file, long position, Violation violation, Severity severity, long baseOffset,
                      String message, long skippedFrom, long skippedTo, long lostFrom, long lostTo) {

    public Finding(String file, long position, Violation violation, Severity severity, long baseOffset, String message) {
        this(file, position, violation, severity, baseOffset, message, -1, -1, -1, -1);
    }

    /** A finding made of a reader's exception: same file, position, kind, base offset and detail. */
    public static Finding of(FormatException e, Severity severity) {
        return new Finding(e.file(), e.position(), e.violation(), severity, e.baseOffset(), message(e));
    }

    /** The exception's detail without the kind and base offset it starts with (they are fields of a finding). */
    static String message(FormatException e) {
        String d = e.detail();
        String kind = e.violation().kind();
        if (d.startsWith(kind)) {
            d = d.substring(kind.length()).stripLeading();
        }
        if (d.startsWith("(baseOffset ")) {
            int close = d.indexOf(')');
            d = d.substring(close + 1).stripLeading();
        }
        return d.isEmpty() ? kind : d;
    }

    public String kind() {
        return violation.kind();
    }

    public boolean hasSkippedBytes() {
        return skippedFrom >= 0;
    }

    public boolean hasLostOffsets() {
        return lostFrom >= 0;
    }

    /** {@code file position kind: message}, the text output line. */
    @Override
    public String toString() {
        return file + " " + position + " " + kind() + ": " + message;
    }
}
