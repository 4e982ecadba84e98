package io.segscope.format.coordinator;

import io.segscope.format.io.KafkaUuid;
import java.util.function.IntFunction;

/**
 * One field of a coordinator record schema, as Kafka's JSON schema declares it: name, type,
 * versions, nullable versions, tag and tagged versions, default and ignorable
 * (docs/format.md 2.6, 2.7), and for an enumeration the names its values print as. Immutable; the builder-style methods return a copy.
 *
 * <p>{@link #defaultSpec()} keeps the schema's {@code "default"} text as written ({@code null}
 * when the schema has none, or has a JSON {@code null}, which Kafka's generator treats as "no
 * default": 0, "", empty array, zero uuid, a freshly built struct). The text {@code "null"}
 * means a null default.
 */
public final class Field {
    /** Marker for "no tag". */
    public static final int NO_TAG = -1;

    private final String name;
    private final String jsonName;
    private final FieldType type;
    private final FieldType elementType;
    private final StructSchema struct;
    private final Versions versions;
    private final Versions nullableVersions;
    private final int tag;
    private final Versions taggedVersions;
    private final String defaultSpec;
    private final boolean ignorable;
    private final Object defaultValue;
    private final IntFunction<String> valueNames;
    // the last path built by pathUnder: immutable, so that a racy read sees a whole one
    private PathUnder lastPath;

    private record PathUnder(String parent, String path) {
    }

    private Field(String name, FieldType type, FieldType elementType, StructSchema struct, Versions versions,
                  Versions nullableVersions, int tag, Versions taggedVersions, String defaultSpec, boolean ignorable,
                  IntFunction<String> valueNames) {
        this.name = name;
        this.jsonName = Character.toLowerCase(name.charAt(0)) + name.substring(1);
        this.type = type;
        this.elementType = elementType;
        this.struct = struct;
        this.versions = versions;
        this.nullableVersions = nullableVersions;
        this.tag = tag;
        this.taggedVersions = taggedVersions;
        this.defaultSpec = defaultSpec;
        this.ignorable = ignorable;
        this.defaultValue = computeDefault();
        this.valueNames = valueNames;
    }

    /** A scalar field (not struct, not array). */
    public static Field field(String name, FieldType type, String versions) {
        return new Field(name, type, null, null, Versions.parse(versions), Versions.NONE, NO_TAG, Versions.NONE, null, false, null);
    }

    /** An array of scalars. */
    public static Field array(String name, FieldType elementType, String versions) {
        return new Field(name, FieldType.ARRAY, elementType, null, Versions.parse(versions), Versions.NONE, NO_TAG, Versions.NONE, null, false, null);
    }

    /** An array of structs. */
    public static Field structs(String name, StructSchema element, String versions) {
        return new Field(name, FieldType.ARRAY, FieldType.STRUCT, element, Versions.parse(versions), Versions.NONE, NO_TAG, Versions.NONE, null, false, null);
    }

    /** A nested struct. */
    public static Field struct(String name, StructSchema struct, String versions) {
        return new Field(name, FieldType.STRUCT, null, struct, Versions.parse(versions), Versions.NONE, NO_TAG, Versions.NONE, null, false, null);
    }

    public Field nullable(String spec) {
        return new Field(name, type, elementType, struct, versions, Versions.parse(spec), tag, taggedVersions, defaultSpec, ignorable, valueNames);
    }

    public Field tagged(int newTag, String spec) {
        return new Field(name, type, elementType, struct, versions, nullableVersions, newTag, Versions.parse(spec), defaultSpec, ignorable, valueNames);
    }

    public Field withDefault(String spec) {
        return new Field(name, type, elementType, struct, versions, nullableVersions, tag, taggedVersions, spec, ignorable, valueNames);
    }

    public Field ignorable() {
        return new Field(name, type, elementType, struct, versions, nullableVersions, tag, taggedVersions, defaultSpec, true, valueNames);
    }

    /**
     * The same field whose integer values have names that Kafka prints instead of the number
     * (e.g. a transaction state); {@code names} gives the text for any value.
     */
    public Field named(IntFunction<String> names) {
        return new Field(name, type, elementType, struct, versions, nullableVersions, tag, taggedVersions, defaultSpec, ignorable, names);
    }

    /** Whether the field's values print as names ({@link #valueName}). */
    public boolean hasValueNames() { return valueNames != null; }

    /** The name printed for an integer value of a {@link #named} field. */
    public String valueName(Object value) {
        return valueNames.apply(((Number) value).intValue());
    }

    /** The schema name, e.g. {@code GroupId} or {@code group}. */
    public String name() { return name; }
    /** The name Kafka's JsonConverter prints: the schema name with its first letter lower-cased. */
    public String jsonName() { return jsonName; }
    public FieldType type() { return type; }
    /** Element type of an array, else null. */
    public FieldType elementType() { return elementType; }
    /** The struct of a struct field or of a struct array, else null. */
    public StructSchema struct() { return struct; }
    public Versions versions() { return versions; }
    public Versions nullableVersions() { return nullableVersions; }
    public int tag() { return tag; }
    public Versions taggedVersions() { return taggedVersions; }
    public String defaultSpec() { return defaultSpec; }
    public boolean isIgnorable() { return ignorable; }

    public boolean isTagged() { return tag != NO_TAG; }

    /**
     * {@code parent + "." + jsonName()}, the path readers report in errors; the last one is kept,
     * so that reading the same field at the same place again builds no string.
     */
    public String pathUnder(String parent) {
        PathUnder last = lastPath;
        if (last != null && last.parent().equals(parent)) {
            return last.path();
        }
        String path = parent + "." + jsonName;
        lastPath = new PathUnder(parent, path);
        return path;
    }

    /** Whether the field is in the body (not the tagged section) at this version. */
    public boolean inBody(int version) {
        return versions.contains(version) && !taggedVersions.contains(version);
    }

    /** The value this field has when a reader does not find it (absent version or missing tag). */
    public Object defaultValue() {
        return defaultValue;
    }

    private Object computeDefault() {
        if ("null".equals(defaultSpec)) {
            return null;
        }
        switch (type) {
            case BOOL: return Boolean.valueOf("true".equals(defaultSpec));
            case INT8: return Byte.valueOf(defaultSpec == null ? 0 : (byte) Long.decode(defaultSpec).longValue());
            case INT16: return Short.valueOf(defaultSpec == null ? 0 : (short) Long.decode(defaultSpec).longValue());
            case UINT16:
            case INT32: return Integer.valueOf(defaultSpec == null ? 0 : (int) Long.decode(defaultSpec).longValue());
            case INT64: return Long.valueOf(defaultSpec == null ? 0L : Long.decode(defaultSpec));
            case FLOAT64: return Double.valueOf(defaultSpec == null ? 0.0 : Double.parseDouble(defaultSpec));
            case UUID: return KafkaUuid.ZERO;
            case STRING: return defaultSpec == null ? "" : defaultSpec;
            case BYTES: return Bytes.EMPTY;
            case ARRAY: return java.util.List.of();
            case STRUCT: return struct.defaults();
            default: throw new IllegalStateException(type.name());
        }
    }

    /** The type as Kafka's schema spells it: {@code int32}, {@code []int32}, {@code []TopicPartition}, {@code Endpoint}. */
    public String schemaType() {
        if (type == FieldType.ARRAY) {
            return "[]" + (elementType == FieldType.STRUCT ? struct.name() : elementType.schemaName());
        }
        return type == FieldType.STRUCT ? struct.name() : type.schemaName();
    }

    @Override
    public String toString() {
        return name + ":" + schemaType();
    }
}
