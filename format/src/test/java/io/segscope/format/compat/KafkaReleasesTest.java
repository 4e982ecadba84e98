package io.segscope.format.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.record.CompressionType;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;

/**
 * The batch-level facts of {@link KafkaReleases} (docs/format.md 1.6, 1.7), and its 4.4 line
 * against Kafka 4.4.0's own constants.
 */
class KafkaReleasesTest {
    @Test
    void everyLineFrom010To44InOrder() {
        List<String> lines = KafkaReleases.all().stream().map(ReleaseFormats::line).toList();
        assertThat(lines).containsExactly("0.10.0", "0.10.1", "0.10.2", "0.11.0", "1.0", "1.1", "2.0", "2.1", "2.2", "2.3",
                "2.4", "2.5", "2.6", "2.7", "2.8", "3.0", "3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8", "3.9",
                "4.0", "4.1", "4.2", "4.3", "4.4");
        for (ReleaseFormats r : KafkaReleases.all()) {
            assertThat(r.release()).startsWith(r.line() + ".");
        }
    }

    @Test
    void aFullVersionNamesItsLine() {
        assertThat(KafkaReleases.line("3.9.1").line()).isEqualTo("3.9");
        assertThat(KafkaReleases.line("0.10.2.1").line()).isEqualTo("0.10.2");
        assertThat(KafkaReleases.line("4.4").release()).isEqualTo("4.4.0");
        assertThat(KafkaReleases.line("0.9.0.1")).isNull();
        assertThat(KafkaReleases.line("3.10")).isNull();
    }

    @Test
    void magicCodecsAndDeleteHorizonsByLine() {
        assertThat(KafkaReleases.line("0.10.2").maxMagic()).isEqualTo(1);
        assertThat(KafkaReleases.line("0.11.0").maxMagic()).isEqualTo(2);
        assertThat(KafkaReleases.line("4.4").maxMagic()).isEqualTo(RecordBatch.CURRENT_MAGIC_VALUE);
        assertThat(KafkaReleases.line("2.0").reads(CompressionType.ZSTD)).isFalse();
        assertThat(KafkaReleases.line("2.1").reads(CompressionType.ZSTD)).isTrue();
        assertThat(KafkaReleases.line("0.10.0").codecs()).containsExactlyInAnyOrder(CompressionType.NONE, CompressionType.GZIP,
                CompressionType.SNAPPY, CompressionType.LZ4);
        assertThat(KafkaReleases.line("4.4").codecs()).containsExactlyInAnyOrder(CompressionType.values());
        assertThat(KafkaReleases.line("3.0").deleteHorizon()).isFalse();
        assertThat(KafkaReleases.line("3.1").deleteHorizon()).isTrue();
    }

    @Test
    void logsAppearWithTheirReleases() {
        assertThat(KafkaReleases.line("0.10.2").logs().keySet()).containsExactly(StateLog.CONSUMER_OFFSETS);
        assertThat(KafkaReleases.line("0.11.0").logs().keySet()).containsExactly(StateLog.CONSUMER_OFFSETS, StateLog.TRANSACTION_STATE);
        assertThat(KafkaReleases.line("2.8").logs().keySet())
                .containsExactly(StateLog.CONSUMER_OFFSETS, StateLog.TRANSACTION_STATE, StateLog.CLUSTER_METADATA);
        assertThat(KafkaReleases.line("4.0").logs().keySet()).containsExactly(StateLog.values());
    }

    @Test
    void controlTypesOf44AreKafka440s() {
        Map<Integer, String> kafka = new TreeMap<>();
        for (ControlRecordType t : ControlRecordType.values()) {
            if (t != ControlRecordType.UNKNOWN) {
                kafka.put((int) t.type(), t.name());
            }
        }
        assertThat(KafkaReleases.line("4.4").controlTypes()).isEqualTo(kafka);
        assertThat(KafkaReleases.line("2.8").controlTypes()).containsEntry(3, "LEADER_CHANGE");
        assertThat(KafkaReleases.line("3.0").controlTypes()).containsEntry(2, "LEADER_CHANGE").containsEntry(3, "SNAPSHOT_HEADER");
        assertThat(KafkaReleases.line("0.10.2").controlTypes()).isEmpty();
    }

    /** docs/format.md 2.2: OffsetCommitValue v4 (KIP-915) is read from 3.4.1, the backport, on; v3 from 2.1. */
    @Test
    void offsetCommitValueVersionsByLine() {
        assertThat(highestOffsetCommit("2.0")).isEqualTo(1);
        assertThat(highestOffsetCommit("2.1")).isEqualTo(3);
        assertThat(highestOffsetCommit("3.3")).isEqualTo(3);
        assertThat(highestOffsetCommit("3.4")).isEqualTo(4);
        assertThat(highestOffsetCommit("4.4")).isEqualTo(4);
        assertThat(KafkaReleases.line("3.3").log(StateLog.CONSUMER_OFFSETS).unknownType()).isEqualTo(LoadOutcome.FAILS);
        assertThat(KafkaReleases.line("3.4").log(StateLog.CONSUMER_OFFSETS).unknownType()).isEqualTo(LoadOutcome.SKIPS);
    }

    private static int highestOffsetCommit(String line) {
        return KafkaReleases.line(line).log(StateLog.CONSUMER_OFFSETS).record(1).highestValueVersion();
    }
}
