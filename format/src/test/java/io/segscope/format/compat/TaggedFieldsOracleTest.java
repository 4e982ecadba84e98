package io.segscope.format.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.CoordinatorRecordDecoder;
import io.segscope.format.coordinator.CoordinatorTopic;
import io.segscope.format.coordinator.Field;
import io.segscope.format.coordinator.FieldType;
import io.segscope.format.coordinator.StructSchema;
import io.segscope.format.coordinator.metadata.MetadataSchemas;
import io.segscope.format.logdir.LogDir;
import io.segscope.format.logdir.LogFile;
import io.segscope.format.logdir.PartitionDir;
import io.segscope.format.record.ReaderOptions;
import io.segscope.testdata.Corpus;
import java.io.File;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.kafka.common.metadata.MetadataRecordType;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.internals.ByteUtils;
import org.junit.jupiter.api.Test;

/**
 * The tagged fields {@link FormatInventory} counts per (record type, value version) are those
 * Kafka 4.4.0's generated message classes find in the same records: for every record of the four
 * state logs of the 4.4.0 corpus runs, read by Kafka's {@code FileRecords} and its generated
 * classes, a known tagged field is counted when its value differs from the field's default (Kafka
 * writes a tagged field only then), an unknown one from {@code unknownTaggedFields()}, in the
 * record's value and in every struct nested in it.
 */
class TaggedFieldsOracleTest {

    @Test
    void everyStateLogRecordOfThe440RunsHasKafkasTaggedFields() throws Exception {
        long tags = 0;
        for (String run : List.of("kraft-4.4.0-plain", "kraft-4.4.0-compressed")) {
            LogDir dir = LogDir.open(Corpus.corpus().resolve(run).resolve("logdir"));
            Map<String, Map<String, Long>> ours = new TreeMap<>();
            Map<String, Map<String, Long>> kafka = new TreeMap<>();
            for (PartitionDir p : dir.partitions()) {
                StateLog log = StateLog.forTopic(p.topic());
                if (log == null) {
                    continue;
                }
                FormatInventory.Counts c = FormatInventory.of(p, ReaderOptions.defaults());
                for (FormatInventory.RecordVersion v : c.recordVersions().values()) {
                    for (FormatInventory.TaggedField f : v.taggedFields()) {
                        ours.computeIfAbsent(p.topic() + " " + v.type() + "/" + v.version(), k -> new TreeMap<>())
                                .merge(f.label(), f.count(), Long::sum);
                    }
                }
                for (LogFile f : FormatInventory.files(p)) {
                    kafkaTags(log, new File(f.path()), kafka);
                }
            }
            assertThat(ours).as(run).isEqualTo(kafka);
            for (Map<String, Long> m : kafka.values()) {
                for (long n : m.values()) {
                    tags += n;
                }
            }
        }
        assertThat(tags).isEqualTo(2572);   // the two runs' tagged fields, all compared above
    }

    @Test
    void namedFigures() {
        LogDir dir = LogDir.open(Corpus.corpus().resolve("kraft-4.4.0-plain").resolve("logdir"));
        Map<String, Long> byLabel = new TreeMap<>();
        for (PartitionDir p : dir.partitions()) {
            if (StateLog.forTopic(p.topic()) == null) {
                continue;
            }
            for (FormatInventory.RecordVersion v : FormatInventory.of(p, ReaderOptions.defaults()).recordVersions().values()) {
                for (FormatInventory.TaggedField f : v.taggedFields()) {
                    byLabel.merge(v.name() + " v" + v.version() + " " + f.label(), f.count(), Long::sum);
                }
            }
        }
        assertThat(byLabel).containsEntry("OffsetCommit v4 topicId", 1517L)
                .containsEntry("TransactionLog v1 PreviousProducerId", 33L)
                .containsEntry("TransactionLog v1 ClientTransactionVersion", 32L)
                .containsEntry("PartitionChangeRecord v2 Isr", 76L)
                .containsEntry("PartitionChangeRecord v2 Leader", 76L)
                .containsEntry("PartitionChangeRecord v2 EligibleLeaderReplicas", 76L)
                .containsEntry("PartitionChangeRecord v2 LastKnownElr", 76L)
                .containsEntry("ConsumerGroupCurrentMemberAssignment v0 TopicPartitions.AssignmentEpochs", 37L);
    }

    private static void kafkaTags(StateLog log, File file, Map<String, Map<String, Long>> out) throws Exception {
        try (FileRecords records = FileRecords.open(file)) {
            for (RecordBatch batch : records.batches()) {
                if (batch.isControlBatch()) {
                    continue;
                }
                for (Record r : batch) {
                    if (!r.hasValue()) {
                        continue;
                    }
                    ByteBuffer value = r.value();
                    short type;
                    short version;
                    ApiMessage message;
                    StructSchema schema;
                    if (log == StateLog.CLUSTER_METADATA) {
                        ByteUtils.readUnsignedVarint(value);   // frame version
                        type = (short) ByteUtils.readUnsignedVarint(value);
                        version = (short) ByteUtils.readUnsignedVarint(value);
                        message = MetadataRecordType.fromId(type).newMetadataRecord();
                        schema = MetadataSchemas.forApiKey(type).value();
                    } else {
                        type = r.key().getShort(0);
                        version = value.getShort();
                        message = newValue(log, type);
                        schema = CoordinatorRecordDecoder.forTopic(CoordinatorTopic.forTopicName(log.topic)).schemas().forType(type).value();
                    }
                    message.read(new ByteBufferAccessor(value), version);
                    Map<String, Long> counts = new TreeMap<>();
                    tags(message, schema, version, "", counts);
                    if (!counts.isEmpty()) {
                        Map<String, Long> m = out.computeIfAbsent(log.topic + " " + type + "/" + version, k -> new TreeMap<>());
                        counts.forEach((k, n) -> m.merge(k, n, Long::sum));
                    }
                }
            }
        }
    }

    private static ApiMessage newValue(StateLog log, short type) {
        switch (log) {
            case CONSUMER_OFFSETS:
                return org.apache.kafka.coordinator.group.generated.CoordinatorRecordType.fromId(type).newRecordValue();
            case TRANSACTION_STATE:
                return org.apache.kafka.coordinator.transaction.generated.CoordinatorRecordType.fromId(type).newRecordValue();
            default:
                return org.apache.kafka.coordinator.share.generated.CoordinatorRecordType.fromId(type).newRecordValue();
        }
    }

    /** Kafka's view of one struct's tags: non-default tagged fields and unknown tags, recursively. */
    private static void tags(Object message, StructSchema schema, short version, String struct, Map<String, Long> out)
            throws Exception {
        Object defaults = message.getClass().getDeclaredConstructor().newInstance();
        String prefix = struct.isEmpty() ? "" : struct + ".";
        for (RawTaggedField raw : ((Message) message).unknownTaggedFields()) {
            out.merge(prefix + "tag" + raw.tag(), 1L, Long::sum);
        }
        for (Field f : schema.fields()) {
            if (!f.versions().contains(version) && !(f.isTagged() && f.taggedVersions().contains(version))) {
                continue;
            }
            Method getter = message.getClass().getMethod(Character.toLowerCase(f.name().charAt(0)) + f.name().substring(1));
            Object value = getter.invoke(message);
            if (f.isTagged() && f.taggedVersions().contains(version) && !Objects.deepEquals(value, getter.invoke(defaults))) {
                out.merge(prefix + f.name(), 1L, Long::sum);
            }
            if (f.type() == FieldType.STRUCT && value != null) {
                tags(value, f.struct(), version, f.struct().name(), out);
            } else if (f.type() == FieldType.ARRAY && f.elementType() == FieldType.STRUCT && value != null) {
                for (Object e : (Iterable<?>) value) {
                    tags(e, f.struct(), version, f.struct().name(), out);
                }
            }
        }
    }
}
