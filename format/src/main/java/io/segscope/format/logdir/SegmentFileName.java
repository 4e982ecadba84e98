package io.segscope.format.logdir;

import java.util.Optional;

/**
 * What a segment file's name says (docs/format.md 1.1): the base offset is everything before the
 * first {@code .}, parsed as a long (Kafka's {@code LogFileUtils.offsetFromFileName}); then comes
 * the kind's suffix and perhaps a transient suffix ({@code .deleted}, {@code .cleaned},
 * {@code .swap}). Kafka writes the offset as 20 zero-padded digits but reads any long.
 *
 * @param baseOffset the segment base offset, or for a snapshot the offset it was taken at
 */
public record SegmentFileName(long baseOffset, FileKind kind, FileStatus status) {

    /** Parses a file name, or returns empty when it is not a segment or snapshot file. */
    public static Optional<SegmentFileName> parse(String fileName) {
        FileStatus status = FileStatus.of(fileName);
        String name = fileName.substring(0, fileName.length() - status.suffix().length());
        FileKind kind = null;
        for (FileKind k : FileKind.values()) {
            if (k.isSegmentFile() && name.endsWith(k.suffix())) {
                kind = k;
                break;
            }
        }
        int dot = name.indexOf('.');
        if (kind == null || dot <= 0) {
            return Optional.empty();
        }
        String digits = name.substring(0, dot);
        if (!isDecimal(digits)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new SegmentFileName(Long.parseLong(digits), kind, status));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** True when the file name ends like a segment or snapshot file, whether or not its offset parses. */
    static boolean looksLikeSegmentFile(String fileName) {
        FileStatus status = FileStatus.of(fileName);
        String name = fileName.substring(0, fileName.length() - status.suffix().length());
        for (FileKind k : FileKind.values()) {
            if (k.isSegmentFile() && name.endsWith(k.suffix())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isDecimal(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return !s.isEmpty();
    }

    /** The 20-digit zero-padded name stem Kafka writes for an offset. */
    public static String prefix(long offset) {
        String digits = Long.toString(offset);
        StringBuilder sb = new StringBuilder(20);
        for (int i = digits.length(); i < 20; i++) {
            sb.append('0');
        }
        return sb.append(digits).toString();
    }
}
