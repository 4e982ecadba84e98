package io.segscope.format.state;

import io.segscope.format.error.FormatException;
import io.segscope.format.io.ByteSource;
import io.segscope.format.io.KafkaUuid;
import io.segscope.format.io.MappedSource;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.storage.internals.checkpoint.LeaderEpochCheckpointFile;
import org.apache.kafka.storage.internals.checkpoint.OffsetCheckpointFile;
import org.apache.kafka.storage.internals.checkpoint.PartitionMetadataFile;
import org.apache.kafka.storage.internals.log.BatchMetadata;
import org.apache.kafka.storage.internals.log.CorruptSnapshotException;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.ProducerStateEntry;
import org.apache.kafka.storage.internals.log.ProducerStateManager;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compares segscope's side-file readers with Kafka 4.4.0's on the same file. Each method returns
 * the number of entries compared, or -1 when both refused the file.
 */
public final class KafkaStateOracle {
    private KafkaStateOracle() {
    }

    /** Which error, if any, a reader threw. */
    private record Outcome<T>(T value, RuntimeException error) {
        static <T> Outcome<T> of(java.util.concurrent.Callable<T> action) {
            try {
                return new Outcome<>(action.call(), null);
            } catch (RuntimeException e) {
                return new Outcome<>(null, e);
            } catch (Exception e) {
                return new Outcome<>(null, new RuntimeException(e));
            }
        }

        boolean failed() {
            return error != null;
        }
    }

    private static ByteSource open(Path file) {
        return MappedSource.open(file, file.getFileName().toString());
    }

    /** A producer snapshot: structure, CRC and every entry. */
    public static int assertSnapshotMatchesKafka(Path file) {
        Outcome<List<ProducerStateEntry>> kafka = Outcome.of(() -> ProducerStateManager.readSnapshot(file.toFile()));
        try (ByteSource src = open(file)) {
            Outcome<ProducerSnapshotReader> mine = Outcome.of(() -> {
                ProducerSnapshotReader r = new ProducerSnapshotReader().wrap(src);
                r.verifyCrc();
                return r;
            });
            assertThat(mine.failed()).as("segscope refuses %s (%s) exactly when Kafka does (%s)", file, mine.error, kafka.error)
                    .isEqualTo(kafka.failed());
            if (kafka.failed()) {
                assertThat(kafka.error).isInstanceOf(CorruptSnapshotException.class);
                assertThat(mine.error).isInstanceOf(FormatException.class);
                return -1;
            }
            List<ProducerSnapshotEntry> entries = mine.value.entries();
            assertThat(entries).hasSize(kafka.value.size());
            for (int i = 0; i < entries.size(); i++) {
                ProducerSnapshotEntry m = entries.get(i);
                ProducerStateEntry k = kafka.value.get(i);
                assertThat(m.producerId()).isEqualTo(k.producerId());
                assertThat(m.epoch()).isEqualTo(k.producerEpoch());
                assertThat(m.coordinatorEpoch()).isEqualTo(k.coordinatorEpoch());
                assertThat(m.timestamp()).isEqualTo(k.lastTimestamp());
                assertThat(m.currentTxnFirstOffset() >= 0 ? m.currentTxnFirstOffset() : -1)
                        .isEqualTo(k.currentTxnFirstOffset().orElse(-1));
                List<BatchMetadata> batches = new ArrayList<>(k.batchMetadata());
                if (m.lastOffset() >= 0) {
                    assertThat(batches).containsExactly(
                            new BatchMetadata(m.lastSequence(), m.lastOffset(), m.offsetDelta(), m.timestamp()));
                } else {
                    assertThat(batches).isEmpty();
                }
            }
            return entries.size();
        }
    }

    /** An offset checkpoint file, as Kafka's {@code OffsetCheckpointFile.read} maps it. */
    public static int assertOffsetCheckpointMatchesKafka(Path file) {
        Outcome<Map<TopicPartition, Long>> kafka = Outcome.of(() ->
                new OffsetCheckpointFile(file.toFile(), new LogDirFailureChannel(1)).read());
        try (ByteSource src = open(file)) {
            Outcome<List<TopicPartitionOffset>> mine = Outcome.of(() -> OffsetCheckpoint.read(src));
            assertThat(mine.failed()).as("segscope refuses %s (%s) exactly when Kafka does (%s)", file, mine.error, kafka.error)
                    .isEqualTo(kafka.failed());
            if (kafka.failed()) {
                assertThat(mine.error).isInstanceOf(FormatException.class);
                return -1;
            }
            Map<TopicPartition, Long> mineMap = new HashMap<>();
            for (TopicPartitionOffset e : mine.value) {
                mineMap.put(new TopicPartition(e.topic(), e.partition()), e.offset());
            }
            assertThat(mineMap).isEqualTo(kafka.value);
            return mine.value.size();
        }
    }

    /** A leader-epoch-checkpoint file, entry by entry. */
    public static int assertLeaderEpochCheckpointMatchesKafka(Path file) {
        Outcome<List<org.apache.kafka.storage.internals.log.EpochEntry>> kafka = Outcome.of(() ->
                new LeaderEpochCheckpointFile(file.toFile(), new LogDirFailureChannel(1)).read());
        try (ByteSource src = open(file)) {
            Outcome<List<EpochEntry>> mine = Outcome.of(() -> LeaderEpochCheckpoint.read(src));
            assertThat(mine.failed()).as("segscope refuses %s (%s) exactly when Kafka does (%s)", file, mine.error, kafka.error)
                    .isEqualTo(kafka.failed());
            if (kafka.failed()) {
                assertThat(mine.error).isInstanceOf(FormatException.class);
                return -1;
            }
            assertThat(mine.value).hasSize(kafka.value.size());
            for (int i = 0; i < mine.value.size(); i++) {
                assertThat(mine.value.get(i).epoch()).isEqualTo(kafka.value.get(i).epoch());
                assertThat(mine.value.get(i).startOffset()).isEqualTo(kafka.value.get(i).startOffset());
            }
            return mine.value.size();
        }
    }

    /** A partition.metadata file. */
    public static int assertPartitionMetadataMatchesKafka(Path file) {
        Outcome<org.apache.kafka.storage.internals.checkpoint.PartitionMetadata> kafka = Outcome.of(() ->
                new PartitionMetadataFile(file.toFile(), new LogDirFailureChannel(1)).read());
        try (ByteSource src = open(file)) {
            Outcome<PartitionMetadata> mine = Outcome.of(() -> PartitionMetadata.read(src));
            assertThat(mine.failed()).as("segscope refuses %s (%s) exactly when Kafka does (%s)", file, mine.error, kafka.error)
                    .isEqualTo(kafka.failed());
            if (kafka.failed()) {
                assertThat(mine.error).isInstanceOf(FormatException.class);
                return -1;
            }
            assertThat(mine.value.version()).isEqualTo(kafka.value.version());
            assertThat(mine.value.topicId().toString()).isEqualTo(kafka.value.topicId().toString());
            assertThat(mine.value.topicId().mostSignificantBits()).isEqualTo(kafka.value.topicId().getMostSignificantBits());
            assertThat(mine.value.topicId().leastSignificantBits()).isEqualTo(kafka.value.topicId().getLeastSignificantBits());
            return 1;
        }
    }

    /** A meta.properties file, as {@code MetaProperties.Builder(props).build()} reads it. */
    public static int assertMetaPropertiesMatchesKafka(Path file) {
        Outcome<org.apache.kafka.metadata.properties.MetaProperties> kafka = Outcome.of(() ->
                new org.apache.kafka.metadata.properties.MetaProperties.Builder(
                        org.apache.kafka.metadata.properties.PropertiesUtils.readPropertiesFile(file.toString())).build());
        try (ByteSource src = open(file)) {
            Outcome<MetaProperties> mine = Outcome.of(() -> MetaProperties.read(src));
            assertThat(mine.failed()).as("segscope refuses %s (%s) exactly when Kafka does (%s)", file, mine.error, kafka.error)
                    .isEqualTo(kafka.failed());
            if (kafka.failed()) {
                assertThat(mine.error).isInstanceOf(FormatException.class);
                return -1;
            }
            assertThat(mine.value.version()).isEqualTo(kafka.value.version().number());
            assertThat(mine.value.clusterId()).isEqualTo(kafka.value.clusterId());
            assertThat(mine.value.nodeId()).isEqualTo(kafka.value.nodeId());
            assertThat(mine.value.directoryId().map(KafkaUuid::toString))
                    .isEqualTo(kafka.value.directoryId().map(Object::toString));
            return 1;
        }
    }

    /** A .kafka_cleanshutdown file; Kafka reads an unusable one as "no epoch". */
    public static int assertCleanShutdownMatchesKafka(Path file) {
        if (!file.getFileName().toString().equals(CleanShutdown.FILE_NAME)) {
            throw new IllegalArgumentException("Kafka's handler only reads " + CleanShutdown.FILE_NAME);
        }
        java.util.OptionalLong kafka = new org.apache.kafka.storage.internals.checkpoint.CleanShutdownFileHandler(
                file.getParent().toString()).read();
        try (ByteSource src = open(file)) {
            Outcome<CleanShutdown> mine = Outcome.of(() -> CleanShutdown.read(src));
            assertThat(mine.failed()).as("segscope refuses %s (%s) exactly when Kafka does", file, mine.error)
                    .isEqualTo(kafka.isEmpty());
            if (kafka.isEmpty()) {
                assertThat(mine.error).isInstanceOf(FormatException.class);
                return -1;
            }
            assertThat(mine.value.brokerEpoch()).isEqualTo(kafka.getAsLong());
            return 1;
        }
    }
}
