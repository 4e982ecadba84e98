package io.segscope.format.verify;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Problem;
import io.segscope.format.error.Violation;

/**
 * One thing {@link Verifier} found: a {@link Problem} with the severity it has where it was
 * found, and for resyncs and torn tails what was skipped and lost.
 *
 * @param problem what, where, expected and actual
 * @param consequence what follows from it where it was found, appended to the problem's detail as
 *     is (e.g. {@code "; torn tail: Kafka's log recovery truncates ..."}), or null
 * @param severity how bad
 * @param skippedFrom first byte skipped by a resynchronisation or a torn tail, or -1
 * @param skippedTo end (exclusive) of the skipped bytes, or -1
 * @param lostFrom first offset lost with the skipped bytes, or -1 when none is known to be lost
 * @param lostTo last offset lost, or -1 when unknown (a torn tail whose header is gone)
 * @param crashArtefact whether it is what a broker that stopped without a clean shutdown leaves, not damage
 *     of its own: the missing clean-shutdown marker, the preallocated indexes of the segments open at an
 *     unclean shutdown, a torn tail of the segment being appended to, leftovers of a cleaning or a
 *     rename; set by the {@link Verifier} where it knows, never on an error
 */
public record Finding(Problem problem, String consequence, Severity severity, long skippedFrom, long skippedTo, long lostFrom, long lostTo,
                      boolean crashArtefact) {

    public Finding {
        if (severity == Severity.ERROR) {
            crashArtefact = false;
        }
    }

    /** A finding that is not a crash artefact. */
    public Finding(Problem problem, String consequence, Severity severity, long skippedFrom, long skippedTo, long lostFrom, long lostTo) {
        this(problem, consequence, severity, skippedFrom, skippedTo, lostFrom, lostTo, false);
    }

    /** The same finding, told as what a crash leaves (a no-op on an error). */
    public Finding asCrashArtefact() {
        return new Finding(problem, consequence, severity, skippedFrom, skippedTo, lostFrom, lostTo, true);
    }

    /** A finding told in words, with no byte or offset range. */
    public static Finding of(String file, long position, Violation violation, Severity severity, long baseOffset,
                             String message) {
        return new Finding(Problem.of(violation, file, position, baseOffset, message), null, severity, -1, -1, -1, -1);
    }

    /** A finding told in words, with the bytes skipped and the offsets lost. */
    public static Finding of(String file, long position, Violation violation, Severity severity, long baseOffset,
                             String message, long skippedFrom, long skippedTo, long lostFrom, long lostTo) {
        return new Finding(Problem.of(violation, file, position, baseOffset, message), null, severity, skippedFrom,
                skippedTo, lostFrom, lostTo);
    }

    /** A finding made of a reader's exception: the same problem. */
    public static Finding of(FormatException e, Severity severity) {
        return new Finding(e.problem(), null, severity, -1, -1, -1, -1);
    }

    public String file() {
        return problem.file();
    }

    /** Byte position in the file, or -1 when it is about the whole file. */
    public long position() {
        return problem.position();
    }

    public Violation violation() {
        return problem.kind();
    }

    /** The base offset of the batch or segment concerned, or -1. */
    public long baseOffset() {
        return problem.baseOffset();
    }

    /** What was found and what it means, without file and position. */
    public String message() {
        return consequence == null ? problem.detail() : problem.detail() + consequence;
    }

    public String kind() {
        return problem.kind().kind();
    }

    public boolean hasSkippedBytes() {
        return skippedFrom >= 0;
    }

    public boolean hasLostOffsets() {
        return lostFrom >= 0;
    }

    /** {@code file position severity kind: message}, the text output line. */
    @Override
    public String toString() {
        return file() + " " + position() + " " + severity.label() + " " + kind() + ": " + message();
    }
}
