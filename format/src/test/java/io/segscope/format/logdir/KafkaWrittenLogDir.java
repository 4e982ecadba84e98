package io.segscope.format.logdir;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.properties.MetaProperties;
import org.apache.kafka.metadata.properties.MetaPropertiesVersion;
import org.apache.kafka.metadata.properties.PropertiesUtils;
import org.apache.kafka.server.common.RequestLocal;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.checkpoint.CleanShutdownFileHandler;
import org.apache.kafka.storage.internals.checkpoint.OffsetCheckpointFile;
import org.apache.kafka.storage.internals.log.AppendOrigin;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.apache.kafka.storage.internals.log.UnifiedLog;
import org.apache.kafka.storage.internals.log.VerificationGuard;
import org.apache.kafka.storage.log.metrics.BrokerTopicStats;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A log dir written by Kafka 4.4.0's own {@code UnifiedLog} (no broker): a partition with several
 * rolled segments, sparse offset and time indexes, aborted transactions (so a {@code .txnindex}),
 * producer snapshots, leader epochs and a topic id; a copy of it taken while the log was still
 * open (the active segment's indexes preallocated with their zero tail, as after a crash); and
 * the root files Kafka writes (meta.properties, offset checkpoints, .kafka_cleanshutdown).
 */
final class KafkaWrittenLogDir {
    static final long PRODUCER_ID = 4242L;
    static final long TXN_PRODUCER_ID = 777L;

    private KafkaWrittenLogDir() {
    }

    static Path create(Path root) throws Exception {
        Path partition = Files.createDirectories(root.resolve("orders-0"));
        KafkaScheduler scheduler = new KafkaScheduler(1);
        scheduler.startup();
        LogConfig config = new LogConfig(Map.of("index.interval.bytes", "200", "segment.index.bytes", "4096"));
        UnifiedLog log = UnifiedLog.create(partition.toFile(), config, 0L, 0L, scheduler, new BrokerTopicStats(),
                Time.SYSTEM, 60_000, new ProducerStateManagerConfig(86_400_000, false), 600_000,
                new LogDirFailureChannel(1), true, Optional.empty());
        log.assignTopicId(Uuid.randomUuid());
        long ts = 1_764_460_800_000L;
        int seq = 0;
        int txnSeq = 0;
        short epoch = 0;
        int leaderEpoch = 0;
        for (int segment = 0; segment < 4; segment++) {
            for (int batch = 0; batch < 12; batch++) {
                SimpleRecord[] records = new SimpleRecord[3];
                for (int r = 0; r < records.length; r++) {
                    records[r] = new SimpleRecord(ts += 7, ("k" + r).getBytes(StandardCharsets.UTF_8),
                            ("value-" + segment + "-" + batch + "-" + r + "-padding-padding-padding").getBytes(StandardCharsets.UTF_8));
                }
                log.appendAsLeader(MemoryRecords.withIdempotentRecords(Compression.NONE, PRODUCER_ID, epoch, seq, records), leaderEpoch);
                seq += records.length;
                if (batch % 5 == 4) {   // a transaction that is aborted
                    log.appendAsLeader(MemoryRecords.withTransactionalRecords(Compression.NONE, TXN_PRODUCER_ID, (short) 0,
                            txnSeq++, new SimpleRecord(ts += 3, "t".getBytes(StandardCharsets.UTF_8))), leaderEpoch);
                    log.appendAsLeader(MemoryRecords.withEndTransactionMarker(ts += 1, TXN_PRODUCER_ID, (short) 0,
                            new EndTransactionMarker(ControlRecordType.ABORT, 0)), leaderEpoch, AppendOrigin.COORDINATOR,
                            RequestLocal.noCaching(), VerificationGuard.SENTINEL, (short) 0);
                }
            }
            if (segment == 1) {
                leaderEpoch = 3;
            }
            if (segment < 3) {
                log.roll();
            }
        }
        log.updateHighWatermark(log.logEndOffset());
        log.flush(false);
        log.partitionMetadataFile().ifPresent(f -> f.maybeFlush());
        // A copy while the log is open: what a SIGKILLed broker leaves (preallocated active indexes).
        copy(partition, Files.createDirectories(root.resolve("orders-1")));
        long end = log.logEndOffset();
        log.prepareActiveSegmentForClose();   // what LogManager does at a clean shutdown: trims the indexes
        log.close();
        scheduler.shutdown();

        PropertiesUtils.writePropertiesFile(new MetaProperties.Builder().setVersion(MetaPropertiesVersion.V1)
                .setClusterId("MkU3OEVBNTcwNTJENDM2Qg").setNodeId(1).setDirectoryId(Uuid.randomUuid()).build().toProperties(),
                root.resolve("meta.properties").toString(), false);
        Map<TopicPartition, Long> offsets = Map.of(new TopicPartition("orders", 0), end, new TopicPartition("orders", 1), end);
        for (String name : new String[] {"recovery-point-offset-checkpoint", "log-start-offset-checkpoint",
                "replication-offset-checkpoint"}) {
            new OffsetCheckpointFile(root.resolve(name).toFile(), new LogDirFailureChannel(1)).write(offsets);
        }
        new OffsetCheckpointFile(root.resolve("cleaner-offset-checkpoint").toFile(), new LogDirFailureChannel(1)).write(Map.of());
        new CleanShutdownFileHandler(root.toString()).write(17L);
        return root;
    }

    private static void copy(Path from, Path to) {
        try (Stream<Path> s = Files.list(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Files.copy(p, to.resolve(p.getFileName().toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
