package io.segscope.format.walk;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.segscope.format.logdir.FileEntry;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.TopicPartitionName;
import io.segscope.format.record.Batch;
import io.segscope.format.record.LogRecord;
import io.segscope.format.record.ReaderOptions;
import io.segscope.format.record.Tail;
import io.segscope.testdata.Corpus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The owner (group or transactional id), topic and partition of every coordinator record key in
 * the corpus are what Kafka's own DumpLogSegments decoded for that record (its committed output),
 * for every key type present; and filtering a walk by one owner of each key type yields exactly
 * that owner's records.
 */
class OwnerFilterCorpusTest {
    private static final JsonFactory JSON = new JsonFactory();

    /** What Kafka's dump says of a record's key. */
    record KafkaKey(String coordinatorTopic, int type, String owner, String topic, int partition) {
    }

    @Test
    void everyKeyTypeAgreesWithKafkasDumpAndFiltersByOwner() throws IOException {
        Set<String> typesChecked = new TreeSet<>();
        int files = 0;
        for (Path dump : Corpus.filesEndingWith(Corpus.testdata(), ".log.txt")) {
            String dir = dump.getParent().getFileName().toString();
            Optional<TopicPartitionName> name = TopicPartitionName.tryParse(dir);
            if (name.isEmpty() || !name.get().topic().startsWith("__") || name.get().isMetadataLog()) {
                continue;
            }
            Path log = Corpus.dumpedDir(dump.getParent().getParent()).resolve(dir)
                    .resolve(dump.getFileName().toString().replace(".txt", ""));
            if (!Files.exists(log)) {
                continue;
            }
            files++;
            Map<Long, KafkaKey> kafka = kafkaKeys(dump, name.get().topic());
            LogFile file = LogFile.classify(FileEntry.of(log), name);
            Map<Long, String> owners = new TreeMap<>();
            walk(file, RecordFilter.ALL, (r, c) -> {
                KafkaKey k = kafka.get(r.offset());
                assertThat(k).as(log + " offset " + r.offset() + " is in Kafka's dump").isNotNull();
                assertThat(c.ownerId()).as(log + " offset " + r.offset() + " owner").isEqualTo(k.owner());
                assertThat(c.keyTopic()).as(log + " offset " + r.offset() + " topic").isEqualTo(k.topic());
                assertThat(c.keyPartition()).as(log + " offset " + r.offset() + " partition").isEqualTo(k.partition());
                owners.put(r.offset(), k.owner());
                typesChecked.add(k.coordinatorTopic() + " type " + k.type());
            });
            assertThat(owners.keySet()).as(log + ": every keyed record of Kafka's dump was walked").isEqualTo(kafka.keySet());
            // one owner per key type: the filter passes exactly that owner's records
            Map<Integer, String> ownerPerType = new TreeMap<>();
            kafka.values().forEach(k -> ownerPerType.putIfAbsent(k.type(), k.owner()));
            for (String owner : new TreeSet<>(ownerPerType.values())) {
                List<Long> expected = new ArrayList<>();
                kafka.forEach((offset, k) -> {
                    if (owner.equals(k.owner())) {
                        expected.add(offset);
                    }
                });
                List<Long> got = new ArrayList<>();
                walk(file, new RecordFilter(List.of(owner), null, null, null, Long.MIN_VALUE, Long.MAX_VALUE,
                        Long.MIN_VALUE, Long.MAX_VALUE), (r, c) -> got.add(r.offset()));
                assertThat(got).as(log + " --group " + owner).isEqualTo(expected);
            }
        }
        assertThat(files).isGreaterThan(50);
        // every type the corpus holds: __consumer_offsets 0-8, 10-17, 19-23; transactions; share state
        assertThat(typesChecked).contains("__consumer_offsets type 0", "__consumer_offsets type 1",
                "__consumer_offsets type 2", "__consumer_offsets type 5", "__consumer_offsets type 8",
                "__consumer_offsets type 10", "__consumer_offsets type 16", "__consumer_offsets type 17",
                "__consumer_offsets type 23", "__transaction_state type 0", "__share_group_state type 0");
    }

    interface Check {
        void accept(LogRecord r, io.segscope.format.coordinator.CoordinatorResult c);
    }

    private static void walk(LogFile file, RecordFilter filter, Check check) {
        RecordWalk walk = new RecordWalk(ReaderOptions.defaults(), DecoderChoice.AUTO, filter, Long.MAX_VALUE);
        boolean clean = walk.walk(List.of(file), new RecordSink() {
            @Override public void beginFile(LogFile f) { }
            @Override public void batch(LogFile f, Batch b, io.segscope.format.walk.TransactionOutcome t) { }
            @Override public void problem(LogFile f, String message) {
                throw new AssertionError(message);
            }
            @Override public void endFile(LogFile f, Tail tail, long validBytes, long fileSize, String error) {
                assertThat(error).isNull();
            }

            @Override
            public void record(LogFile f, Batch b, LogRecord r, RecordContent content) {
                if (content instanceof RecordContent.Coordinator c && r.hasKey()) {
                    check.accept(r, c.result());
                }
            }
        });
        assertThat(clean).isTrue();
    }

    /** Offset to key, from the {@code | offset: N ... key: {...}} lines of Kafka's dump. */
    private static Map<Long, KafkaKey> kafkaKeys(Path dump, String coordinatorTopic) throws IOException {
        Map<Long, KafkaKey> out = new TreeMap<>();
        for (String line : Files.readAllLines(dump, StandardCharsets.UTF_8)) {
            int k = line.indexOf(" key: {");
            if (!line.startsWith("| offset: ") || k < 0) {
                continue;
            }
            long offset = Long.parseLong(line.substring(10, line.indexOf(' ', 10)));
            out.put(offset, parseKey(line.substring(k + 6), coordinatorTopic));
        }
        return out;
    }

    /** {@code {"type":"1","data":{"group":"g","topic":"t","partition":0}}}: Kafka's field names. */
    private static KafkaKey parseKey(String json, String coordinatorTopic) throws IOException {
        int type = -1;
        String owner = null;
        String topic = null;
        int partition = -1;
        try (JsonParser p = JSON.createParser(json)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.getCurrentName();
                p.nextToken();
                if (field.equals("type")) {
                    type = Integer.parseInt(p.getText());
                } else if (field.equals("data")) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String f = p.getCurrentName();
                        p.nextToken();
                        switch (f) {
                            case "group", "groupId", "transactionalId" -> owner = p.getText();
                            case "topic" -> topic = p.getText();
                            case "partition" -> partition = p.getIntValue();
                            default -> p.skipChildren();
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
        }
        return new KafkaKey(coordinatorTopic, type, owner, topic, partition);
    }
}
