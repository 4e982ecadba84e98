package io.segscope.format.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.testkit.Tries;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** {@link Utf8Slice} hashes and compares like {@code new String(bytes, UTF_8)} without decoding. */
class Utf8SliceTest {

    @TestFactory
    Stream<DynamicTest> hashAndEqualityMatchJavaStrings() {
        return Tries.of(31, 2000, gen -> hashAndEqualityMatchJavaStrings(gen.string(255), gen.bytes(3)));
    }

    private static void hashAndEqualityMatchJavaStrings(String s, byte[] prefix) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        byte[] buf = new byte[prefix.length + utf8.length + 1];
        System.arraycopy(prefix, 0, buf, 0, prefix.length);
        System.arraycopy(utf8, 0, buf, prefix.length, utf8.length);
        Utf8Slice slice = new Utf8Slice().wrap(ByteBuffer.wrap(buf), prefix.length, utf8.length);
        String decoded = new String(utf8, StandardCharsets.UTF_8);
        assertThat(slice.javaHashCode()).isEqualTo(decoded.hashCode());
        assertThat(slice.contentEquals(decoded)).isTrue();
        assertThat(slice.contentEquals(decoded + "x")).isFalse();
        assertThat(slice.toString()).isEqualTo(decoded);
    }

    @TestFactory
    Stream<DynamicTest> malformedUtf8HashesLikeJavaDecoding() {
        return Tries.of(32, 2000, gen -> malformedUtf8HashesLikeJavaDecoding(gen.bytes(12)));
    }

    private static void malformedUtf8HashesLikeJavaDecoding(byte[] bytes) {
        Utf8Slice slice = new Utf8Slice().wrap(ByteBuffer.wrap(bytes), 0, bytes.length);
        String decoded = new String(bytes, StandardCharsets.UTF_8);
        assertThat(slice.javaHashCode()).isEqualTo(decoded.hashCode());
        assertThat(slice.contentEquals(decoded)).isTrue();
    }

    @Test
    void directBuffersAndSupplementaryCharacters() {
        String s = "h3b-grüße-组😀";
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        ByteBuffer direct = ByteBuffer.allocateDirect(utf8.length + 4);
        direct.put(4, utf8);
        Utf8Slice slice = new Utf8Slice().wrap(direct, 4, utf8.length);
        assertThat(slice.javaHashCode()).isEqualTo(s.hashCode());
        assertThat(slice.contentEquals(s)).isTrue();
        assertThat(slice.toString()).isEqualTo(s);
        Utf8Slice other = new Utf8Slice().wrap(ByteBuffer.wrap(utf8), 0, utf8.length);
        assertThat(slice.contentEquals(other)).isTrue();
    }
}
