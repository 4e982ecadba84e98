package io.segscope.format.error;

/**
 * The one error type of segscope's readers. It always names the file, the byte position in it,
 * the base offset of the batch being read (or -1), the field, and what was expected and found,
 * so that no error message is ever written by hand twice: build one with {@link #at}.
 *
 * <pre>
 * throw FormatException.at(Violation.CRC_MISMATCH, file, position)
 *         .baseOffset(baseOffset).field("crc").expected(hex(computed)).actual(hex(stored)).build();
 * </pre>
 */
public final class FormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Marker for an unknown base offset or position. */
    public static final long UNKNOWN = -1L;

    private final Violation violation;
    private final String file;
    private final long position;
    private final long baseOffset;
    private final String field;
    private final String expected;
    private final String actual;

    private FormatException(Builder b, Throwable cause) {
        super(render(b), cause);
        this.violation = b.violation;
        this.file = b.file;
        this.position = b.position;
        this.baseOffset = b.baseOffset;
        this.field = b.field;
        this.expected = b.expected;
        this.actual = b.actual;
    }

    public static Builder at(Violation violation, String file, long position) {
        return new Builder(violation, file, position);
    }

    public Violation violation() { return violation; }
    public String file() { return file; }
    public long position() { return position; }
    public long baseOffset() { return baseOffset; }
    public String field() { return field; }
    public String expected() { return expected; }
    public String actual() { return actual; }

    /** The message without file and position (for outputs that print those as their own columns). */
    public String detail() {
        return detail(violation, baseOffset, field, expected, actual, note(getMessage()));
    }

    private static String note(String message) {
        int i = message.indexOf(" — ");
        return i < 0 ? null : message.substring(i + 3);
    }

    private static String render(Builder b) {
        StringBuilder sb = new StringBuilder();
        sb.append(b.file == null ? "<unknown>" : b.file);
        if (b.position >= 0) {
            sb.append(" position ").append(b.position);
        }
        sb.append(": ").append(detail(b.violation, b.baseOffset, b.field, b.expected, b.actual, null));
        if (b.note != null) {
            sb.append(" — ").append(b.note);
        }
        return sb.toString();
    }

    private static String detail(Violation v, long baseOffset, String field, String expected, String actual, String note) {
        StringBuilder sb = new StringBuilder(v.kind());
        if (baseOffset >= 0) {
            sb.append(" (baseOffset ").append(baseOffset).append(')');
        }
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
        return sb.toString();
    }

    /** Fills the context of a {@link FormatException}; errors are cold paths, so a builder is fine. */
    public static final class Builder {
        private final Violation violation;
        private final String file;
        private final long position;
        private long baseOffset = UNKNOWN;
        private String field;
        private String expected;
        private String actual;
        private String note;

        private Builder(Violation violation, String file, long position) {
            this.violation = violation;
            this.file = file;
            this.position = position;
        }

        public Builder baseOffset(long baseOffset) { this.baseOffset = baseOffset; return this; }
        public Builder field(String field) { this.field = field; return this; }
        public Builder expected(Object expected) { this.expected = String.valueOf(expected); return this; }
        public Builder actual(Object actual) { this.actual = String.valueOf(actual); return this; }
        /** Free text that says what went wrong or what to do, appended after the structured part. */
        public Builder note(String note) { this.note = note; return this; }

        public FormatException build() { return new FormatException(this, null); }
        public FormatException build(Throwable cause) { return new FormatException(this, cause); }
    }
}
