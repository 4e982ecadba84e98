package io.segscope.format.record;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;
import org.xerial.snappy.Snappy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses one batch payload (docs/format.md 1.5) into a direct buffer that is reused from
 * batch to batch. The buffer grows on demand up to a cap; a payload that would inflate past the
 * cap is a {@link Violation#DECOMPRESSED_TOO_LARGE} error, never an OOM. The codec libraries are
 * the ones Kafka itself uses (java.util.zip, snappy-java, lz4-java, zstd-jni), driven directly
 * over buffers rather than through streams so that nothing is allocated per batch.
 *
 * <p>Framing is Kafka's: gzip members (RFC 1952), xerial snappy blocks, Kafka's LZ4 frame
 * (little-endian; the magic-0 writer hashed the wrong header bytes, so for magic 0 the header
 * checksum is not checked, as Kafka does not), and plain zstd frames.
 */
public final class Decompressor implements AutoCloseable {
    private static final int INITIAL = 64 * 1024;
    /** The output room offered to zstd at a time (see {@link #unzstd}). */
    private static final int ZSTD_ROOM = 64 * 1024;
    private static final byte[] SNAPPY_MAGIC = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};
    private static final int SNAPPY_HEADER = 16;
    private static final int LZ4_MAGIC = 0x184D2204;

    private final int maxBytes;
    private ByteBuffer out;
    private int written;
    private final CRC32 crc = new CRC32();
    private Inflater inflater;
    private ZstdDecompressCtx zstd;
    private LZ4SafeDecompressor lz4;
    private XXHash32 xxhash;
    private ByteBuffer scratch;
    private ByteBuffer srcView;
    private ByteBuffer srcOf;

    // error context of the batch being decompressed
    private String file;
    private long position;
    private long baseOffset;

    /** Each thread's decompressors not in use, for the next reader ({@link #acquire}). */
    private static final ThreadLocal<java.util.ArrayDeque<Decompressor>> FREE =
            ThreadLocal.withInitial(java.util.ArrayDeque::new);
    /** Decompressors a thread keeps for reuse; more are closed. */
    private static final int KEPT_PER_THREAD = 4;

    /**
     * A decompressor of this cap for a reader on this thread: one the thread used before and
     * {@link #release released}, else a new one. Its output buffer is off-heap (zstd-jni needs it)
     * and freed only by the garbage collector, so a reader per segment each with its own would hold
     * memory in proportion to the segments read between two collections: reused, a thread holds a
     * few whatever the number of segments.
     */
    public static Decompressor acquire(int maxBytes) {
        java.util.ArrayDeque<Decompressor> free = FREE.get();
        for (java.util.Iterator<Decompressor> it = free.iterator(); it.hasNext(); ) {
            Decompressor d = it.next();
            if (d.maxBytes == maxBytes) {
                it.remove();
                return d;
            }
        }
        return new Decompressor(maxBytes);
    }

    /**
     * Gives this decompressor back to the current thread for the next reader (or closes it when
     * the thread keeps enough). Nothing read from its output may be used afterwards.
     */
    public void release() {
        java.util.ArrayDeque<Decompressor> free = FREE.get();
        if (free.size() < KEPT_PER_THREAD && !free.contains(this)) {
            written = 0;
            free.push(this);
        } else if (!free.contains(this)) {
            close();
        }
    }

    /**
     * Closes the decompressors the current thread keeps for reuse. A thread that ends calls it:
     * what it kept is otherwise left to the garbage collector, whose collections of a small heap
     * come too seldom for the codec contexts held outside it (three-thread replays run again and
     * again in one process grew it by gigabytes).
     */
    public static void releaseThread() {
        java.util.ArrayDeque<Decompressor> free = FREE.get();
        for (Decompressor d : free) {
            d.close();
        }
        free.clear();
        FREE.remove();
    }

    /** @param maxBytes the most bytes one payload may decompress to */
    public Decompressor(int maxBytes) {
        this.maxBytes = maxBytes;
        this.out = ByteBuffer.allocateDirect(Math.min(INITIAL, Math.max(maxBytes, 16)));
    }

    public int maxBytes() {
        return maxBytes;
    }

    /** The buffer holding the last payload, from index 0 to {@link #length()}. */
    public ByteBuffer output() {
        return out;
    }

    /** Bytes produced by the last call. */
    public int length() {
        return written;
    }

    /**
     * Decompresses {@code [from, to)} of {@code src}.
     *
     * @param magic the batch magic (0 selects Kafka's broken LZ4 header checksum)
     * @return the number of bytes now in {@link #output()} from index 0
     */
    public int decompress(CompressionType codec, byte magic, ByteBuffer src, int from, int to,
                          String file, long position, long baseOffset) {
        this.file = file;
        this.position = position;
        this.baseOffset = baseOffset;
        written = 0;
        try {
            run(codec, magic, src, from, to);
        } catch (FormatException e) {
            throw e;
        } catch (RuntimeException e) { // a codec library's own complaint about hostile input
            throw failure(codec.kafkaName + ": " + e);
        } finally {
            out.limit(out.capacity()).position(0); // readers use absolute gets, bounded by their own limit
        }
        return written;
    }

    private void run(CompressionType codec, byte magic, ByteBuffer src, int from, int to) {
        switch (codec) {
            case NONE:
                ensureRoom(to - from);
                copy(src, from, to - from);
                break;
            case GZIP:
                gunzip(src, from, to);
                break;
            case SNAPPY:
                unsnappy(src, from, to);
                break;
            case LZ4:
                unlz4(src, from, to, magic == 0);
                break;
            case ZSTD:
                unzstd(src, from, to);
                break;
            default:
                throw new IllegalArgumentException(codec.toString());
        }
    }

    // ---- gzip -------------------------------------------------------------------------------

    private void gunzip(ByteBuffer src, int from, int to) {
        if (inflater == null) {
            inflater = new Inflater(true);
        }
        int p = from;
        boolean first = true;
        while (first || (to - p >= 10 && (src.get(p) & 0xff) == 0x1f && (src.get(p + 1) & 0xff) == 0x8b)) {
            first = false;
            p = gzipHeader(src, p, to);
            inflater.reset();
            ByteBuffer in = view(src, p, to);
            inflater.setInput(in);
            int memberStart = written;
            try {
                while (!inflater.finished()) {
                    if (written == out.capacity()) {
                        grow(written + 1);
                    }
                    out.limit(out.capacity()).position(written);
                    int n = inflater.inflate(out);
                    written += n;
                    if (n == 0 && !inflater.finished()) {
                        if (inflater.needsInput()) {
                            throw failure("gzip stream ends before its end of member");
                        }
                        if (inflater.needsDictionary()) {
                            throw failure("gzip stream needs a preset dictionary");
                        }
                    }
                }
            } catch (DataFormatException e) {
                throw failure("gzip: " + e.getMessage());
            }
            p = to - inflater.getRemaining();
            if (to - p < 8) {
                throw failure("gzip trailer missing");
            }
            crc.reset();
            out.limit(written).position(memberStart);
            crc.update(out);
            long storedCrc = Integer.toUnsignedLong(Integer.reverseBytes(src.getInt(p)));
            long storedSize = Integer.toUnsignedLong(Integer.reverseBytes(src.getInt(p + 4)));
            if (storedCrc != crc.getValue() || storedSize != ((written - memberStart) & 0xffffffffL)) {
                throw failure("corrupt gzip trailer (CRC or size differs)");
            }
            p += 8;
        }
    }

    private int gzipHeader(ByteBuffer src, int p, int to) {
        if (to - p < 10 || (src.get(p) & 0xff) != 0x1f || (src.get(p + 1) & 0xff) != 0x8b) {
            throw failure("not in gzip format");
        }
        if (src.get(p + 2) != 8) {
            throw failure("unsupported gzip compression method " + src.get(p + 2));
        }
        int flg = src.get(p + 3) & 0xff;
        p += 10;
        if ((flg & 4) != 0) { // FEXTRA
            if (to - p < 2) {
                throw failure("gzip header truncated");
            }
            int xlen = (src.get(p) & 0xff) | ((src.get(p + 1) & 0xff) << 8);
            p += 2 + xlen;
        }
        if ((flg & 8) != 0) { // FNAME
            p = skipZeroTerminated(src, p, to);
        }
        if ((flg & 16) != 0) { // FCOMMENT
            p = skipZeroTerminated(src, p, to);
        }
        if ((flg & 2) != 0) { // FHCRC
            p += 2;
        }
        if (p > to) {
            throw failure("gzip header truncated");
        }
        return p;
    }

    private int skipZeroTerminated(ByteBuffer src, int p, int to) {
        while (p < to && src.get(p) != 0) {
            p++;
        }
        if (p >= to) {
            throw failure("gzip header truncated");
        }
        return p + 1;
    }

    // ---- snappy (xerial blocking framing) -----------------------------------------------------

    private void unsnappy(ByteBuffer src, int from, int to) {
        if (!hasSnappyMagic(src, from, to)) {
            // xerial's SnappyInputStream reads data without its header as one raw snappy block
            snappyBlock(src, from, to - from);
            return;
        }
        int p = from + SNAPPY_HEADER;
        if (p > to) {
            throw failure("snappy stream header truncated");
        }
        while (p < to) {
            if (hasSnappyMagic(src, p, to)) { // a concatenated stream starts again
                p += SNAPPY_HEADER;
                continue;
            }
            if (to - p < 4) {
                throw failure("snappy chunk length truncated");
            }
            int len = src.getInt(p);
            p += 4;
            if (len < 0 || len > to - p) {
                throw failure("snappy chunk of " + len + " bytes overruns the payload (" + (to - p) + " left)");
            }
            snappyBlock(src, p, len);
            p += len;
        }
    }

    private static boolean hasSnappyMagic(ByteBuffer src, int p, int to) {
        if (to - p < SNAPPY_MAGIC.length) {
            return false;
        }
        for (int i = 0; i < SNAPPY_MAGIC.length; i++) {
            if (src.get(p + i) != SNAPPY_MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    private void snappyBlock(ByteBuffer src, int p, int len) {
        ByteBuffer in = direct(src, p, len);
        try {
            int n = Snappy.uncompressedLength(in);
            if (n < 0) {
                throw failure("snappy block length is negative");
            }
            ensureRoom(n);
            out.limit(written + n).position(written);
            int got = Snappy.uncompress(in, out);
            if (got != n) {
                throw failure("snappy block produced " + got + " bytes, header said " + n);
            }
            written += got;
        } catch (IOException e) {
            throw failure("snappy: " + e.getMessage());
        }
    }

    // ---- lz4 (Kafka's frame) ------------------------------------------------------------------

    private void unlz4(ByteBuffer src, int from, int to, boolean brokenHeaderChecksum) {
        if (lz4 == null) {
            lz4 = LZ4Factory.fastestInstance().safeDecompressor();
            xxhash = XXHashFactory.fastestInstance().hash32();
        }
        if (to - from < 7) {
            throw failure("lz4 frame header truncated");
        }
        if (Integer.reverseBytes(src.getInt(from)) != LZ4_MAGIC) {
            throw failure(String.format("lz4 frame magic 0x%08x, expected 0x%08x",
                    Integer.reverseBytes(src.getInt(from)), LZ4_MAGIC));
        }
        int flg = src.get(from + 4) & 0xff;
        int bd = src.get(from + 5) & 0xff;
        if ((flg & 0x03) != 0 || ((flg >>> 6) & 0x03) != 1) {
            throw failure(String.format("lz4 frame FLG 0x%02x: version must be 01 and reserved bits 0", flg));
        }
        if ((flg & 0x20) == 0) {
            throw failure("lz4 dependent blocks are not supported (Kafka writes independent blocks)");
        }
        boolean blockChecksum = (flg & 0x10) != 0;
        boolean contentSize = (flg & 0x08) != 0;
        boolean contentChecksum = (flg & 0x04) != 0;
        int sizeCode = (bd >>> 4) & 0x07;
        if ((bd & 0x8f) != 0 || sizeCode < 4) {
            throw failure(String.format("lz4 frame BD 0x%02x invalid", bd));
        }
        int maxBlock = 1 << (2 * sizeCode + 8);
        int p = from + 6 + (contentSize ? 8 : 0);
        if (p >= to) {
            throw failure("lz4 frame header truncated");
        }
        if (!brokenHeaderChecksum) {
            int hash = (xxhash.hash(src, from + 4, p - from - 4, 0) >> 8) & 0xff;
            if (hash != (src.get(p) & 0xff)) {
                throw failure("lz4 frame descriptor checksum mismatch");
            }
        }
        p++;
        while (true) {
            if (to - p < 4) {
                throw failure("lz4 block size truncated");
            }
            int word = Integer.reverseBytes(src.getInt(p));
            p += 4;
            if (word == 0) {
                break; // end mark; a content checksum may follow, which Kafka does not check either
            }
            boolean raw = (word & 0x80000000) != 0;
            int size = word & 0x7fffffff;
            if (size > maxBlock) {
                throw failure("lz4 block of " + size + " bytes exceeds the frame's maximum " + maxBlock);
            }
            if (size > to - p) {
                throw failure("lz4 block of " + size + " bytes overruns the payload");
            }
            if (blockChecksum) {
                if (to - p - size < 4) {
                    throw failure("lz4 block checksum truncated");
                }
                int stored = Integer.reverseBytes(src.getInt(p + size));
                if (stored != xxhash.hash(src, p, size, 0)) {
                    throw failure("lz4 block checksum mismatch");
                }
            }
            if (raw) {
                ensureRoom(size);
                copy(src, p, size);
            } else {
                int room = Math.min(maxBlock, maxBytes - written);
                ensureRoom(room);
                try {
                    written += lz4.decompress(src, p, size, out, written, Math.min(maxBlock, out.capacity() - written));
                } catch (LZ4Exception e) {
                    if (room < maxBlock && fitsOneBlock(src, p, size, maxBlock)) {
                        throw tooLarge((long) maxBytes + 1); // a sound block, past the cap: not damage
                    }
                    throw failure("lz4: " + e.getMessage());
                }
            }
            p += size + (blockChecksum ? 4 : 0);
        }
        if (contentChecksum && to - p < 4) {
            throw failure("lz4 content checksum truncated");
        }
    }

    /**
     * Whether an lz4 block that did not fit the room left under the cap decompresses into a whole
     * block's room (at most 4 MiB, Kafka's largest): then the payload is too large, not damaged.
     */
    private boolean fitsOneBlock(ByteBuffer src, int p, int size, int maxBlock) {
        try {
            lz4.decompress(src, p, size, ByteBuffer.allocate(maxBlock), 0, maxBlock);
            return true;
        } catch (LZ4Exception e) {
            return false;
        }
    }

    // ---- zstd ---------------------------------------------------------------------------------

    private void unzstd(ByteBuffer src, int from, int to) {
        boolean fresh = zstd == null;
        if (fresh) {
            zstd = new ZstdDecompressCtx();
        }
        try {
            unzstdOnce(src, from, to);
        } catch (FormatException e) {
            if (fresh || e.violation() != Violation.DECOMPRESSION_FAILED) {
                throw e;
            }
            // A context that decoded earlier frames holds buffers sized by them, and zstd may fail a
            // damaged frame otherwise with them than without ("Data corruption detected" or
            // "Destination buffer is too small"): the failure reported is a new context's, whatever
            // this thread decompressed before (damage is rare: a new context costs nothing then).
            zstd.close();
            zstd = new ZstdDecompressCtx();
            written = 0;
            unzstdOnce(src, from, to);
        }
    }

    private void unzstdOnce(ByteBuffer src, int from, int to) {
        zstd.reset();
        ByteBuffer in = direct(src, from, to - from);
        boolean frameDone = to == from;
        try {
            while (in.hasRemaining() || !frameDone) {
                // The room offered depends only on what this payload wrote, never on how far earlier
                // payloads grew the (reused) buffer: zstd decodes straight into a destination that
                // holds a frame's declared content size, through its window otherwise, and a frame
                // lying about its size fails differently in each ("Destination buffer is too small"
                // or "Data corruption detected"): a reused decompressor must fail as a new one does.
                int room = (int) Math.min(ZSTD_ROOM, (long) maxBytes - written);
                if (written + Math.max(room, 1) > out.capacity()) {
                    grow(written + Math.max(room, 1));
                }
                out.limit(written + room).position(written);
                int before = in.position();
                frameDone = zstd.decompressDirectByteBufferStream(out, in);
                int produced = out.position() - written;
                written = out.position();
                if (!frameDone && produced == 0 && in.position() == before) {
                    if (!in.hasRemaining()) {
                        throw failure("zstd frame truncated");
                    }
                    throw failure("zstd made no progress");
                }
            }
        } catch (ZstdException e) {
            throw failure("zstd: " + e.getMessage());
        }
    }

    // ---- buffers ------------------------------------------------------------------------------

    /** A reused view of {@code src} limited to {@code [from, to)}. */
    private ByteBuffer view(ByteBuffer src, int from, int to) {
        if (src != srcOf) {
            srcOf = src;
            srcView = src.duplicate();
        }
        srcView.limit(srcView.capacity()).position(from).limit(to);
        return srcView;
    }

    /** The range as a direct buffer (native codecs need one): a view if src is direct, else a copy. */
    private ByteBuffer direct(ByteBuffer src, int from, int len) {
        if (src.isDirect()) {
            return view(src, from, from + len);
        }
        if (scratch == null || scratch.capacity() < len) {
            scratch = ByteBuffer.allocateDirect(Math.max(len, INITIAL));
        }
        scratch.clear();
        ByteBuffer v = view(src, from, from + len);
        scratch.put(v);
        scratch.flip();
        return scratch;
    }

    private void copy(ByteBuffer src, int from, int len) {
        out.limit(out.capacity()).position(written);
        out.put(view(src, from, from + len));
        written += len;
    }

    private void ensureRoom(int n) {
        if (n > maxBytes - written) {
            throw tooLarge((long) written + n);
        }
        if (written + n > out.capacity()) {
            grow(written + n);
        }
    }

    private void grow(int need) {
        if (need > maxBytes) {
            throw tooLarge(need);
        }
        int cap = (int) Math.min(maxBytes, Math.max((long) need, 2L * out.capacity()));
        ByteBuffer bigger = ByteBuffer.allocateDirect(cap).order(ByteOrder.BIG_ENDIAN);
        out.limit(written).position(0);
        bigger.put(out);
        out = bigger;
    }

    private FormatException tooLarge(long size) {
        return FormatException.at(Violation.DECOMPRESSED_TOO_LARGE, file, position).baseOffset(baseOffset)
                .field("records").expected("<= " + maxBytes + " bytes").actual("more than " + (size - 1))
                .note("raise the decompression cap (--max-decompressed) if this batch is genuine").build();
    }

    private FormatException failure(String reason) {
        return FormatException.at(Violation.DECOMPRESSION_FAILED, file, position).baseOffset(baseOffset)
                .field("records").note(reason).build();
    }

    @Override
    public void close() {
        if (inflater != null) {
            inflater.end();
        }
        if (zstd != null) {
            zstd.close();
        }
    }
}
