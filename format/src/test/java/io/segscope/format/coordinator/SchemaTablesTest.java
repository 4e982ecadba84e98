package io.segscope.format.coordinator;

import static io.segscope.format.coordinator.KafkaSchemaFiles.SCHEMAS;
import static io.segscope.format.coordinator.KafkaSchemaFiles.compareStruct;
import static io.segscope.format.coordinator.KafkaSchemaFiles.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.group.ConsumerProtocol;
import io.segscope.format.coordinator.group.GroupCoordinatorSchemas;
import io.segscope.format.coordinator.share.ShareCoordinatorSchemas;
import io.segscope.format.coordinator.txn.TransactionLogSchemas;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Pins segscope's schema tables to Kafka 4.4.0: every vendored {@code common/message/*.json}
 * (testdata/schemas/kafka-4.4.0) is compared field by field (name, type, versions, nullable
 * versions, tag, tagged versions, default, ignorable, nested structs) with the tables, and every
 * table of a 4.4.0 type must have its file. A Kafka release that changes a schema fails here.
 */
class SchemaTablesTest {
    @Test
    void groupCoordinatorMatchesKafka() throws IOException {
        checkTopic("kafka-group-coordinator", GroupCoordinatorSchemas.SCHEMAS, 22);
    }

    @Test
    void transactionCoordinatorMatchesKafka() throws IOException {
        checkTopic("kafka-transaction-coordinator", TransactionLogSchemas.SCHEMAS, 1);
    }

    @Test
    void shareCoordinatorMatchesKafka() throws IOException {
        checkTopic("kafka-share-coordinator", ShareCoordinatorSchemas.SCHEMAS, 2);
    }

    @Test
    void consumerProtocolMatchesKafka() throws IOException {
        for (StructSchema s : List.of(ConsumerProtocol.SUBSCRIPTION, ConsumerProtocol.ASSIGNMENT)) {
            Map<String, Object> json = read(SCHEMAS.resolve("kafka-clients/" + s.name() + ".json"));
            assertThat(json.get("validVersions")).isEqualTo(ConsumerProtocol.VERSIONS.toString());
            assertThat(json.get("flexibleVersions")).isEqualTo("none");
            compareStruct(s.name(), s, json);
        }
    }

    private void checkTopic(String dir, SchemaSet set, int expectedTypes) throws IOException {
        TreeSet<Integer> typesInJars = new TreeSet<>();
        List<Path> keys;
        try (Stream<Path> files = Files.list(SCHEMAS.resolve(dir))) {
            keys = files.filter(p -> p.getFileName().toString().endsWith("Key.json")).sorted().toList();
        }
        for (Path keyFile : keys) {
            Map<String, Object> key = read(keyFile);
            String name = (String) key.get("name");
            Map<String, Object> value = read(keyFile.resolveSibling(name.substring(0, name.length() - 3) + "Value.json"));
            int type = ((Number) key.get("apiKey")).intValue();
            typesInJars.add(type);
            RecordSchema table = set.forType(type);
            assertThat(table).as("table for %s type %d", dir, type).isNotNull();
            assertThat(table.inKafka440()).isTrue();
            assertThat(value.get("apiKey")).isEqualTo(key.get("apiKey"));
            assertThat(key.get("type")).isEqualTo("coordinator-key");
            assertThat(value.get("type")).isEqualTo("coordinator-value");
            assertThat(key.get("validVersions")).as(name).isEqualTo("0");
            assertThat(key.get("flexibleVersions")).as(name).isEqualTo("none");
            assertThat(table.name() + "Key").isEqualTo(name);
            assertThat(table.valueVersions()).as(name).isEqualTo(Versions.parse((String) value.get("validVersions")));
            assertThat(table.flexibleVersions()).as(name).isEqualTo(Versions.parse((String) value.get("flexibleVersions")));
            compareStruct(name, table.key(), key);
            compareStruct((String) value.get("name"), table.value(), value);
        }
        TreeSet<Integer> typesInTables = new TreeSet<>();
        for (RecordSchema r : set.records()) {
            if (r.inKafka440()) {
                typesInTables.add((int) r.type());
            }
        }
        assertThat(typesInTables).isEqualTo(typesInJars);
        assertThat(typesInJars).hasSize(expectedTypes);
    }
}
