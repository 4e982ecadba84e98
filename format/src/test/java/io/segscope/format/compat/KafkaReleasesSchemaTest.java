package io.segscope.format.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.segscope.format.coordinator.KafkaSchemaFiles;
import io.segscope.format.coordinator.Versions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Pins {@link KafkaReleases} to the schemas vendored under {@code testdata/schemas}: for every release
 * line, the record types, names, value versions and flexible versions of each log in the table are
 * exactly those of the line's schema folder, no more and no fewer. A vendored schema that gains a
 * version or a type the table lacks fails here, and so does a table entry no schema backs.
 *
 * <p>JSON folders are read as Kafka's generator reads them: a {@code *Key.json} with an {@code apiKey}
 * is that record type, one without (4.0 and older) stands for every version of its
 * {@code validVersions} (the key version is the type); its value is the {@code *Value.json} of the
 * same name; {@code "type": "metadata"} files are KRaft records by {@code apiKey}. A
 * {@code versions.json} (0.10.0 to 2.7) lists each key version with its value versions.
 */
class KafkaReleasesSchemaTest {
    static final Path ROOT = KafkaSchemaFiles.SCHEMAS.getParent();
    /** Folders of kafka-4.4.0 that hold schemas of other kinds (control records, tiered storage). */
    private static final Set<String> NOT_STATE_LOGS = Set.of("kafka-clients", "kafka-storage");

    @TestFactory
    Stream<DynamicTest> everyLineMatchesItsSchemas() {
        return KafkaReleases.all().stream().map(r -> DynamicTest.dynamicTest(r.line() + " (" + r.schemas() + ")", () -> {
            Map<StateLog, Map<Integer, KnownRecord>> schemas = read(ROOT.resolve(r.schemas()));
            Map<StateLog, Map<Integer, KnownRecord>> table = new EnumMap<>(StateLog.class);
            r.logs().forEach((log, k) -> table.put(log, k.records()));
            assertThat(table.keySet()).as("%s: logs", r.line()).isEqualTo(schemas.keySet());
            for (StateLog log : schemas.keySet()) {
                assertThat(table.get(log)).as("%s %s", r.line(), log.topic).containsExactlyInAnyOrderEntriesOf(schemas.get(log));
            }
        }));
    }

    @Test
    void everyVendoredFolderIsALineOfTheTable() throws IOException {
        Set<String> used = new TreeSet<>();
        KafkaReleases.all().forEach(r -> used.add(r.schemas()));
        Set<String> folders = new TreeSet<>();
        try (Stream<Path> s = Files.list(ROOT)) {
            s.filter(Files::isDirectory).forEach(p -> folders.add(p.getFileName().toString()));
        }
        assertThat(used).isEqualTo(folders);
    }

    @Test
    void aLineSharesOnlyThePreviousLinesFolder() {
        List<ReleaseFormats> all = KafkaReleases.all();
        Set<String> seen = new TreeSet<>();
        for (int i = 0; i < all.size(); i++) {
            String f = all.get(i).schemas();
            if (i > 0 && f.equals(all.get(i - 1).schemas())) {
                continue;
            }
            assertThat(seen.add(f)).as("%s names %s, an older line's folder", all.get(i).line(), f).isTrue();
            assertThat(f).as("the folder of the line that introduces it").startsWith("kafka-" + all.get(i).line());
        }
    }

    @Test
    void theReadmeListsTheReleaseReadForEveryLine() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        for (ReleaseFormats r : KafkaReleases.all()) {
            assertThat(readme).contains("| " + r.line() + " | " + r.release() + " |");
        }
    }

    /** The record types per log that a schema folder holds. */
    static Map<StateLog, Map<Integer, KnownRecord>> read(Path dir) throws IOException {
        Path scala = dir.resolve("versions.json");
        return Files.exists(scala) ? readScala(scala) : readJson(dir);
    }

    @SuppressWarnings("unchecked")
    private static Map<StateLog, Map<Integer, KnownRecord>> readScala(Path file) throws IOException {
        Map<StateLog, Map<Integer, KnownRecord>> out = new EnumMap<>(StateLog.class);
        Map<String, Object> logs = (Map<String, Object>) KafkaSchemaFiles.read(file).get("logs");
        for (Map.Entry<String, Object> e : logs.entrySet()) {
            StateLog log = StateLog.forTopic(e.getKey());
            assertThat(log).as(e.getKey()).isNotNull();
            for (Map<String, Object> r : (List<Map<String, Object>>) ((Map<String, Object>) e.getValue()).get("records")) {
                int type = ((Number) r.get("keyVersion")).intValue();
                out.computeIfAbsent(log, l -> new TreeMap<>()).put(type, new KnownRecord(type, (String) r.get("record"),
                        Versions.parse((String) r.get("valueVersions")), Versions.NONE));
            }
        }
        return out;
    }

    private static Map<StateLog, Map<Integer, KnownRecord>> readJson(Path dir) throws IOException {
        Map<StateLog, Map<Integer, KnownRecord>> out = new EnumMap<>(StateLog.class);
        List<Path> files = new ArrayList<>();
        try (Stream<Path> jars = Files.list(dir)) {
            for (Path jar : jars.filter(Files::isDirectory).sorted().toList()) {
                if (NOT_STATE_LOGS.contains(jar.getFileName().toString())) {
                    continue;
                }
                try (Stream<Path> f = Files.list(jar)) {
                    f.filter(p -> p.toString().endsWith(".json")).sorted().forEach(files::add);
                }
            }
        }
        for (Path f : files) {
            Map<String, Object> json = KafkaSchemaFiles.read(f);
            String name = (String) json.get("name");
            if ("metadata".equals(json.get("type"))) {
                int type = ((Number) json.get("apiKey")).intValue();
                put(out, StateLog.CLUSTER_METADATA, new KnownRecord(type, name, versions(json, "validVersions"),
                        versions(json, "flexibleVersions")));
            } else if (name.endsWith("Key")) {
                String record = name.substring(0, name.length() - 3);
                Map<String, Object> value = KafkaSchemaFiles.read(f.resolveSibling(record + "Value.json"));
                StateLog log = record.equals("TransactionLog") ? StateLog.TRANSACTION_STATE
                        : record.startsWith("ShareSnapshot") || record.startsWith("ShareUpdate") ? StateLog.SHARE_GROUP_STATE
                        : StateLog.CONSUMER_OFFSETS;
                Versions keys = json.containsKey("apiKey")
                        ? Versions.parse(json.get("apiKey").toString())
                        : versions(json, "validVersions");
                for (int type = keys.lowest(); type <= keys.highest(); type++) {
                    put(out, log, new KnownRecord(type, record, versions(value, "validVersions"), versions(value, "flexibleVersions")));
                }
            } else {
                assertThat(name).as("%s: a key, a value or a metadata record", f).endsWith("Value");
            }
        }
        return out;
    }

    private static void put(Map<StateLog, Map<Integer, KnownRecord>> out, StateLog log, KnownRecord r) {
        KnownRecord before = out.computeIfAbsent(log, l -> new TreeMap<>()).put(r.type(), r);
        assertThat(before).as("%s type %d defined twice", log.topic, r.type()).isNull();
    }

    private static Versions versions(Map<String, Object> json, String field) {
        Object v = json.get(field);
        return Versions.parse(v == null ? "none" : v.toString());
    }
}
