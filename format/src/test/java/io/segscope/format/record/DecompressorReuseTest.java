package io.segscope.format.record;

import com.github.luben.zstd.Zstd;
import io.segscope.format.error.FormatException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A decompressor reused by a thread ({@link Decompressor#acquire}) gives what a new one gives, for
 * damaged payloads too: its output buffer, grown by earlier payloads, must not change the outcome.
 */
class DecompressorReuseTest {
    /**
     * The first batch of EngineFuzzTest's input {@code crash-9b2353...}: a zstd frame whose content
     * outgrows what its header declares. zstd decodes it straight into a destination as large as
     * the declared size ("Destination buffer is too small") and through its window into a smaller
     * one ("Data corruption detected"): the offsets replay on three threads named the one, on the
     * thread whose decompressor had grown, the other.
     */
    @Test
    void aReusedDecompressorFailsAsANewOneDoes() throws IOException {
        byte[] segment;
        try (InputStream in = getClass().getResourceAsStream(
                "/io/segscope/format/fuzz/EngineFuzzTestInputs/replay/crash-9b2353668a42b7d34aa3fd86db329af3f8c6e301")) {
            segment = in.readAllBytes();
        }
        ByteBuffer src = ByteBuffer.wrap(segment);
        int from = BatchView.RECORDS_OFFSET;
        int to = src.getInt(BatchView.LENGTH_OFFSET) + BatchView.LOG_OVERHEAD;
        String fresh = failure(new Decompressor(ReaderOptions.DEFAULT_MAX_DECOMPRESSED), src, from, to);

        Decompressor reused = new Decompressor(ReaderOptions.DEFAULT_MAX_DECOMPRESSED);
        byte[] big = Zstd.compress(new byte[4 << 20]);
        reused.decompress(CompressionType.ZSTD, (byte) 2, ByteBuffer.wrap(big), 0, big.length, "big", 0, 0);
        assertThat(reused.output().capacity()).as("grown by the first payload").isGreaterThanOrEqualTo(4 << 20);
        assertThat(failure(reused, src, from, to)).isEqualTo(fresh).contains("zstd");
    }

    private static String failure(Decompressor d, ByteBuffer src, int from, int to) {
        FormatException e = catchThrowableOfType(FormatException.class,
                () -> d.decompress(CompressionType.ZSTD, (byte) 2, src, from, to, "00000000000000000000.log", 0, 0));
        assertThat(e).as("the damaged frame fails").isNotNull();
        return e.getMessage();
    }
}
