package io.segscope.format.record;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;

import java.nio.ByteBuffer;

/**
 * Control records of control batches (docs/format.md 1.3). The key is {@code version int16,
 * type int16}; COMMIT and ABORT carry an EndTxnMarker value {@code version int16,
 * coordinatorEpoch int32}. Types Kafka does not know are kept by number, as Kafka ignores them.
 */
public final class ControlRecord {
    /** Kafka's control record types; {@link #UNKNOWN} stands for any other id. */
    public enum Type {
        ABORT(0), COMMIT(1), LEADER_CHANGE(2), SNAPSHOT_HEADER(3), SNAPSHOT_FOOTER(4), KRAFT_VERSION(5),
        KRAFT_VOTERS(6), UNKNOWN(-1);

        public final short id;

        Type(int id) {
            this.id = (short) id;
        }

        public static Type of(short id) {
            return id >= 0 && id <= 6 ? values()[id] : UNKNOWN;
        }
    }

    public static final int KEY_SIZE = 4;
    public static final int END_TXN_MARKER_VALUE_SIZE = 6;

    private ControlRecord() {
    }

    /** The type id of a control record's key; the key must hold 4 bytes and a version >= 0. */
    public static short typeId(Batch batch, LogRecord record) {
        ByteBuffer buf = record.buffer();
        if (record.keyLength() < KEY_SIZE) {
            throw invalid(batch, record, "key", ">= 4 bytes", record.keyLength());
        }
        short version = buf.getShort(record.keyOffset());
        if (version < 0) {
            throw invalid(batch, record, "key.version", ">= 0", version);
        }
        return buf.getShort(record.keyOffset() + 2);
    }

    public static Type type(Batch batch, LogRecord record) {
        return Type.of(typeId(batch, record));
    }

    /** An EndTxnMarker value, parsed or not (see {@link #endTxnMarker}). */
    public sealed interface EndTxnMarkerValue permits EndTxnMarker, MarkerDefect {
    }

    /** A well-formed EndTxnMarker value. */
    public record EndTxnMarker(short version, int coordinatorEpoch) implements EndTxnMarkerValue {
    }

    /**
     * Why an EndTxnMarker value does not parse: the message, the field and its position in the
     * value (null and -1 for a null value).
     */
    public record MarkerDefect(String message, String field, int position) implements EndTxnMarkerValue {
    }

    /**
     * Parses the value of a COMMIT or ABORT marker as Kafka's {@code EndTransactionMarker} does:
     * {@code int16 version} (negative fails; above 0 is read as 0), then {@code int32
     * coordinatorEpoch}; bytes after it are ignored.
     *
     * @param buf the buffer holding the value, or null for a null value
     * @param len the value length, or -1 for a null value
     */
    public static EndTxnMarkerValue endTxnMarker(ByteBuffer buf, int off, int len) {
        if (buf == null || len < 0) {
            return new MarkerDefect("the marker has a null value", null, -1);
        }
        if (len < 2) {
            return new MarkerDefect("value of " + len + " bytes has no int16 version", "version", 0);
        }
        short version = buf.getShort(off);
        if (version < 0) {
            return new MarkerDefect("Invalid version found for end transaction marker: " + version
                    + ". May indicate data corruption", "version", 0);
        }
        if (len < END_TXN_MARKER_VALUE_SIZE) {
            return new MarkerDefect("value of " + len + " bytes has no int32 coordinatorEpoch", "coordinatorEpoch", 2);
        }
        return new EndTxnMarker(version, buf.getInt(off + 2));
    }

    private static FormatException invalid(Batch batch, LogRecord record, String field, Object expected, Object actual) {
        return FormatException.at(Violation.INVALID_CONTROL_RECORD, batch.file(), batch.position())
                .baseOffset(batch.baseOffset()).field(field).expected(expected).actual(actual)
                .note("control record at offset " + record.offset()).build();
    }
}
