package io.segscope.format.zookeeper;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Problem;
import io.segscope.format.error.Violation;
import io.segscope.format.logdir.FileEntry;

import java.io.UncheckedIOException;
import java.util.zip.Adler32;

/**
 * A ZooKeeper transaction log file {@code log.<zxid>} (docs/format.md 5.5), read entry by entry
 * as {@code FileTxnLog.FileTxnIterator} reads it. The log ends at the end of the file, at a
 * zero-length entry (the preallocated zeros) or at an entry cut short or missing its 'B' (a torn
 * write); an Adler32 mismatch, an impossible length ("Unreasonable length", above twice ZooKeeper's
 * default {@code jute.maxbuffer}), a body that does not parse or an op code ZooKeeper does not log
 * stop it as damage.
 */
public final class ZkTxnLog implements AutoCloseable {
    static final int MAGIC = 0x5A4B4C47;
    /** {@code jute.maxbuffer} + its default extra size: ZooKeeper refuses longer entries. */
    public static final int MAX_ENTRY = 2 * 0xfffff;

    /** Why a log stopped. */
    public enum EndKind {
        /** the end of the file, or of the bytes written (a zero-length entry: the preallocated tail) */
        END,
        /** an entry cut short or missing its 'B': a torn write */
        TORN,
        /** damage: the entries after it are not read */
        DAMAGE
    }

    /** How and where a log stopped; {@code problem} is null for a clean end. */
    public record End(EndKind kind, long position, Problem problem) {
    }

    private final String name;
    private final JuteInput in;
    private final boolean checksums;
    private End end;
    /** An entry read despite a checksum mismatch (checksums off), or null. */
    private Problem ignoredChecksum;

    private ZkTxnLog(String name, JuteInput in, boolean checksums) {
        this.name = name;
        this.in = in;
        this.checksums = checksums;
    }

    /**
     * Opens a log and reads its header.
     *
     * @throws FormatException {@code zk-header} for a wrong magic, {@code zk-truncated} for a file
     *     shorter than its 16-byte header (a 0-byte file is read as no entries)
     */
    public static ZkTxnLog open(FileEntry file, boolean checksums) {
        JuteInput in = JuteInput.of(new SourceInputStream(file.open()), file.path(), false);
        ZkTxnLog log = new ZkTxnLog(file.path(), in, checksums);
        try {
            if (in.atEnd()) {
                log.end = new End(EndKind.END, 0, null);
                return log;
            }
            int magic = in.readInt();
            if (magic != MAGIC) {
                log.close();
                throw FormatException.at(Violation.ZK_HEADER, file.path(), 0).field("magic").expected("0x5a4b4c47 (ZKLG)")
                        .actual(String.format("0x%08x", magic)).note("not a ZooKeeper transaction log").build();
            }
            in.readInt();
            in.readLong();
        } catch (JuteInput.JuteException e) {
            log.close();
            throw FormatException.at(Violation.ZK_TRUNCATED, file.path(), e.position())
                    .note("the file ends inside its 16-byte header").build();
        } catch (UncheckedIOException e) {
            log.close();
            throw FormatException.at(Violation.IO_ERROR, file.path(), 0).note(e.getCause().getMessage()).build();
        }
        return log;
    }

    public String name() {
        return name;
    }

    /** Why the log stopped, once {@link #next()} has returned null. */
    public End end() {
        return end;
    }

    /** After {@link #next()} returned an entry whose checksum failed with checksums off: that finding (then cleared). */
    public Problem takeIgnoredChecksum() {
        Problem p = ignoredChecksum;
        ignoredChecksum = null;
        return p;
    }

    /** The next transaction, or null at the end of the log ({@link #end()} says why). */
    public ZkTxn next() {
        if (end != null) {
            return null;
        }
        long at = in.position();
        try {
            if (in.atEnd()) {
                return stop(EndKind.END, at, null);
            }
            if (in.available(12) < 12) {
                return stop(EndKind.TORN, at, Problem.of(Violation.ZK_TRUNCATED, name, at, -1,
                        "torn write: the entry's checksum and length are cut short"));
            }
            long crc = in.readLong();
            int len = in.readInt();
            if (len == 0) {
                return stop(EndKind.END, at, null);
            }
            if (len < 0 || len > MAX_ENTRY) {
                return stop(EndKind.DAMAGE, at, new Problem(Violation.ZK_INVALID_RECORD, name, at + 8, -1, "length",
                        "0.." + MAX_ENTRY, String.valueOf(len), "Unreasonable length = " + len + ": ZooKeeper refuses the log here"));
            }
            byte[] payload;
            try {
                payload = in.readBytes(len);
            } catch (JuteInput.JuteException e) {
                return stop(EndKind.TORN, at, Problem.of(Violation.ZK_TRUNCATED, name, at, -1,
                        "torn write: the entry of " + len + " bytes is cut short"));
            }
            if (in.atEnd()) {
                return stop(EndKind.TORN, at, Problem.of(Violation.ZK_TRUNCATED, name, at, -1,
                        "torn write: the entry has no 'B' end marker (the file ends)"));
            }
            byte marker = in.readByte();
            if (marker != 'B') {
                return stop(EndKind.TORN, at, new Problem(Violation.ZK_TRUNCATED, name, at + 12 + len, -1, "end marker",
                        "0x42 ('B')", String.format("0x%02x", marker & 0xff), "Last transaction was partial: ZooKeeper's replay of this log ends here"));
            }
            Adler32 adler = new Adler32();
            adler.update(payload, 0, len);
            if (adler.getValue() != crc) {
                Problem p = new Problem(Violation.ZK_CHECKSUM, name, at, -1, "checksum", String.format("0x%08x", adler.getValue()),
                        String.format("0x%08x", crc), checksums ? "CRC check failed: the log is not read past this entry"
                        : "CRC check failed: the entry is used anyway (--no-checksums)");
                if (checksums) {
                    return stop(EndKind.DAMAGE, at, p);
                }
                ignoredChecksum = p;
            }
            return parse(payload, at);
        } catch (UncheckedIOException e) {
            return stop(EndKind.DAMAGE, at, Problem.of(Violation.IO_ERROR, name, at, -1, e.getCause().getMessage()));
        }
    }

    private ZkTxn parse(byte[] payload, long at) {
        long bodyAt = at + 12;
        if (payload.length < 32) {
            return stop(EndKind.DAMAGE, at, Problem.of(Violation.ZK_INVALID_RECORD, name, bodyAt, -1,
                    "an entry of " + payload.length + " bytes is shorter than a transaction header (32 bytes)"));
        }
        JuteInput h = JuteInput.of(payload, 0, payload.length, name, bodyAt);
        long clientId = h.readLong();
        int cxid = h.readInt();
        long zxid = h.readLong();
        long time = h.readLong();
        int type = h.readInt();
        try {
            ZkTxn.Body body = ZkTxn.readTop(type, payload, 32, name, bodyAt + 32, MAX_ENTRY);
            return new ZkTxn(clientId, cxid, zxid, time, type, body, name, at);
        } catch (ZkTxn.UnknownType e) {
            return stop(EndKind.DAMAGE, at, new Problem(Violation.ZK_INVALID_RECORD, name, bodyAt + 24, -1, "type",
                    null, String.valueOf(type), e.getMessage() + " (zxid 0x" + Long.toHexString(zxid) + "): ZooKeeper's restore fails here"));
        } catch (JuteInput.JuteException e) {
            return stop(EndKind.DAMAGE, at, Problem.of(Violation.ZK_INVALID_RECORD, name, e.position(), -1,
                    ZkTxn.typeName(type) + " body (zxid 0x" + Long.toHexString(zxid) + ") does not parse: " + e.detail()));
        }
    }

    private ZkTxn stop(EndKind kind, long position, Problem problem) {
        end = new End(kind, position, problem);
        return null;
    }

    @Override
    public void close() {
        try {
            if (in != null) {
                in.close();
            }
        } catch (RuntimeException e) {
            // closing a read-only source cannot lose data
        }
    }
}
