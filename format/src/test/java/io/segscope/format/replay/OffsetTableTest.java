package io.segscope.format.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.testkit.Gen;
import io.segscope.testkit.Tries;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link OffsetTable} against a {@code HashMap} model: random commits and removals over many keys
 * (the table rehashes, grows and reuses freed slots many times), metadata of every length (in the
 * row and in the arena, growing and shrinking, non-ASCII and malformed UTF-8).
 */
class OffsetTableTest {
    record Key(int g, int t, int p) {
    }

    record Row(long offset, int epoch, long commitTs, long expireTs, long msb, long lsb, long rec, long pos, long batchTs,
               int file, String metadata) {
    }

    private static final String[] ALPHABET = {"a", "Z", "é", "🚀", ",", "\"", "\n", "中"};

    @TestFactory
    Stream<DynamicTest> tableEqualsModel() {
        return Tries.of(0x7ab1eL, 12, gen -> {
            OffsetTable table = new OffsetTable();
            Map<Key, Row> model = new HashMap<>();
            int keys = gen.intBetween(1, 40_000);
            int ops = gen.intBetween(1, 120_000);
            for (int i = 0; i < ops; i++) {
                // about `keys` keys: each is committed, removed and committed again many times
                Key k = new Key(gen.intBetween(0, keys / 160), gen.intBetween(0, 7), gen.intBetween(0, 19));
                int slot = table.find(k.g(), k.t(), k.p());
                assertThat(slot >= 0).isEqualTo(model.containsKey(k));
                if (slot >= 0 && gen.intBetween(0, 3) == 0) {
                    table.remove(slot);
                    model.remove(k);
                    continue;
                }
                if (slot < 0) {
                    slot = table.add(k.g(), k.t(), k.p());
                }
                byte[] md = metadata(gen);
                Row row = new Row(gen.longBetween(-1, Long.MAX_VALUE), gen.intBetween(-1, Integer.MAX_VALUE), gen.longBetween(-1, 1L << 42),
                        gen.bool() ? -1 : gen.longBetween(0, 1L << 42), gen.longBetween(Long.MIN_VALUE, Long.MAX_VALUE),
                        gen.longBetween(Long.MIN_VALUE, Long.MAX_VALUE), gen.longBetween(0, Long.MAX_VALUE),
                        gen.longBetween(0, Integer.MAX_VALUE), gen.longBetween(-1, 1L << 42), gen.intBetween(0, 1000),
                        new String(md, StandardCharsets.UTF_8));
                // the metadata at an offset of a bigger buffer, as in a record
                ByteBuffer buf = ByteBuffer.allocate(md.length + 7);
                buf.position(3);
                buf.put(md);
                table.setMetadata(slot, buf, 3, md.length);
                table.set(slot, k.p(), row.offset(), row.epoch(), row.commitTs(), row.expireTs(), row.msb(), row.lsb(),
                        row.rec(), row.pos(), row.batchTs(), row.file());
                model.put(k, row);
            }
            assertThat(table.count()).isEqualTo(model.size());
            int live = 0;
            for (int s = 0; s < table.limit(); s++) {
                if (!table.live(s)) {
                    continue;
                }
                live++;
                Key k = new Key(table.group(s), table.topic(s), table.partition(s));
                assertThat(table.find(k.g(), k.t(), k.p())).isEqualTo(s);
                assertThat(read(table, s)).as("%s", k).isEqualTo(model.get(k));
            }
            assertThat(live).isEqualTo(model.size());
        });
    }

    private static Row read(OffsetTable t, int s) {
        return new Row(t.offset(s), t.leaderEpoch(s), t.commitTimestamp(s), t.expireTimestamp(s), t.topicIdMsb(s),
                t.topicIdLsb(s), t.recordOffset(s), t.position(s), t.batchTimestamp(s), t.file(s), t.metadata(s));
    }

    /** Empty, short (in the row), exactly 16 bytes, long (in the arena), non-ASCII, or malformed UTF-8. */
    private static byte[] metadata(Gen gen) {
        return switch (gen.intBetween(0, 5)) {
            case 0 -> new byte[0];
            case 1 -> text(gen, gen.intBetween(1, 6)).getBytes(StandardCharsets.UTF_8);
            case 2 -> "0123456789abcdef".getBytes(StandardCharsets.UTF_8);
            case 3 -> text(gen, gen.intBetween(5, 300)).getBytes(StandardCharsets.UTF_8);
            case 4 -> {
                byte[] b = new byte[gen.intBetween(1, 40)];
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) gen.intBetween(0, 255);
                }
                yield b;
            }
            default -> text(gen, gen.intBetween(1, 16)).getBytes(StandardCharsets.UTF_8);
        };
    }

    private static String text(Gen gen, int chars) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < chars; i++) {
            sb.append(ALPHABET[gen.intBetween(0, ALPHABET.length - 1)]);
        }
        return sb.toString();
    }

}
