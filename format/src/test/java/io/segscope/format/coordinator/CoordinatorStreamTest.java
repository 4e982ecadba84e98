package io.segscope.format.coordinator;

import io.segscope.format.io.ByteSource;
import io.segscope.format.io.MappedSource;
import io.segscope.format.json.CoordinatorJson;
import io.segscope.format.json.CoordinatorStream;
import io.segscope.format.json.JsonOut;
import io.segscope.format.record.BatchReader;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.RecordIterator;
import io.segscope.testdata.Corpus;
import io.segscope.testkit.Tries;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link CoordinatorStream}, the dump's fast path, against the decoder and {@link CoordinatorJson}
 * on the same bytes: whenever it writes a record, the decoder decodes it and {@link CoordinatorJson}
 * writes the very same key data, value data and key facts; and it takes the common cases (offset
 * commits of every version, with and without their tagged topic id), so that it cannot silently
 * fall back for everything. Random records of every type and version built by Kafka's generated
 * classes, the same records with bytes flipped, cut and inserted, and every coordinator record of
 * the corpus.
 */
public class CoordinatorStreamTest {
    private static final JsonOut.Name OWNER = JsonOut.name("owner");
    private static final JsonOut.Name OWNER_KIND = JsonOut.name("ownerKind");
    private static final JsonOut.Name KEY_TOPIC = JsonOut.name("keyTopic");
    private static final JsonOut.Name KEY_TOPIC_ID = JsonOut.name("keyTopicId");
    private static final JsonOut.Name KEY_PARTITION = JsonOut.name("keyPartition");
    private static final List<KafkaRoundTripTest.Cell> CELLS = KafkaRoundTripTest.cells();

    /**
     * Whether the fast path wrote the record; asserts that what it wrote is the decoder's text.
     * The fuzz tests (io.segscope.format.fuzz) hold it to the same rule on any bytes.
     */
    public static boolean sameAsDecoder(CoordinatorTopic topic, ByteBuffer kb, int ko, int kl, ByteBuffer vb, int vo, int vl,
                                 String where) {
        CoordinatorRecordDecoder decoder = CoordinatorRecordDecoder.forTopic(topic);
        CoordinatorStream stream = new CoordinatorStream();
        JsonOut key = new JsonOut(64);
        JsonOut value = new JsonOut(64);
        JsonOut facts = new JsonOut(64);
        boolean keyOk = stream.open(decoder, kb, ko, kl, vb, vo, vl) && stream.writeKeyData(key);
        boolean fast = keyOk && (stream.isTombstone() || stream.writeValueData(value));
        facts.writeStartObject();
        boolean factsFast = fast && stream.writeKeyFacts(facts, OWNER, OWNER_KIND, JsonOut.text("kind"), KEY_TOPIC, KEY_TOPIC_ID, KEY_PARTITION);
        CoordinatorResult r = decoder.decode(kb, ko, kl, vb, vo, vl);
        if (!keyOk) {
            assertThat(key.size()).as("nothing kept when the key is not taken: %s", where).isZero();
        }
        if (!fast) {
            assertThat(value.size()).as("nothing kept when the value is not taken: %s", where).isZero();
            return false;
        }
        assertThat(r).as("the fast path wrote a record the decoder does not decode: %s", where).isInstanceOf(Decoded.class);
        Decoded d = (Decoded) r;
        assertThat(d.unknownTaggedFields()).as(where).isZero();
        assertThat(stream.schema()).as(where).isSameAs(d.schema());
        assertThat(stream.valueVersion()).as(where).isEqualTo(d.valueVersion());
        assertThat(key.toString()).as("key data, %s", where).isEqualTo(CoordinatorJson.structText(d.key()));
        if (d.isTombstone()) {
            assertThat(stream.isTombstone()).as(where).isTrue();
        } else {
            assertThat(value.toString()).as("value data, %s", where).isEqualTo(CoordinatorJson.valueDataText(d));
        }
        if (factsFast) {
            facts.writeEndObject();
            JsonOut expected = new JsonOut(64);
            expected.writeStartObject();
            if (d.ownerId() == null) {
                expected.writeNullField(OWNER).writeNullField(OWNER_KIND);
            } else {
                expected.writeStringField(OWNER, d.ownerId()).writeStringField(OWNER_KIND, "kind");
            }
            if (d.keyTopic() == null) {
                expected.writeNullField(KEY_TOPIC);
            } else {
                expected.writeStringField(KEY_TOPIC, d.keyTopic());
            }
            if (d.keyTopicId() == null) {
                expected.writeNullField(KEY_TOPIC_ID);
            } else {
                expected.writeStringField(KEY_TOPIC_ID, d.keyTopicId().toString());
            }
            if (d.keyPartition() < 0) {
                expected.writeNullField(KEY_PARTITION);
            } else {
                expected.writeNumberField(KEY_PARTITION, d.keyPartition());
            }
            expected.writeEndObject();
            assertThat(facts.toString()).as("key facts, %s", where).isEqualTo(expected.toString());
        } else {
            assertThat(facts.toString()).as("nothing kept when the key facts are not taken: %s", where).isEqualTo("{");
        }
        return true;
    }

    @TestFactory
    Stream<DynamicTest> randomRecordsOfEveryTypeAndVersion() {
        return Tries.of(16, 3000, gen -> {
            Random random = gen.random();
            KafkaRoundTripTest.Cell cell = gen.choose(CELLS);
            RandomMessages messages = new RandomMessages(random);
            byte[] k = KafkaOracle.keyBytes(messages.key(cell));
            boolean tombstone = random.nextInt(10) == 0;
            byte[] v = tombstone ? null : KafkaOracle.valueBytes(cell.version(), messages.value(cell));
            boolean fast = check(cell.topic(), k, v, random, cell.toString());
            boolean refined = cell.topic() == CoordinatorTopic.CONSUMER_OFFSETS && cell.schema().type() == 2;
            if (cell.topic() == CoordinatorTopic.CONSUMER_OFFSETS && cell.schema().type() <= 1) {
                assertThat(fast).as("offset commits are the fast path's common case: %s", cell).isTrue();
            }
            if (refined && !tombstone) {
                assertThat(fast).as("classic group metadata goes through the decoder: %s", cell).isFalse();
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> damagedRecordsAreWrittenOnlyAsTheDecoderReadsThem() {
        return Tries.of(1616, 3000, gen -> {
            Random random = gen.random();
            KafkaRoundTripTest.Cell cell = gen.choose(CELLS);
            RandomMessages messages = new RandomMessages(random);
            byte[] k = KafkaOracle.keyBytes(messages.key(cell));
            byte[] v = KafkaOracle.valueBytes(cell.version(), messages.value(cell));
            byte[] target = random.nextInt(4) == 0 ? k : v;
            byte[] bad = switch (random.nextInt(3)) {
                case 0 -> {
                    byte[] b = target.clone();
                    for (int i = 1 + random.nextInt(3); i > 0; i--) {
                        b[random.nextInt(b.length)] ^= (byte) (1 + random.nextInt(255));
                    }
                    yield b;
                }
                case 1 -> java.util.Arrays.copyOf(target, random.nextInt(target.length));
                default -> {
                    int at = random.nextInt(target.length + 1);
                    byte[] b = new byte[target.length + 1 + random.nextInt(4)];
                    System.arraycopy(target, 0, b, 0, at);
                    for (int i = at; i < at + b.length - target.length; i++) {
                        b[i] = (byte) random.nextInt(256);
                    }
                    System.arraycopy(target, at, b, at + b.length - target.length, target.length - at);
                    yield b;
                }
            };
            check(cell.topic(), target == k ? bad : k, target == k ? v : bad, random, cell + " damaged");
        });
    }

    /** The record inside a larger heap or direct buffer at a non-zero offset. */
    private static boolean check(CoordinatorTopic topic, byte[] k, byte[] v, Random random, String where) {
        int ko = random.nextInt(7);
        int vo = random.nextInt(7);
        ByteBuffer kb = KafkaRoundTripTest.place(k, ko, random.nextBoolean());
        ByteBuffer vb = v == null ? null : KafkaRoundTripTest.place(v, vo, random.nextBoolean());
        return sameAsDecoder(topic, kb, ko, k.length, vb, vo, v == null ? -1 : v.length, where);
    }

    /** OffsetCommitValue v4 by hand: offset, leader epoch, metadata, commit time, then the tags given (tag, bytes). */
    private static byte[] offsetCommitV4(String metadata, Object... tags) {
        ByteBuffer b = ByteBuffer.allocate(512);
        b.putShort((short) 4).putLong(42).putInt(7);
        byte[] m = metadata.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        b.put((byte) (m.length + 1)).put(m).putLong(1_795_996_800_000L);
        b.put((byte) (tags.length / 2));
        for (int i = 0; i < tags.length; i += 2) {
            byte[] data = (byte[]) tags[i + 1];
            b.put((byte) (int) (Integer) tags[i]).put((byte) data.length).put(data);
        }
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    private static byte[] uuid(long msb, long lsb) {
        return ByteBuffer.allocate(16).putLong(msb).putLong(lsb).array();
    }

    @Test
    void offsetCommitTagsAsTheDecoderReadsThem() {
        byte[] key = ByteBuffer.allocate(2 + 2 + 1 + 2 + 1 + 4).putShort((short) 1).putShort((short) 1).put((byte) 'g')
                .putShort((short) 1).put((byte) 't').putInt(3).array();
        Random random = new Random(4);
        String[] metadata = {"", "plain", "quote \" back \\ slash", "tab\tnew\nline\u0001\u001f\u007f", "caf\u00e9 \u65e5\u672c \ud83d\ude00"};
        for (String m : metadata) {
            // no tag, the topic id, an explicit zero topic id (the default: not printed), the tag twice (the last wins)
            assertThat(check(CoordinatorTopic.CONSUMER_OFFSETS, key, offsetCommitV4(m), random, m)).isTrue();
            assertThat(check(CoordinatorTopic.CONSUMER_OFFSETS, key, offsetCommitV4(m, 0, uuid(5, 6)), random, m)).isTrue();
            assertThat(check(CoordinatorTopic.CONSUMER_OFFSETS, key, offsetCommitV4(m, 0, uuid(0, 0)), random, m)).isTrue();
            assertThat(check(CoordinatorTopic.CONSUMER_OFFSETS, key, offsetCommitV4(m, 0, uuid(1, 2), 0, uuid(0, 0)), random, m))
                    .isTrue();
            // an unknown tag: jsonl counts it, so the decoder's path writes the record
            assertThat(check(CoordinatorTopic.CONSUMER_OFFSETS, key, offsetCommitV4(m, 0, uuid(5, 6), 9, new byte[3]), random, m))
                    .isFalse();
        }
        JsonOut zero = new JsonOut();
        CoordinatorStream stream = new CoordinatorStream();
        byte[] v = offsetCommitV4("x", 0, uuid(0, 0));
        assertThat(stream.open(CoordinatorRecordDecoder.forTopic(CoordinatorTopic.CONSUMER_OFFSETS), ByteBuffer.wrap(key), 0,
                key.length, ByteBuffer.wrap(v), 0, v.length)).isTrue();
        assertThat(stream.writeValueData(zero)).isTrue();
        assertThat(zero.toString()).isEqualTo("{\"offset\":42,\"leaderEpoch\":7,\"metadata\":\"x\",\"commitTimestamp\":1795996800000}");
    }

    @Test
    void everyCorpusCoordinatorRecord() throws IOException {
        Pattern dirs = Pattern.compile("(__consumer_offsets|__transaction_state|__share_group_state)-\\d+");
        List<Path> logs = Corpus.filesEndingWith(Corpus.corpus(), ".log").stream()
                .filter(p -> p.getParent() != null && dirs.matcher(p.getParent().getFileName().toString()).matches())
                .toList();
        assertThat(logs).isNotEmpty();
        int records = 0;
        int fast = 0;
        for (Path log : logs) {
            String dir = log.getParent().getFileName().toString();
            CoordinatorTopic topic = CoordinatorTopic.forTopicName(dir.substring(0, dir.lastIndexOf('-')));
            try (ByteSource source = MappedSource.open(log, log.toString()); BatchReader reader = new BatchReader(source)) {
                while (reader.next()) {
                    if (reader.batch().isControl()) {
                        continue;
                    }
                    RecordIterator it = reader.batch().records();
                    while (it.next()) {
                        LogRecord r = it.record();
                        records++;
                        if (sameAsDecoder(topic, r.hasKey() ? r.buffer() : null, r.keyOffset(), r.keyLength(),
                                r.hasValue() ? r.buffer() : null, r.valueOffset(), r.valueLength(), log + " offset " + r.offset())) {
                            fast++;
                        }
                    }
                }
            }
        }
        assertThat(records).isPositive();
        assertThat(fast).as("records of the corpus the fast path took").isGreaterThan(records / 2);
        System.out.printf("coordinator stream: %d of %d corpus records written from their bytes%n", fast, records);
    }
}
