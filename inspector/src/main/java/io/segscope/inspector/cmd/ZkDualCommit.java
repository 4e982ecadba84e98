package io.segscope.inspector.cmd;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.segscope.format.zookeeper.ZkKafka;
import io.segscope.inspector.Segscope;
import io.segscope.inspector.output.Times;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code offsets --zookeeper}: the offsets of {@code __consumer_offsets} beside those old
 * consumers committed to ZooKeeper, per group, topic and partition, with the one a Kafka 0.8.2
 * consumer with {@code dual.commit.enabled} fetches (the larger of the two, docs/format.md 5.1).
 */
final class ZkDualCommit {
    /** One committed offset of __consumer_offsets. */
    record KafkaRow(String group, String topic, int partition, long offset, long commitTimestamp) {
    }

    /** A joined row; {@code zk} or {@code kafka} null when that side has none. */
    record Joined(String group, String topic, int partition, ZkKafka.Offset zk, KafkaRow kafka) {
        Long zkOffset() {
            return zk == null ? null : zk.offset();
        }

        Long fetched() {
            Long z = zkOffset();
            if (kafka == null) {
                return z;
            }
            return z == null ? kafka.offset() : Math.max(z, kafka.offset());
        }

        String status() {
            if (kafka == null) {
                return "zookeeper only";
            }
            if (zk == null || zkOffset() == null) {
                return "kafka only";
            }
            long z = zkOffset();
            return z == kafka.offset() ? "equal" : z < kafka.offset() ? "zookeeper behind" : "zookeeper ahead";
        }
    }

    private ZkDualCommit() {
    }

    /**
     * Prints the joined rows.
     *
     * @return an exit code when the ZooKeeper side could not be read, else null
     */
    static Integer print(CommandLine cl, Path zkDir, OffsetsCommand.Selection sel, List<KafkaRow> kafkaRows, String format,
                         PrintWriter out, PrintWriter err) throws IOException {
        ZkSource source = new ZkSource();
        ZkSource.Restored restored = source.restore(cl, "offsets", List.of(zkDir), ZkKafka.PATHS, err);
        if (restored == null) {
            return Segscope.EXIT_IO;
        }
        Map<String, Joined> rows = new TreeMap<>();
        for (ZkKafka.Offset o : ZkKafka.read(restored.result().tree()).offsets()) {
            if (o.partitionNumber() < 0 || !sel.group(o.group()) || !sel.topic(o.topic())) {
                continue;
            }
            rows.put(key(o.group(), o.topic(), o.partitionNumber()), new Joined(o.group(), o.topic(), o.partitionNumber(), o, null));
        }
        for (KafkaRow k : kafkaRows) {
            String key = key(k.group(), k.topic(), k.partition());
            Joined z = rows.get(key);
            rows.put(key, new Joined(k.group(), k.topic(), k.partition(), z == null ? null : z.zk(), k));
        }
        Map<String, String> groupStatus = groupStatus(rows.values());
        switch (format) {
            case "csv" -> {
                for (Joined j : rows.values()) {
                    if (j.fetched() != null) {
                        out.print(OffsetsCommand.csvField(j.group()) + "," + OffsetsCommand.csvField(j.topic()) + "," + j.partition()
                                + "," + j.fetched() + "\n");
                    }
                }
            }
            case "jsonl" -> {
                JsonGenerator json = new JsonFactory().createGenerator(out);
                json.setRootValueSeparator(null);
                for (Joined j : rows.values()) {
                    json.writeStartObject();
                    json.writeStringField("group", j.group());
                    json.writeStringField("topic", j.topic());
                    json.writeNumberField("partition", j.partition());
                    nullable(json, "zookeeperOffset", j.zkOffset());
                    nullable(json, "zookeeperMtime", j.zk() == null ? null : j.zk().mtime());
                    nullable(json, "kafkaOffset", j.kafka() == null ? null : j.kafka().offset());
                    nullable(json, "kafkaCommitTimestamp", j.kafka() == null ? null : j.kafka().commitTimestamp());
                    nullable(json, "dualCommitOffset", j.fetched());
                    json.writeStringField("status", j.status());
                    json.writeStringField("groupStatus", groupStatus.get(j.group()));
                    json.writeEndObject();
                    json.flush();
                    out.print('\n');
                }
            }
            default -> {
                Table t = new Table("GROUP", "TOPIC", "PARTITION", "ZOOKEEPER", "ZK-MTIME", "KAFKA", "KAFKA-COMMIT-TIME", "DUAL-COMMIT",
                        "STATUS", "GROUP-STATUS");
                for (Joined j : rows.values()) {
                    t.add(Table.cell(j.group()), Table.cell(j.topic()), Integer.toString(j.partition()),
                            j.zk() == null ? "-" : j.zkOffset() == null ? Table.cell(String.valueOf(j.zk().value())) : Long.toString(j.zkOffset()),
                            j.zk() == null ? "-" : Times.iso(j.zk().mtime()),
                            j.kafka() == null ? "-" : Long.toString(j.kafka().offset()),
                            j.kafka() == null ? "-" : Times.iso(j.kafka().commitTimestamp()),
                            j.fetched() == null ? "-" : Long.toString(j.fetched()), j.status(), groupStatus.get(j.group()));
                }
                if (t.size() > 0) {
                    t.print(out);
                }
            }
        }
        out.flush();
        if (rows.isEmpty()) {
            err.print("offsets: no offset matched in __consumer_offsets or under /consumers\n");
        }
        return restored.errors() ? Segscope.EXIT_FINDINGS : null;
    }

    /**
     * Per group: {@code both}, {@code zookeeper only}, {@code kafka only}, or {@code zookeeper stopped}
     * (its ZooKeeper offsets are behind Kafka's, none ahead, and older than its last Kafka commit:
     * dual commit was turned off, the migration finished).
     */
    static Map<String, String> groupStatus(Iterable<Joined> rows) {
        Map<String, List<Joined>> byGroup = new TreeMap<>();
        for (Joined j : rows) {
            byGroup.computeIfAbsent(j.group(), g -> new ArrayList<>()).add(j);
        }
        Map<String, String> out = new TreeMap<>();
        byGroup.forEach((g, list) -> {
            boolean zk = list.stream().anyMatch(j -> j.zk() != null);
            boolean kafka = list.stream().anyMatch(j -> j.kafka() != null);
            String status = zk && kafka ? "both" : zk ? "zookeeper only" : "kafka only";
            if (zk && kafka) {
                boolean behind = list.stream().anyMatch(j -> j.status().equals("zookeeper behind"));
                boolean ahead = list.stream().anyMatch(j -> j.status().equals("zookeeper ahead"));
                long lastZk = list.stream().filter(j -> j.zk() != null).mapToLong(j -> j.zk().mtime()).max().orElse(Long.MIN_VALUE);
                long lastKafka = list.stream().filter(j -> j.kafka() != null).mapToLong(j -> j.kafka().commitTimestamp()).max()
                        .orElse(Long.MIN_VALUE);
                if (behind && !ahead && lastZk < lastKafka) {
                    status = "zookeeper stopped";
                }
            }
            out.put(g, status);
        });
        return out;
    }

    private static String key(String group, String topic, int partition) {
        return group + "\u0000" + topic + "\u0000" + String.format("%010d", partition);
    }

    private static void nullable(JsonGenerator json, String name, Long v) throws IOException {
        if (v == null) {
            json.writeNullField(name);
        } else {
            json.writeNumberField(name, v);
        }
    }
}
