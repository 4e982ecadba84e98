package io.segscope.format.io;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.testkit.Tries;
import org.apache.kafka.common.utils.internals.ByteUtils;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The varint decoder ({@link Varints}, through {@link Cursor} and directly) against a slow, obviously correct twin (unbounded arithmetic, then
 * truncation to the Java type, as Kafka's shifting does) and against Kafka's ByteUtils.
 */
class VarintTwinTest {

    /** Slow twin: value and length, or null when the encoding is longer than maxBytes or runs out. */
    static BigInteger[] slow(byte[] b, int maxBytes) {
        BigInteger value = BigInteger.ZERO;
        for (int i = 0; i < b.length; i++) {
            if (i == maxBytes) {
                return null;
            }
            BigInteger group = BigInteger.valueOf(b[i] & 0x7f);
            value = value.add(group.shiftLeft(7 * i));
            if ((b[i] & 0x80) == 0) {
                return new BigInteger[]{value, BigInteger.valueOf(i + 1)};
            }
        }
        return null;
    }

    static long zigzag(BigInteger raw, int bits) {
        BigInteger truncated = raw.mod(BigInteger.ONE.shiftLeft(bits));
        BigInteger half = truncated.shiftRight(1);
        return truncated.testBit(0) ? half.negate().subtract(BigInteger.ONE).longValue() : half.longValue();
    }

    @TestFactory
    Stream<DynamicTest> varintMatchesTwinAndKafka() {
        return Tries.of(77, 3000, gen -> varintMatchesTwinAndKafka(gen.bytes(7)));
    }

    private static void varintMatchesTwinAndKafka(byte[] bytes) {
        Cursor c = new Cursor().wrap(ByteBuffer.wrap(bytes), 0, bytes.length).context("v", 0, -1, Violation.INVALID_RECORD);
        BigInteger[] twin = slow(bytes, Varints.MAX_VARINT_BYTES);
        if (twin == null) {
            FormatException e = catchThrowableOfType(FormatException.class, () -> c.varint("f"));
            assertThat(e).isNotNull();
            assertThat(e.field()).isEqualTo("f");
        } else {
            int fast = c.varint("f");
            assertThat((long) fast).isEqualTo((long) (int) zigzag(twin[0], 32));
            assertThat(c.index()).isEqualTo(twin[1].intValue());
            assertThat(fast).isEqualTo(ByteUtils.readVarint(ByteBuffer.wrap(bytes)));
        }
    }

    @TestFactory
    Stream<DynamicTest> unsignedVarintMatchesTwinAndKafka() {
        return Tries.of(80, 3000, gen -> unsignedVarintMatchesTwinAndKafka(gen.bytes(7)));
    }

    private static void unsignedVarintMatchesTwinAndKafka(byte[] bytes) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        long packed = Varints.unsignedVarint(buf, 0, bytes.length);
        BigInteger[] twin = slow(bytes, Varints.MAX_VARINT_BYTES);
        if (twin == null) {
            // every byte read has its high bit set: the data ran out, or the fifth byte has it
            assertThat(packed).isEqualTo(bytes.length < Varints.MAX_VARINT_BYTES ? Varints.TRUNCATED : Varints.TOO_LONG);
        } else {
            assertThat(Varints.size(packed)).isEqualTo(twin[1].intValue());
            assertThat(Varints.value(packed)).isEqualTo(twin[0].intValue());
            assertThat(Varints.value(packed)).isEqualTo(ByteUtils.readUnsignedVarint(ByteBuffer.wrap(bytes)));
        }
    }

    @TestFactory
    Stream<DynamicTest> varlongMatchesTwinAndKafka() {
        return Tries.of(78, 3000, gen -> varlongMatchesTwinAndKafka(gen.bytes(12)));
    }

    private static void varlongMatchesTwinAndKafka(byte[] bytes) {
        Cursor c = new Cursor().wrap(ByteBuffer.wrap(bytes), 0, bytes.length).context("v", 0, -1, Violation.INVALID_RECORD);
        BigInteger[] twin = slow(bytes, Varints.MAX_VARLONG_BYTES);
        if (twin == null) {
            assertThat(catchThrowableOfType(FormatException.class, () -> c.varlong("f"))).isNotNull();
        } else {
            long fast = c.varlong("f");
            assertThat(fast).isEqualTo(zigzag(twin[0], 64));
            assertThat(c.index()).isEqualTo(twin[1].intValue());
            assertThat(fast).isEqualTo(ByteUtils.readVarlong(ByteBuffer.wrap(bytes)));
        }
    }

    @TestFactory
    Stream<DynamicTest> encodeDecodeRoundTripsLikeKafka() {
        return Tries.of(79, 2000, gen -> encodeDecodeRoundTripsLikeKafka(gen.anyInt(), gen.anyLong()));
    }

    private static void encodeDecodeRoundTripsLikeKafka(int i, long l) {
        ByteBuffer ours = ByteBuffer.allocate(32);
        int end = Varints.putVarint(ours, 0, i);
        end = Varints.putVarlong(ours, end, l);
        ByteBuffer kafka = ByteBuffer.allocate(32);
        ByteUtils.writeVarint(i, kafka);
        ByteUtils.writeVarlong(l, kafka);
        assertThat(end).isEqualTo(kafka.position());
        assertThat(ours.array()).isEqualTo(kafka.array());
        assertThat(Varints.sizeOfVarint(i)).isEqualTo(ByteUtils.sizeOfVarint(i));
        assertThat(Varints.sizeOfVarlong(l)).isEqualTo(ByteUtils.sizeOfVarlong(l));
        Cursor c = new Cursor().wrap(ours, 0, end);
        assertThat(c.varint("i")).isEqualTo(i);
        assertThat(c.varlong("l")).isEqualTo(l);
    }
}
