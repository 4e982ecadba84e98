package io.segscope.format.write;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Kafka's {@code Lz4BlockOutputStream} for magic 2 at the default level: an LZ4 frame with 64 KiB
 * independent blocks, no block or content checksum, no content size, the fast compressor
 * ({@code LZ4Factory.fastestInstance().fastCompressor()}), a block stored raw when it does not shrink,
 * an end mark. Buffers are reused from batch to batch.
 */
final class Lz4Sink extends OutputStream {
    static final int MAGIC = 0x184D2204;
    static final int MAX_BLOCK = 1 << 16;
    static final byte FLG = 0x60;   // version 1, independent blocks
    static final byte BD = 0x40;    // 64 KiB blocks
    private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
    private static final XXHash32 XXHASH = XXHashFactory.fastestInstance().hash32();

    private final byte[] buffer = new byte[MAX_BLOCK];
    private final byte[] compressed = new byte[COMPRESSOR.maxCompressedLength(MAX_BLOCK)];
    private final byte[] word = new byte[4];
    private int used;
    private OutputStream out;

    Lz4Sink begin(OutputStream out) throws IOException {
        this.out = out;
        putIntLE(buffer, 0, MAGIC);
        buffer[4] = FLG;
        buffer[5] = BD;
        buffer[6] = (byte) ((XXHASH.hash(buffer, 4, 2, 0) >> 8) & 0xFF);
        out.write(buffer, 0, 7);
        used = 0;
        return this;
    }

    private void writeBlock() throws IOException {
        if (used == 0) {
            return;
        }
        int n = COMPRESSOR.compress(buffer, 0, used, compressed, 0);
        byte[] src = compressed;
        int flag = 0;
        if (n >= used) {
            src = buffer;
            n = used;
            flag = Integer.MIN_VALUE;
        }
        putIntLE(word, 0, n | flag);
        out.write(word, 0, 4);
        out.write(src, 0, n);
        used = 0;
    }

    @Override
    public void write(int b) throws IOException {
        if (used == MAX_BLOCK) {
            writeBlock();
        }
        buffer[used++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        int room = MAX_BLOCK - used;
        while (len > room) {
            System.arraycopy(b, off, buffer, used, room);
            used = MAX_BLOCK;
            writeBlock();
            off += room;
            len -= room;
            room = MAX_BLOCK;
        }
        System.arraycopy(b, off, buffer, used, len);
        used += len;
    }

    @Override
    public void flush() throws IOException {
        if (out != null) {
            writeBlock();
            out.flush();
        }
    }

    @Override
    public void close() throws IOException {
        writeBlock();
        putIntLE(word, 0, 0);
        out.write(word, 0, 4);
        out = null;
    }

    private static void putIntLE(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
        b[at + 2] = (byte) (v >>> 16);
        b[at + 3] = (byte) (v >>> 24);
    }
}
