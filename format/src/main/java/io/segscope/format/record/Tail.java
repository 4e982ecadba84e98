package io.segscope.format.record;

/**
 * How a walk over a {@code .log} file ended (docs/format.md 1.10). Kafka's iterator stops
 * silently at a partial batch; segscope says so: {@link Kind#PARTIAL} (a batch that runs past the
 * end of the file, or too few bytes for a header) or {@link Kind#ZERO_FILL} (zero bytes up to the
 * end: preallocation or a torn write). Both are what Kafka's recovery truncates.
 *
 * @param validBytes bytes up to the end of the last whole batch
 * @param tailBytes bytes after that
 */
public record Tail(Kind kind, long validBytes, long tailBytes, long declaredSize) {
    public enum Kind { CLEAN, PARTIAL, ZERO_FILL }

    public boolean isClean() {
        return kind == Kind.CLEAN;
    }
}
