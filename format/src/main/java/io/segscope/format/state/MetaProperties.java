package io.segscope.format.state;

import io.segscope.format.error.FormatException;
import io.segscope.format.error.Violation;
import io.segscope.format.io.ByteSource;

import io.segscope.format.io.KafkaUuid;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A log dir's {@code meta.properties} (docs/format.md 1.1): Java properties text, read with
 * {@link Properties#load(java.io.InputStream)} as Kafka reads it, then checked with Kafka's
 * {@code MetaProperties.Builder} rules:
 *
 * <ul>
 *   <li>{@code version} (trimmed; absent means 0) must be 0 or 1;</li>
 *   <li>v0 (ZooKeeper era): {@code broker.id} optional, an int;</li>
 *   <li>v1 (KRaft): {@code node.id} required, an int, and {@code cluster.id} required;</li>
 *   <li>{@code directory.id}, when present, a Kafka Uuid.</li>
 * </ul>
 *
 * @param nodeId {@code broker.id} for v0, {@code node.id} for v1
 * @param properties every key and value in the file
 */
public record MetaProperties(int version, Optional<String> clusterId, OptionalInt nodeId,
                             Optional<KafkaUuid> directoryId, Map<String, String> properties) {
    public static final String FILE_NAME = "meta.properties";

    /**
     * @throws FormatException {@code properties-version} for a version other than 0 or 1,
     *     {@code properties-format} for a missing required key or a value that does not parse,
     *     {@code uuid-format} for a bad {@code directory.id}
     */
    public static MetaProperties read(ByteSource source) {
        String file = source.name();
        Properties props = new Properties();
        try {
            props.load(new ByteArrayInputStream(SmallFiles.readAll(source)));
        } catch (IOException | IllegalArgumentException e) {
            throw FormatException.at(Violation.PROPERTIES_FORMAT, file, FormatException.UNKNOWN)
                    .expected("Java properties text").note(String.valueOf(e.getMessage())).build(e);
        }
        String versionText = props.getProperty("version", "0");
        int version;
        try {
            version = Integer.parseInt(versionText.trim());
        } catch (NumberFormatException e) {
            version = -1;
        }
        if (version != 0 && version != 1) {
            throw FormatException.at(Violation.PROPERTIES_VERSION, file, FormatException.UNKNOWN).field("version")
                    .expected("0 or 1").actual(versionText).build();
        }
        OptionalInt nodeId = OptionalInt.empty();
        if (version == 0) {
            if (props.containsKey("broker.id")) {
                nodeId = OptionalInt.of(requiredInt(props, "broker.id", file));
            }
        } else {
            nodeId = OptionalInt.of(requiredInt(props, "node.id", file));
        }
        Optional<String> clusterId = Optional.ofNullable(props.getProperty("cluster.id"));
        Optional<KafkaUuid> directoryId = Optional.empty();
        String dir = props.getProperty("directory.id");
        if (dir != null) {
            try {
                directoryId = Optional.of(KafkaUuid.parse(dir));
            } catch (IllegalArgumentException e) {
                throw FormatException.at(Violation.UUID_FORMAT, file, FormatException.UNKNOWN).field("directory.id")
                        .expected("a Kafka Uuid").actual(dir).note(e.getMessage()).build();
            }
        }
        if (version == 1 && clusterId.isEmpty()) {
            throw FormatException.at(Violation.PROPERTIES_FORMAT, file, FormatException.UNKNOWN).field("cluster.id")
                    .expected("present in version 1").actual("absent").build();
        }
        Map<String, String> all = new TreeMap<>();
        for (String key : props.stringPropertyNames()) {
            all.put(key, props.getProperty(key));
        }
        return new MetaProperties(version, clusterId, nodeId, directoryId, Map.copyOf(all));
    }

    private static int requiredInt(Properties props, String key, String file) {
        String value = props.getProperty(key);
        if (value == null) {
            throw FormatException.at(Violation.PROPERTIES_FORMAT, file, FormatException.UNKNOWN).field(key)
                    .expected("present").actual("absent").build();
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw FormatException.at(Violation.PROPERTIES_FORMAT, file, FormatException.UNKNOWN).field(key)
                    .expected("a base-10 int32").actual(value).build();
        }
    }
}
