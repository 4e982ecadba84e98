package io.segscope.format.walk;

import io.segscope.format.error.FormatException;
import io.segscope.format.io.ByteSource;
import io.segscope.format.logdir.FileKind;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.LogScanner;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.state.ProducerSnapshotReader;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What a file named on its own is, when its name does not say (a segment copied as
 * {@code suspect-segment.log}): record batches if a whole, CRC-valid entry starts at byte 0; a
 * producer snapshot if it parses as one with a right CRC; an offset or leader-epoch checkpoint if
 * it is Kafka's checkpoint text. Index files hold no header to recognise: name them with
 * {@code --as}. A stream (standard input, a pipe) cannot be looked at twice: it is read as record
 * batches unless {@code --as} says otherwise.
 */
public final class ContentSniffer {
    private ContentSniffer() {
    }

    /** A resolver for {@link LogScanner}: {@code forced} when given (for every file named on its own), else by content. */
    public static LogScanner.KindResolver resolver(FileKind forced) {
        return f -> forced != null ? as(f, forced) : sniff(f);
    }

    /** {@code f} read as {@code kind}, whatever its name says. */
    public static LogFile as(LogFile f, FileKind kind) {
        long base = f.baseOffset() >= 0 ? f.baseOffset() : kind == FileKind.LOG || kind.holdsRecords() ? -1 : 0;
        return new LogFile(f.file(), kind, f.status(), f.partition(), base);
    }

    /** {@code f} as its content says, when its name does not; otherwise unchanged. */
    public static LogFile sniff(LogFile f) {
        if (f.kind() != FileKind.OTHER) {
            return f;
        }
        if (f.file().isStream()) {
            return as(f, FileKind.LOG);
        }
        FileKind kind = FileKind.OTHER;
        try (ByteSource source = f.file().open()) {
            long size = source.size();
            if (size > 0 && new Resync(ReaderOptions.DEFAULT_MAX_BATCH).isEntry(source, 0, 0)) {
                kind = FileKind.LOG;
            } else if (size > 0 && isSnapshot(source)) {
                kind = FileKind.SNAPSHOT;
            } else if (size > 0) {
                kind = checkpointKind(source);
            }
        } catch (FormatException | IllegalStateException e) {
            return f;
        }
        return kind == FileKind.OTHER ? f : as(f, kind);
    }

    private static boolean isSnapshot(ByteSource source) {
        try {
            ProducerSnapshotReader r = new ProducerSnapshotReader().wrap(source);
            return r.findings().isEmpty();
        } catch (FormatException e) {
            return false;
        }
    }

    /** Kafka's checkpoint text: version line, count line, then entries of 3 (offsets) or 2 (leader epochs) fields. */
    private static FileKind checkpointKind(ByteSource source) {
        int n = (int) Math.min(source.size(), 4096);
        int idx = source.ensure(0, n);
        if (idx < 0) {
            return FileKind.OTHER;
        }
        byte[] bytes = new byte[n];
        ByteBuffer buf = source.buffer().duplicate();
        buf.position(idx);
        buf.get(bytes);
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
        if (lines.length < 3 || !lines[0].matches("\\d+") || !lines[1].matches("\\d+")) {
            return FileKind.OTHER;
        }
        if (lines.length == 3 && lines[2].isEmpty() || lines[2].split(" ").length == 3) {
            return FileKind.OFFSET_CHECKPOINT;
        }
        return lines[2].matches("\\d+ \\d+") ? FileKind.LEADER_EPOCH_CHECKPOINT : FileKind.OTHER;
    }
}
