package io.segscope.format.coordinator.group;

import static io.segscope.format.coordinator.Field.array;
import static io.segscope.format.coordinator.Field.field;
import static io.segscope.format.coordinator.Field.structs;
import static io.segscope.format.coordinator.FieldType.BYTES;
import static io.segscope.format.coordinator.FieldType.INT32;
import static io.segscope.format.coordinator.FieldType.STRING;
import static io.segscope.format.coordinator.StructSchema.schema;

import io.segscope.format.coordinator.Bytes;
import io.segscope.format.coordinator.EmbeddedProtocol;
import io.segscope.format.coordinator.MalformedException;
import io.segscope.format.coordinator.StructReader;
import io.segscope.format.coordinator.StructSchema;
import io.segscope.format.coordinator.StructValue;
import io.segscope.format.coordinator.Versions;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The consumer embedded protocol carried in classic group members' {@code subscription} and
 * {@code assignment} bytes when {@code protocolType} is {@code "consumer"} (docs/format.md 2.4):
 * an int16 version, then a non-flexible struct. Like Kafka's readers, a version above 3 is read
 * with the v3 layout (newer versions only append fields; trailing bytes are ignored) and a
 * version below 0 with the v0 layout; bytes that do not parse are kept as they are. Kafka 4.4.0's
 * DumpLogSegments is stricter above v3 (see {@link EmbeddedProtocol#dumpToolReadable()}).
 */
public final class ConsumerProtocol {
    private ConsumerProtocol() {
    }

    /** Versions of both schemas in kafka-clients 4.4.0 ({@code validVersions 0-3}, {@code flexibleVersions none}). */
    public static final Versions VERSIONS = Versions.parse("0-3");

    public static final StructSchema SUBSCRIPTION = subscription();
    public static final StructSchema ASSIGNMENT = assignment();

    private static StructSchema subscription() {
        StructSchema topicPartition = schema("TopicPartition",
                field("Topic", STRING, "1+"),
                array("Partitions", INT32, "1+"));
        return schema("ConsumerProtocolSubscription",
                array("Topics", STRING, "0+"),
                field("UserData", BYTES, "0+").nullable("0+").withDefault("null"),
                structs("OwnedPartitions", topicPartition, "1+").ignorable(),
                field("GenerationId", INT32, "2+").withDefault("-1").ignorable(),
                field("RackId", STRING, "3+").nullable("3+").withDefault("null").ignorable());
    }

    private static StructSchema assignment() {
        StructSchema topicPartition = schema("TopicPartition",
                field("Topic", STRING, "0+"),
                array("Partitions", INT32, "0+"));
        return schema("ConsumerProtocolAssignment",
                structs("AssignedPartitions", topicPartition, "0+"),
                field("UserData", BYTES, "0+").nullable("0+").withDefault("null"));
    }

    /**
     * Decodes one subscription or assignment; returns null when the bytes do not parse.
     */
    public static EmbeddedProtocol decode(StructSchema schema, Bytes raw) {
        byte[] a = raw.array();
        if (a.length < 2) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(a);
        short version = b.getShort(0);
        short layout = (short) Math.max(VERSIONS.lowest(), Math.min(version, VERSIONS.highest()));
        try {
            StructValue v = new StructReader().read(schema, layout, false, b, 2, a.length - 2, null);
            return new EmbeddedProtocol(version, v, raw, version <= VERSIONS.highest() || !hasTopicPartitions(v));
        } catch (MalformedException e) {
            return null;
        }
    }

    private static boolean hasTopicPartitions(StructValue v) {
        for (int i = 0; i < v.schema().fields().size(); i++) {
            if (v.schema().fields().get(i).elementType() == io.segscope.format.coordinator.FieldType.STRUCT
                    && v.get(i) instanceof List && !((List<?>) v.get(i)).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * For a GroupMetadataValue whose protocolType is {@code "consumer"}, replaces each member's
     * subscription and assignment bytes by their {@link EmbeddedProtocol} when they parse.
     */
    static StructValue decodeMembers(StructValue groupMetadataValue) {
        if (!"consumer".equals(groupMetadataValue.get("protocolType"))) {
            return groupMetadataValue;
        }
        int membersIndex = groupMetadataValue.schema().indexOf("members");
        List<?> members = (List<?>) groupMetadataValue.get(membersIndex);
        if (members == null || members.isEmpty()) {
            return groupMetadataValue;
        }
        List<Object> decoded = new ArrayList<>(members.size());
        for (Object m : members) {
            StructValue member = (StructValue) m;
            member = replace(member, "subscription", SUBSCRIPTION);
            member = replace(member, "assignment", ASSIGNMENT);
            decoded.add(member);
        }
        return groupMetadataValue.with(membersIndex, List.copyOf(decoded));
    }

    private static StructValue replace(StructValue member, String field, StructSchema schema) {
        int i = member.schema().indexOf(field);
        Object raw = member.get(i);
        if (!(raw instanceof Bytes)) {
            return member;
        }
        EmbeddedProtocol p = decode(schema, (Bytes) raw);
        return p == null ? member : member.with(i, p);
    }
}
