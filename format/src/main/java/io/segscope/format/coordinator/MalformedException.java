package io.segscope.format.coordinator;

/**
 * Thrown by {@link StructReader} when bytes do not parse with a schema; the decoders turn it into
 * an {@link Unknown} result, so it never leaves this package's entry points. Carries no stack
 * trace: it only ever travels one call chain up to {@link CoordinatorRecordDecoder}.
 */
public final class MalformedException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int position;
    private final String field;

    public MalformedException(String message, int position, String field) {
        super(message, null, false, false);
        this.position = position;
        this.field = field;
    }

    /** Absolute buffer position at which reading failed. */
    public int position() { return position; }
    /** The schema path of the field being read, e.g. {@code GroupMetadataValue.members.subscription}. */
    public String field() { return field; }
}
