package io.segscope.format.record;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.Checksums;

import java.nio.ByteBuffer;

/**
 * A legacy (magic 0/1) shallow entry: one plain message, or a compressed wrapper whose value is a
 * whole message set (docs/format.md 1.4). Mirrors Kafka's {@code AbstractLegacyRecordBatch}:
 * lastOffset is the entry's own offset; baseOffset of a wrapper is its first inner offset;
 * producer fields are absent (-1).
 *
 * <p>Inner messages follow Kafka's deep iterator: a v0 wrapper holds absolute offsets; a v1
 * wrapper holds relative ones, made absolute as {@code wrapperOffset - lastInner + inner}
 * (a wrapper offset of 0, which some librdkafka versions wrote, means base 0). An inner
 * message set that ends in the middle of an entry simply ends there, as in Kafka.
 */
public final class LegacyBatchView implements Batch {
    private final Checksums checksums;
    private final Decompressor decompressor;
    private final LegacyMessageView outer;
    private final Inner inner;
    private final Single single = new Single();
    private String file;
    private ByteBuffer buf;
    private int base;
    private long position;
    private int size;
    private long entryOffset;

    LegacyBatchView(Checksums checksums, Decompressor decompressor) {
        this.checksums = checksums;
        this.decompressor = decompressor;
        this.outer = new LegacyMessageView(checksums);
        this.inner = new Inner(new LegacyMessageView(checksums));
    }

    LegacyBatchView wrap(String file, ByteBuffer buf, int index, long position, int size) {
        this.file = file;
        this.buf = buf;
        this.base = index;
        this.position = position;
        this.size = size;
        this.entryOffset = buf.getLong(index);
        outer.wrapLenient(buf, index + BatchView.LOG_OVERHEAD, size - BatchView.LOG_OVERHEAD, entryOffset, null, -1L,
                file, position);
        inner.prepared = false;
        this.crc = -1;
        return this;
    }

    // the outer message's computed CRC, or -1 until asked for (once per entry, however many records ask)
    private long crc;

    /** The outer message (the wrapper for compressed entries). */
    public LegacyMessageView message() { return outer; }
    public ByteBuffer buffer() { return buf; }
    public int index() { return base; }

    @Override public String file() { return file; }
    @Override public long position() { return position; }
    @Override public int sizeInBytes() { return size; }
    @Override public byte magic() { return outer.magic(); }

    @Override
    public long baseOffset() {
        if (compressionId() == 0) {
            return entryOffset;
        }
        inner.prepare();
        return inner.firstOffset;
    }

    @Override public long lastOffset() { return entryOffset; }
    @Override public int attributes() { return outer.attributesByte(); }
    public int compressionId() { return outer.compressionId(); }
    @Override public CompressionType compression() { return CompressionType.forId(compressionId()); }
    @Override public TimestampType timestampType() { return outer.timestampType(); }
    @Override public long maxTimestamp() { return outer.timestamp(); }
    @Override public long baseTimestamp() { return -1L; }
    @Override public long producerId() { return -1L; }
    @Override public short producerEpoch() { return -1; }
    @Override public int baseSequence() { return -1; }
    @Override public int lastSequence() { return -1; }
    @Override public int partitionLeaderEpoch() { return -1; }
    @Override public boolean isTransactional() { return false; }
    @Override public boolean isControl() { return false; }
    @Override public boolean hasDeleteHorizon() { return false; }
    @Override public long deleteHorizonMs() { return -1L; }
    /** Kafka does not count legacy entries (countOrNull is null): -1. */
    @Override public int countOrMinusOne() { return -1; }
    @Override public long storedCrc() { return outer.storedCrc(); }
    @Override
    public long computedCrc() {
        if (crc < 0) {
            crc = outer.computedCrc();
        }
        return crc;
    }

    @Override
    public boolean isValid() {
        return size >= BatchView.LOG_OVERHEAD + LegacyMessageView.RECORD_OVERHEAD_V0 && storedCrc() == computedCrc();
    }

    @Override
    public void ensureValid() {
        long stored = storedCrc();
        long computed = computedCrc();
        if (stored != computed) {
            throw FormatException.at(Violation.CRC_MISMATCH, file, position).baseOffset(entryOffset).field("crc")
                    .expected(String.format("0x%08x", computed)).actual(String.format("0x%08x", stored))
                    .note("stored CRC-32 differs from the one computed over magic..end").build();
        }
    }

    @Override
    public RecordIterator records() {
        outer.check();
        if (compressionId() == 0) {
            return single.reset();
        }
        inner.prepare();
        return inner.reset();
    }

    /** An uncompressed legacy entry is its own single record. */
    private final class Single implements RecordIterator {
        private boolean done;

        Single reset() {
            done = false;
            return this;
        }

        @Override
        public boolean next() {
            if (done) {
                return false;
            }
            done = true;
            return true;
        }

        @Override
        public LogRecord record() {
            return outer;
        }
    }

    /** The inner messages of a compressed wrapper, decompressed into the reader's reused buffer. */
    private final class Inner implements RecordIterator {
        private final LegacyMessageView message;
        private boolean prepared;
        private ByteBuffer data;
        private int end;
        private int next;
        private long offsetBase;
        private long firstOffset;

        Inner(LegacyMessageView message) {
            this.message = message;
        }

        /** Decompresses and pre-walks the inner entries (Kafka does the same, for relative offsets). */
        void prepare() {
            if (prepared) {
                return;
            }
            outer.check();
            int codecId = compressionId();
            CompressionType codec = CompressionType.forId(codecId);
            if (codec == null || codec == CompressionType.ZSTD) {
                throw FormatException.at(Violation.UNSUPPORTED_COMPRESSION, file, position).baseOffset(entryOffset)
                        .field("attributes.compression").expected("0..3 for magic " + magic()).actual(codecId).build();
            }
            if (!outer.hasValue()) {
                throw FormatException.at(Violation.INVALID_WRAPPER, file, position).baseOffset(entryOffset)
                        .field("value").expected("a compressed message set").actual("null").build();
            }
            end = decompressor.decompress(codec, magic(), buf, outer.valueOffset(),
                    outer.valueOffset() + outer.valueLength(), file, position, entryOffset);
            data = decompressor.output();
            int count = 0;
            long lastInner = 0;
            int p = 0;
            while (end - p >= BatchView.LOG_OVERHEAD) {
                int innerSize = data.getInt(p + 8);
                if (innerSize < LegacyMessageView.RECORD_OVERHEAD_V0) {
                    throw FormatException.at(Violation.INVALID_WRAPPER, file, position).baseOffset(entryOffset)
                            .field("inner[" + count + "].size").expected(">= " + LegacyMessageView.RECORD_OVERHEAD_V0)
                            .actual(innerSize).build();
                }
                if (innerSize > end - p - BatchView.LOG_OVERHEAD) {
                    break; // a partial inner entry ends the set, as in Kafka's DataLogInputStream
                }
                if (count == 0) {
                    firstOffset = data.getLong(p);
                }
                lastInner = data.getLong(p);
                count++;
                p += BatchView.LOG_OVERHEAD + innerSize;
            }
            end = p;
            if (count == 0) {
                throw FormatException.at(Violation.INVALID_WRAPPER, file, position).baseOffset(entryOffset)
                        .field("value").expected("at least one inner message").actual(0).build();
            }
            if (magic() == 0) {
                offsetBase = 0;
            } else if (entryOffset == 0) {
                offsetBase = 0;
            } else {
                if (entryOffset < lastInner) {
                    throw FormatException.at(Violation.INVALID_WRAPPER, file, position).baseOffset(entryOffset)
                            .field("offset").expected(">= last inner offset " + lastInner).actual(entryOffset).build();
                }
                offsetBase = entryOffset - lastInner;
            }
            firstOffset += offsetBase;
            prepared = true;
        }

        Inner reset() {
            next = 0;
            return this;
        }

        @Override
        public boolean next() {
            if (next >= end) {
                return false;
            }
            long innerOffset = data.getLong(next);
            int innerSize = data.getInt(next + 8);
            message.wrap(data, next + BatchView.LOG_OVERHEAD, innerSize, offsetBase + innerOffset,
                    outer.magic() == 0 ? TimestampType.NO_TIMESTAMP_TYPE : outer.timestampType(),
                    outer.timestamp(), file, position);
            if (message.compressionId() != 0) {
                throw FormatException.at(Violation.INVALID_WRAPPER, file, position).baseOffset(entryOffset)
                        .field("inner.attributes.compression").expected(0).actual(message.compressionId())
                        .note("inner messages must not be compressed").build();
            }
            next += BatchView.LOG_OVERHEAD + innerSize;
            return true;
        }

        @Override
        public LogRecord record() {
            return message;
        }
    }
}
