package io.segscope.format.compact;

import io.segscope.testkit.Gen;
import io.segscope.testkit.Tries;
import org.apache.kafka.storage.internals.log.SkimpyOffsetMap;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.ByteBuffer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link KeyOffsetMap} against Kafka 4.4.0's {@code SkimpyOffsetMap}: the same keys put in the same
 * order leave the same size, utilization and latest offset, and the same answers to lookups (keys
 * present and absent), up to a full map; the memory is one array whatever the keys, never more than
 * Kafka's.
 */
class KeyOffsetMapTest {

    @TestFactory
    Stream<DynamicTest> sameAnswersAsKafka() {
        return Tries.of(0x5C1A9EL, 60, gen -> {
            int memory = gen.choose(24 * 2, 24 * 7 + 5, 24 * 100, gen.intBetween(48, 24 * 3000));
            KeyOffsetMap ours = new KeyOffsetMap(memory);
            SkimpyOffsetMap kafka;
            try {
                kafka = new SkimpyOffsetMap(memory);
                int puts = Math.min(ours.slots(), gen.size(0, 4000));
                int keySpace = gen.choose(5, 1000, Integer.MAX_VALUE);
                long offset = 0;
                for (int i = 0; i < puts; i++) {
                    byte[] key = ("k" + gen.intBetween(0, keySpace - 1)).getBytes();
                    if (ours.size() >= ours.slots()) {
                        break;
                    }
                    offset += gen.intBetween(1, 3);
                    ours.put(ByteBuffer.wrap(key), 0, key.length, offset);
                    kafka.put(ByteBuffer.wrap(key), offset);
                    byte[] probe = ("k" + gen.intBetween(0, keySpace - 1)).getBytes();
                    // a key inside a larger buffer, as records are
                    ByteBuffer framed = ByteBuffer.allocate(probe.length + 7).position(3).put(probe).flip();
                    assertThat(ours.get(framed, 3, probe.length)).isEqualTo(kafka.get(ByteBuffer.wrap(probe)));
                }
                assertThat(ours.size()).isEqualTo(kafka.size());
                assertThat(ours.latestOffset()).isEqualTo(kafka.latestOffset());
                assertThat(ours.slots()).isEqualTo(kafka.slots());
                assertThat(ours.utilization()).isEqualTo(kafka.utilization());
                assertThat(ours.capacity()).isLessThanOrEqualTo(ours.slots());
                // every key ever asked about, present or absent, answers as in Kafka's map
                for (int k = 0; k < Math.min(keySpace, 300); k++) {
                    byte[] key = ("k" + k).getBytes();
                    assertThat(ours.get(ByteBuffer.wrap(key), 0, key.length)).isEqualTo(kafka.get(ByteBuffer.wrap(key)));
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> md5AsMessageDigest() {
        return Tries.of(0x3D5L, 40, gen -> {
            try {
                java.security.MessageDigest jdk = java.security.MessageDigest.getInstance("MD5");
                Md5 ours = new Md5();
                for (int i = 0; i < 50; i++) {
                    // every length around the block boundaries, and some long keys, inside a larger buffer
                    int length = i < 30 ? gen.intBetween(0, 130) : gen.intBetween(0, 5000);
                    byte[] key = gen.bytes(length, length);
                    int at = gen.intBetween(0, 9);
                    ByteBuffer framed = ByteBuffer.allocate(at + length + 5).position(at).put(key).flip();
                    ours.digest(framed, at, length);
                    ByteBuffer expected = ByteBuffer.wrap(jdk.digest(key));
                    assertThat(new long[] {ours.hi(), ours.lo()}).as("MD5 of " + length + " bytes")
                            .containsExactly(expected.getLong(0), expected.getLong(8));
                }
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void smallWhileFewKeys() {
        KeyOffsetMap map = new KeyOffsetMap(128 * 1024 * 1024);
        for (int i = 0; i < 200_000; i++) {
            byte[] key = ("key-" + i).getBytes();
            map.put(ByteBuffer.wrap(key), 0, key.length, i);
        }
        // 5,592,405 slots as in Kafka, but a table of 524,288 (12 MiB) holds 200,000 keys
        assertThat(map.slots()).isEqualTo(5_592_405);
        assertThat(map.capacity()).isEqualTo(1 << 19);
        for (int i = 0; i < 200_000; i += 997) {
            byte[] key = ("key-" + i).getBytes();
            assertThat(map.get(ByteBuffer.wrap(key), 0, key.length)).isEqualTo(i);
        }
        map.clear();
        byte[] key = "key-5".getBytes();
        assertThat(map.get(ByteBuffer.wrap(key), 0, key.length)).isEqualTo(-1L);
        assertThat(map.size()).isZero();
    }

    @Test
    void fullAtLoadFactorOne() {
        KeyOffsetMap map = new KeyOffsetMap(24 * 10);
        for (int i = 0; i < 10; i++) {
            byte[] key = ("key-" + i).getBytes();
            map.put(ByteBuffer.wrap(key), 0, key.length, i + 1);
        }
        byte[] absent = "absent".getBytes();
        assertThat(map.get(ByteBuffer.wrap(absent), 0, absent.length)).isEqualTo(-1L);
        assertThat(map.size()).isEqualTo(10);
    }

    @Test
    void oneArrayWhateverTheKeys() throws Exception {
        KeyOffsetMap map = new KeyOffsetMap(24 * 100_000);
        long before = usedHeap();
        for (int i = 0; i < 80_000; i++) {
            byte[] key = ("key-" + i).getBytes();
            map.put(ByteBuffer.wrap(key), 0, key.length, i);
        }
        long grown = usedHeap() - before;
        assertThat(map.size()).isEqualTo(80_000);
        // 80,000 keys as objects would take 7 MB or more (a byte[] and a ByteBuffer each); the map holds
        // them in one array of at most Kafka's 2.4 MB (grown to it here: more than half of the
        // 100,000 slots are used). The used heap is read as the least of three readings after GCs,
        // with 2 MB of slack for what the JVM and the test runner allocate meanwhile.
        assertThat(map.capacity()).isEqualTo(100_000);
        assertThat(grown).isLessThan(24L * 100_000 + 2_000_000);
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            least = Math.min(least, rt.totalMemory() - rt.freeMemory());
        }
        return least;
    }
}
