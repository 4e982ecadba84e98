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

    private final Problem problem;

    private FormatException(Problem problem, Throwable cause) {
        super(problem.message(), cause);
        this.problem = problem;
    }

    public static Builder at(Violation violation, String file, long position) {
        return new Builder(violation, file, position);
    }

    /** The problem as values. */
    public Problem problem() { return problem; }
    public Violation violation() { return problem.kind(); }
    public String file() { return problem.file(); }
    public long position() { return problem.position(); }
    public long baseOffset() { return problem.baseOffset(); }
    public String field() { return problem.field(); }
    public String expected() { return problem.expected(); }
    public String actual() { return problem.actual(); }

    /** The message without file and position: {@code kind (baseOffset N) field F expected E, actual A — note}. */
    public String detail() {
        return problem.kindAndDetail();
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

        public FormatException build() { return build(null); }

        public FormatException build(Throwable cause) {
            return new FormatException(new Problem(violation, file, position, baseOffset, field, expected, actual, note), cause);
        }
    }
}
