package io.segscope.format.walk;

import io.segscope.format.io.ByteSource;
import io.segscope.format.io.Checksums;
import io.segscope.format.record.BatchView;
import io.segscope.format.record.LegacyMessageView;

import java.nio.ByteBuffer;

/**
 * Finds the next good entry of a {@code .log} file after damage (docs/format.md 1.2, 1.4): scans
 * forward one byte at a time for a position where a whole entry parses as a plausible header
 * whose CRC is right. Cheap tests come first (size within the file, magic 0..2, an offset above
 * the last good one, known codec, unused attribute bits clear, record count within the offset
 * delta), so
 * the CRC is computed only for the rare candidate that passes them: a false match needs a
 * 32-bit CRC to agree by chance as well. The offset test matters: snappy and lz4 copy
 * incompressible input literally, so a damaged legacy wrapper can hold whole inner messages with
 * right CRCs, whose relative offsets (magic 1) start again at 0. Nothing is allocated per candidate.
 */
public final class Resync {
    private static final int V2_MIN = BatchView.RECORD_BATCH_OVERHEAD;
    private static final int LEGACY_MIN = BatchView.LOG_OVERHEAD + LegacyMessageView.RECORD_OVERHEAD_V0;
    /** Legacy message CRC sits after the 12-byte entry header; it covers magic..end. */
    private static final int LEGACY_CRC = BatchView.LOG_OVERHEAD + LegacyMessageView.CRC_OFFSET;
    private static final int LEGACY_MAGIC = BatchView.LOG_OVERHEAD + LegacyMessageView.MAGIC_OFFSET;
    private static final int LEGACY_ATTRIBUTES = BatchView.LOG_OVERHEAD + LegacyMessageView.ATTRIBUTES_OFFSET;

    private final Checksums checksums = new Checksums();
    private final int maxBatchBytes;

    public Resync(int maxBatchBytes) {
        this.maxBatchBytes = maxBatchBytes;
    }

    /** Returned by {@link #find} when a stream source has already moved past {@code from}. */
    public static final long CANNOT_GO_BACK = -2;

    /**
     * The first position at or after {@code from} where a good entry starts, -1 when none does, or
     * {@link #CANNOT_GO_BACK} when {@code source} is a stream that has already dropped those bytes
     * (the walk read ahead to the end of the file to tell a torn tail from a zero tail).
     */
    public long find(ByteSource source, long from, long minOffset) {
        try {
            for (long p = from; ; p++) {
                if (source.available(p, LEGACY_MIN) < LEGACY_MIN) {
                    return -1;
                }
                if (isEntry(source, p, minOffset)) {
                    return p;
                }
            }
        } catch (IllegalStateException e) {
            if (source.isRandomAccess()) {
                throw e;
            }
            return CANNOT_GO_BACK;
        }
    }

    /** True when a whole, CRC-valid entry whose offset is at least {@code minOffset} starts at {@code p}. */
    public boolean isEntry(ByteSource source, long p, long minOffset) {
        int idx = source.ensure(p, LEGACY_MIN);
        if (idx < 0) {
            return false;
        }
        ByteBuffer buf = source.buffer();
        long offset = buf.getLong(idx);
        int size = buf.getInt(idx + BatchView.LENGTH_OFFSET);
        byte magic = buf.get(idx + BatchView.MAGIC_OFFSET);
        if (offset < minOffset || size < LegacyMessageView.RECORD_OVERHEAD_V0 || size > maxBatchBytes - BatchView.LOG_OVERHEAD) {
            return false;
        }
        int total = size + BatchView.LOG_OVERHEAD;
        long known = source.size();
        if (known >= 0 && total > known - p) {
            return false;
        }
        // header tests first, on bytes already there; the whole entry is read only for the CRC
        if (magic == 2) {
            if (total < V2_MIN) {
                return false;
            }
            idx = source.ensure(p, V2_MIN);
            if (idx < 0) {
                return false;
            }
            buf = source.buffer();
            int attributes = buf.getShort(idx + BatchView.ATTRIBUTES_OFFSET);
            int lastOffsetDelta = buf.getInt(idx + BatchView.LAST_OFFSET_DELTA_OFFSET);
            int count = buf.getInt(idx + BatchView.RECORDS_COUNT_OFFSET);
            if ((attributes & ~0x7f) != 0 || (attributes & 0x07) > 4 || lastOffsetDelta < 0 || count < 0
                    || count > (long) lastOffsetDelta + 1) {
                return false;
            }
            long stored = Integer.toUnsignedLong(buf.getInt(idx + BatchView.CRC_OFFSET));
            return crc(source, p, total, BatchView.ATTRIBUTES_OFFSET, true) == stored;
        }
        if (magic == 0 || magic == 1) {
            int min = magic == 0 ? LegacyMessageView.RECORD_OVERHEAD_V0 : LegacyMessageView.RECORD_OVERHEAD_V1;
            int attributes = buf.get(idx + LEGACY_ATTRIBUTES);
            if (size < min || (attributes & 0x07) > 3 || (attributes & (magic == 0 ? 0xf8 : 0xf0)) != 0) {
                return false;
            }
            long stored = Integer.toUnsignedLong(buf.getInt(idx + LEGACY_CRC));
            return crc(source, p, total, LEGACY_MAGIC, false) == stored;
        }
        return false;
    }

    /**
     * The CRC of a candidate entry from {@code crcFrom} to its end: at once when it is small, else a
     * chunk at a time, so that a damaged header declaring a huge size does not make a windowed
     * source hold that many bytes (a real batch that large is read whole by the reader anyway).
     */
    private long crc(ByteSource source, long p, int total, int crcFrom, boolean castagnoli) {
        if (total <= CHUNK) {
            int idx = source.ensure(p, total);
            if (idx < 0) {
                return -1;
            }
            ByteBuffer buf = source.buffer();
            return castagnoli ? checksums.crc32c(buf, idx + crcFrom, idx + total) : checksums.crc32(buf, idx + crcFrom, idx + total);
        }
        return checksums.crcOf(source, p + crcFrom, p + total, castagnoli, CHUNK);
    }

    /** Candidates larger than this are checked a chunk at a time. */
    private static final int CHUNK = 1 << 20;
}
