package io.segscope.format.error;

/**
 * One problem found in a Kafka file, as values: what kind, where (file, byte position, the base
 * offset of the batch concerned), and what was expected and found in which field, with a note
 * saying what it means or what to do. {@link FormatException} carries one; {@code verify}
 * reports them; every output renders them, none parses them back.
 *
 * @param kind what it is
 * @param file the file (the source name), or null when unknown
 * @param position byte position in the file, or -1 for the whole file
 * @param baseOffset the base offset of the batch or segment concerned, or -1
 * @param field the field that is wrong, or null
 * @param expected what Kafka's format allows there, or null
 * @param actual what the file holds, or null
 * @param note free text: what it means or what to do, or null
 */
public record Problem(Violation kind, String file, long position, long baseOffset, String field, String expected,
                      String actual, String note) {

    /** A problem told in words only. */
    public static Problem of(Violation kind, String file, long position, long baseOffset, String message) {
        return new Problem(kind, file, position, baseOffset, null, null, null, message);
    }

    /**
     * What was found, without file, position, kind and base offset (outputs print those as
     * columns of their own): {@code field crc expected 0x1a2b3c4d, actual 0x00000000 — note}.
     */
    public String detail() {
        if (field == null && expected == null && actual == null) {
            return note == null ? kind.kind() : note;
        }
        StringBuilder sb = new StringBuilder();
        if (field != null) {
            sb.append(" field ").append(field);
        }
        if (expected != null) {
            sb.append(" expected ").append(expected);
        }
        if (actual != null) {
            sb.append(expected != null ? ", actual " : " actual ").append(actual);
        }
        if (note != null) {
            sb.append(" — ").append(note);
        }
        return sb.substring(1);
    }

    /** {@code kind (baseOffset N) detail}: the detail with the kind and base offset in front. */
    public String kindAndDetail() {
        StringBuilder sb = new StringBuilder(kind.kind());
        if (baseOffset >= 0) {
            sb.append(" (baseOffset ").append(baseOffset).append(')');
        }
        if (field != null || expected != null || actual != null || note != null) {
            sb.append(' ').append(field == null && expected == null && actual == null ? "— " + note : detail());
        }
        return sb.toString();
    }

    /** {@code file position P: kind (baseOffset N) detail}: one line naming everything. */
    public String message() {
        StringBuilder sb = new StringBuilder();
        sb.append(file == null ? "<unknown>" : file);
        if (position >= 0) {
            sb.append(" position ").append(position);
        }
        return sb.append(": ").append(kindAndDetail()).toString();
    }
}
