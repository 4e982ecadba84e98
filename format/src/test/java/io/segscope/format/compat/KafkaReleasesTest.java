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

    /**
     * metadata.version's latest production and highest known level by line, read from each line's
     * kafka-server-common MetadataVersion (3.3.2, 3.4.1, 3.5.2, 3.6.2, 3.7.2, 3.8.1, 3.9.1, 4.0.1,
     * 4.1.1, 4.2.0, 4.3.0, 4.4.0; KafkaReleasesOracleTest checks 3.3, 3.9 and 4.4 against the jars).
     */
    @Test
    void metadataVersionByLine() {
        Map<String, String> levels = new TreeMap<>();
        for (ReleaseFormats r : KafkaReleases.all()) {
            FeatureSupport f = r.feature("metadata.version");
            if (f != null) {
                levels.put(r.line(), f.production() + "/" + f.known());
            }
        }
        assertThat(levels).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(Map.entry("3.3", "7/7"), Map.entry("3.4", "8/8"),
                Map.entry("3.5", "11/11"), Map.entry("3.6", "14/14"), Map.entry("3.7", "19/20"), Map.entry("3.8", "20/21"),
                Map.entry("3.9", "21/23"), Map.entry("4.0", "25/26"), Map.entry("4.1", "27/29"), Map.entry("4.2", "29/30"),
                Map.entry("4.3", "30/31"), Map.entry("4.4", "33/34")));
        assertThat(KafkaReleases.line("4.0").features().keySet()).containsExactly("eligible.leader.replicas.version",
                "group.version", "kraft.version", "metadata.version", "transaction.version");
        assertThat(KafkaReleases.line("4.1").feature("streams.version")).isEqualTo(new FeatureSupport("streams.version", (short) 0, (short) 1));
        assertThat(KafkaReleases.line("4.4").feature("share.version").production()).isEqualTo((short) 2);
        assertThat(KafkaReleases.metadataVersionLabel(33)).isEqualTo("4.4-IV2 (level 33)");
        assertThat(KafkaReleases.metadataVersionLabel(40)).isEqualTo("level 40");
    }

    /** A finalized level above what a line supports blocks it; unknown, unstable and absent features each say why. */
    @Test
    void finalizedFeaturesBlockTheLinesThatDoNotSupportThem() {
        assertThat(Compatibility.featureBlocker(KafkaReleases.line("4.3"), "metadata.version", (short) 33))
                .isEqualTo("metadata.version 4.4-IV2 (level 33) is unknown to 4.3: Kafka 4.3 knows metadata.version up to 4.4-IV0"
                        + " (level 31) and supports up to 4.3-IV0 (level 30), and its controllers and brokers refuse a finalized level above it");
        assertThat(Compatibility.featureBlocker(KafkaReleases.line("4.3"), "metadata.version", (short) 31))
                .startsWith("metadata.version 4.4-IV0 (level 31) is above 4.3's latest production level");
        assertThat(Compatibility.featureBlocker(KafkaReleases.line("4.3"), "metadata.version", (short) 30)).isNull();
        assertThat(Compatibility.featureBlocker(KafkaReleases.line("4.4"), "metadata.version", (short) 33)).isNull();
        assertThat(Compatibility.featureBlocker(KafkaReleases.line("3.6"), "metadata.version", (short) 15))
                .startsWith("metadata.version 3.7-IV0 (level 15) is unknown to 3.6: Kafka 3.6 knows metadata.version up to 3.6-IV2 (level 14),");
        assertThat(Compatibility.featureBlocker(KafkaReleases.line("3.2"), "metadata.version", (short) 7))
                .isEqualTo("metadata.version 3.3-IV3 (level 7) is unknown to 3.2: Kafka 3.2 has no metadata.version (from 3.3, KIP-778)");
        assertThat(Compatibility.featureBlocker(KafkaReleases.line("4.0"), "streams.version", (short) 1))
                .startsWith("streams.version 1 is unknown to 4.0: Kafka 4.0 does not have the feature");
        assertThat(Compatibility.featureBlocker(KafkaReleases.line("4.0"), "streams.version", (short) 0)).isNull();
        assertThat(Compatibility.featureBlocker(KafkaReleases.line("4.3"), "share.version", (short) 2))
                .startsWith("share.version 2 is unknown to 4.3: Kafka 4.3 knows share.version up to level 1,");
        assertThat(Compatibility.featureBlocker(KafkaReleases.line("3.9"), "transaction.version", (short) 2))
                .startsWith("transaction.version 2 is above 3.9's latest production level: Kafka 3.9 supports transaction.version up to level 0");
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
